// Before against after, where the pool searches: each build's index made over the same store in
// this thread, its image handed to a worker thread of its own (as the server's pool does), and the
// recorded requests of a query log run there, build after build, three rounds; the answers'
// totals are compared, and each worker's matcher time printed.
//
//   node packages/core/bench/compareWorkers.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads"
import { Context, Effect } from "effect"

if (!isMainThread) {
  const core = await import(workerData.core)
  const searcher = core.TripSearcher.over(workerData.image)
  parentPort.on("message", (requests) => {
    const t0 = performance.now()
    const totals = requests.map((r) => searcher.search(r).total)
    parentPort.postMessage({ ms: performance.now() - t0, totals })
  })
} else {
  const { values } = parseArgs({ options: { db: { type: "string" }, log: { type: "string" }, previous: { type: "string" }, help: { type: "boolean" } }, strict: true })
  if (values.help || !values.db || !values.log || !values.previous) {
    console.log("usage: node packages/core/bench/compareWorkers.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js")
    process.exit(values.help ? 0 : 2)
  }
  const here = new URL("../dist/index.js", import.meta.url).href
  const there = pathToFileURL(resolve(values.previous)).href
  const core = await import(here)
  const { Gazetteer, GazetteerPlaceResolver } = await import("../../gazetteer/dist/index.js")
  const { makeSqliteTripStore, openDatabase } = await import("../../storage-sqlite/dist/index.js")
  const store = makeSqliteTripStore(openDatabase(values.db, { readonly: true }))
  const load = async (url) => {
    const { TripIndex } = await import(url)
    const index = new TripIndex()
    index.beginLoad()
    Effect.runSync(store.scanIndex((r) => index.upsert(r)))
    index.endLoad()
    return index
  }
  // The requests as the use-case makes them from the log's queries (this build's use-case).
  const requests = []
  const gazetteer = Gazetteer.shared()
  const own = await load(here)
  const svc = Context.make(core.TripStore, store).pipe(
    Context.add(core.TripMatcher, { match: (r) => Effect.sync(() => (requests.push(r), own.search(r))) }),
    Context.add(core.PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer))
  )
  for (const line of readFileSync(values.log, "utf8").split("\n").filter(Boolean)) {
    const q = JSON.parse(line)
    Effect.runSync(Effect.either(Effect.provide(core.searchTrips(Object.fromEntries(new URLSearchParams(q.query)), { apiBaseUrl: "http://x", websiteBaseUrl: "http://w", path: q.path, query: q.query }), svc)))
  }
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
