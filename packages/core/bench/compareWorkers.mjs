// Before against after, where the pool searches: each build's index made over the same store in
// this thread, its image handed to a worker thread of its own (as the server's pool does), and the
// recorded requests of a query log run there, build after build, four rounds (the first a
// warm-up); the answers' totals are compared, and each worker's matcher time printed.
//
//   node packages/core/bench/compareWorkers.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads"
import { Effect } from "effect"

if (!isMainThread) {
  const core = await import(workerData.core)
  const searcher = core.TripSearcher.over(workerData.image)
  parentPort.on("message", (requests) => {
    const t0 = performance.now()
    const totals = requests.map((r) => searcher.search(r).total)
    parentPort.postMessage({ ms: performance.now() - t0, totals })
  })
} else {
  const { compareArgs, loadIndex, readLog, runQuery, servicesOf } = await import("./compareSetup.mjs")
  const { store, log, previousUrl: there } = compareArgs("compareWorkers.mjs")
  const here = new URL("../dist/index.js", import.meta.url).href
  const core = await import(here)
  const load = async (url) => loadIndex((await import(url)).TripIndex, store)
  // The requests as the use-case makes them from the log's queries (this build's use-case).
  const requests = []
  const own = await load(here)
  const svc = servicesOf(core, store, (r) => Effect.sync(() => (requests.push(r), own.search(r))))
  for (const q of readLog(log)) runQuery(core.searchTrips, svc, q)
  const workers = {}
  for (const [name, url, index] of [["previous", there, await load(there)], ["this", here, own]]) {
    workers[name] = new Worker(new URL(import.meta.url), { workerData: { core: url, image: index.image() } })
  }
  const run = (name) => new Promise((res) => { workers[name].once("message", res); workers[name].postMessage(requests) })
  const ms = { previous: [], this: [] }
  const totals = { previous: [], this: [] }
  let differ = 0
  for (let round = 0; round < 4; round++) {
    // Alternately first: neither build always meets the caches the other left.
    for (const name of round % 2 === 0 ? ["previous", "this"] : ["this", "previous"]) {
      const r = await run(name)
      ms[name].push(r.ms)
      totals[name] = r.totals
    }
    differ += totals.this.filter((t, k) => t !== totals.previous[k]).length
  }
  const best = (a) => Math.min(...a.slice(1))
  console.log(`${requests.length} searches in a worker thread, 4 rounds (the first a warm-up): totals differ in ${differ}`)
  console.log(`previous ${ms.previous.map((x) => x.toFixed(0)).join(" / ")} ms, this ${ms.this.map((x) => x.toFixed(0)).join(" / ")} ms; best of the last three x${(best(ms.previous) / best(ms.this)).toFixed(2)}`)
  for (const w of Object.values(workers)) await w.terminate()
  process.exit(0)
}
