// HTTP benchmark: the real server (apps/api, worker pool, SQLite store) against a bare Express
// route returning a constant body of the same mean size, both loaded by the same load generator
// (bench/load.mjs, its own process) at the same concurrency, in alternating rounds of one run.
//
//   node apps/api/bench/http.mjs [--db PATH] [--seconds S] [--concurrency C] [--rounds R] [--threads T] [--in-process yes|no]
//
// It also prints the CPU per request of both servers and of the load generator, the CPU per
// request the 0.5 target leaves on this machine, and (unless --in-process no) the search
// use-case's own cost in this thread without HTTP. The store defaults to the geo-pool
// benchmark's cached 1,000,000-trip store: run `npm run bench` (the matching benchmark, which
// builds it) or packages/geo-pool/bench/bench.mjs first.
import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Context, Effect } from "effect"
import { PlaceResolver, searchTrips, TripIndex, TripMatcher, TripStore } from "@tripsearch/core"
import { GENERATOR_VERSION } from "@tripsearch/dataset"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { createKey, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../../..")
const { values } = parseArgs({
  options: {
    db: { type: "string", default: join(root, `.bench/geo-pool-1000000-1-g${GENERATOR_VERSION}.db`) },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "32" },
    rounds: { type: "string", default: "2" },
    threads: { type: "string", default: "2" },
    queries: { type: "string", default: "2000" },
    "in-process": { type: "string", default: "yes" }
  }
})
if (!existsSync(values.db)) {
  console.error(`no store at ${values.db}: run packages/geo-pool/bench/bench.mjs first (it builds and caches it), or pass --db`)
  process.exit(2)
}

// Realistic JSON searches from the store itself: trips' own waypoints (whole trips and sub-trips,
// by coordinates and by city name), single places, and some filters; one locale per country.
const LOCALE_OF = {
  AT: ["de_AT", "EUR"], BR: ["pt_BR", "EUR"], CZ: ["cs_CZ", "CZK"], DE: ["de_DE", "EUR"], GB: ["en_GB", "GBP"], ES: ["es_ES", "EUR"],
  FR: ["fr_FR", "EUR"], BE: ["fr_BE", "EUR"], HR: ["hr_HR", "HRK"], HU: ["hu_HU", "HUF"], IN: ["en_IN", "INR"], IT: ["it_IT", "EUR"],
  MX: ["es_MX", "MXN"], NL: ["nl_NL", "EUR"], PL: ["pl_PL", "PLN"], PT: ["pt_PT", "EUR"], RO: ["ro_RO", "RON"], RS: ["sr_Latn_RS", "RSD"],
  RU: ["ru_RU", "RUB"], SK: ["sk_SK", "EUR"], TR: ["tr_TR", "TRY"], UA: ["uk_UA", "UAH"]
}
const db = openDatabase(values.db)
const active = db.prepare("SELECT count(*) AS n FROM trips WHERE status = 'active'").get().n
const wanted = Number(values.queries)
const step = Math.max(1, Math.floor(active / wanted))
const samples = db.prepare("SELECT trip_json FROM trips WHERE status = 'active' AND rowid % ? = 0 LIMIT ?").all(step, wanted)
const key = createKey(db, { name: "http-bench", tier: "production", dailyLimit: 1_000_000_000 }).key
db.close()

let seed = 42
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
const paths = samples.map(({ trip_json }) => {
  const t = JSON.parse(trip_json)
  const w = t.waypoints
  const i = Math.floor(rand() * (w.length - 1))
  const j = i + 1 + Math.floor(rand() * (w.length - 1 - i))
  const [locale, cur] = LOCALE_OF[w[i].country] ?? ["fr_FR", "EUR"]
  const q = new URLSearchParams({ locale, cur })
  const r = rand()
  if (r < 0.5) {
    q.set("fc", `${w[i].lat}|${w[i].lon}`)
    q.set("tc", `${w[j].lat}|${w[j].lon}`)
  } else if (r < 0.7) {
    q.set("fn", w[i].city)
    q.set("tn", w[j].city)
  } else if (r < 0.85) {
    q.set(rand() < 0.5 ? "fc" : "tc", `${w[i].lat}|${w[i].lon}`)
  } else {
    q.set("fc", `${w[i].lat}|${w[i].lon}`)
    q.set("tc", `${w[j].lat}|${w[j].lon}`)
    q.set("db", t.departure_time.slice(0, 10))
    q.set("seats", "1")
    q.set("sort", "trip_price")
  }
  return `/api/v2/trips?${q}`
})
const work = mkdtempSync(join(tmpdir(), "tripsearch-http-bench-"))
const pathsFile = join(work, "paths.txt")
writeFileSync(pathsFile, paths.join("\n"))

/** Starts a child and resolves with the first stdout line matching `ready`, and the time it took. */
const startChild = (args, env, ready) =>
  new Promise((resolvePromise, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let buffer = ""
    let found = false
    // The server says it listens on stderr and logs requests on stdout: read both, keep draining.
    const watch = (chunk) => {
      if (found) return
      buffer += chunk
      const m = ready.exec(buffer)
      if (m) {
        found = true
        resolvePromise({ child, match: m, ms: performance.now() - t0 })
      }
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.on("exit", (code) => found || reject(new Error(`${args[0]} exited with ${code} before it was ready`)))
  })

const load = (base, withKey, seconds) =>
  new Promise((resolvePromise, reject) => {
    const args = [join(here, "load.mjs"), "--base", base, "--paths", pathsFile, "--concurrency", values.concurrency, "--seconds", String(seconds)]
    if (withKey) args.push("--key", key)
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    child.stdout.on("data", (c) => (out += c))
    child.on("exit", (code) => (code === 0 ? resolvePromise(JSON.parse(out)) : reject(new Error(`load exited with ${code}`))))
  })

const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m ? Math.round(Number(m[1]) / 1024) : NaN
}

console.log(`HTTP bench: store ${values.db} (${active} active trips), ${paths.length} queries, concurrency ${values.concurrency}, ${values.rounds} rounds of ${values.seconds} s each side, pool of ${values.threads}`)

const server = await startChild(
  [...(process.env.BENCH_SERVER_NODE_OPTIONS ?? "").split(" ").filter((x) => x !== ""), join(root, "apps/api/dist/main.js")],
  { TRIPSEARCH_DB: values.db, PORT: "0", QUERY_LOG: "off", MATCHER_THREADS: values.threads },
  /listening on (http:\/\/[\d.]+:\d+)/
)
const apiBase = server.match[1]
console.log(`server start on the store (spawn -> listening): ${(server.ms / 1000).toFixed(1)} s   [target <= 15 s]`)

// Warm-up, and the mean body size the baseline must match.
const warm = await load(apiBase, true, 3)
const bad = Object.entries(warm.statuses).filter(([s]) => s !== "200")
if (bad.length > 0) console.log(`  note: statuses in warm-up ${JSON.stringify(warm.statuses)}`)
const bare = await startChild([join(here, "bareExpress.mjs"), "--bytes", String(Math.round(warm.meanBytes))], {}, /listening (\d+)/)
const bareBase = `http://127.0.0.1:${bare.match[1]}`
await load(bareBase, false, 2)

/**
 * CPU time (ms) of a process's threads from /proc (Linux): its main thread and all the others
 * (the pool's workers, libuv and V8 helpers). A per-request split that noise on a shared machine
 * does not skew the way it skews req/s.
 */
const CLOCK_TICKS = 100
const threadCpuMs = (pid) => {
  const split = { main: 0, others: 0 }
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      const ms = ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS
      if (Number(tid) === pid) split.main += ms
      else split.others += ms
    }
  } catch {
    return undefined
  }
  return split
}

const ours = []
const baseline = []
/** One load round, with the server's CPU per request (all its threads, and its main thread). */
const measured = async (pid, base, withKey) => {
  const before = threadCpuMs(pid)
  const run = await load(base, withKey, Number(values.seconds))
  const after = threadCpuMs(pid)
  if (before !== undefined && after !== undefined) {
    run.cpuPerRequest = { main: (after.main - before.main) / run.requests, others: (after.others - before.others) / run.requests }
  }
  return run
}
for (let r = 0; r < Number(values.rounds); r++) {
  ours.push(await measured(server.child.pid, apiBase, true))
  baseline.push(await measured(bare.child.pid, bareBase, false))
}
const best = (runs) => runs.reduce((a, b) => (b.rps > a.rps ? b : a))
const o = best(ours)
const b = best(baseline)
const fmt = (x) => `${x.rps.toFixed(0)} req/s, p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, ${Math.round(x.meanBytes)} B`
console.log(`tripsearch search (JSON):   ${fmt(o)}   statuses ${JSON.stringify(o.statuses)}`)
console.log(`bare Express, same size:    ${fmt(b)}`)
console.log(`ratio ours / bare: ${(o.rps / b.rps).toFixed(2)}   [target >= 0.50]   (rounds: ours ${ours.map((x) => x.rps.toFixed(0)).join(", ")}; bare ${baseline.map((x) => x.rps.toFixed(0)).join(", ")})`)
const ms2 = (x) => x.toFixed(2)
if (o.cpuPerRequest !== undefined && b.cpuPerRequest !== undefined) {
  const oursCpu = o.cpuPerRequest.main + o.cpuPerRequest.others
  const bareCpu = b.cpuPerRequest.main + b.cpuPerRequest.others
  console.log(`CPU per request (best rounds): tripsearch ${ms2(oursCpu)} ms (main thread ${ms2(o.cpuPerRequest.main)}, pool workers and other threads ${ms2(o.cpuPerRequest.others)}); bare Express ${ms2(bareCpu)} ms; load generator ${ms2(o.clientCpuMsPerRequest)} / ${ms2(b.clientCpuMsPerRequest)} ms`)
  // What the target leaves: at half the bare rate, every core-ms of this machine per request.
  const targetRps = 0.5 * b.rps
  const budget = (cpus().length * 1000) / targetRps
  console.log(`  at the target (${targetRps.toFixed(0)} req/s) ${cpus().length} cores give ${ms2(budget)} ms of CPU per request for server and load generator; tripsearch used ${ms2(oursCpu + o.clientCpuMsPerRequest)}`)
}
console.log(`server RSS (main thread + workers): ${rssMb(server.child.pid)} MB   [target <= 2048 MB]`)

server.child.kill("SIGTERM")
bare.child.kill("SIGTERM")
rmSync(work, { recursive: true, force: true })

// The same searches with no HTTP and no thread hand-off: core's use-case in this thread, over its
// own index of the store (as a pool worker runs it), split into matching, reading the shown trips,
// and the rest (decoding, place names, rendering); then JSON encoding. The work any search does.
if (values["in-process"] === "yes") {
  const rdb = openDatabase(values.db, { readonly: true })
  rdb.pragma("mmap_size = 0")
  rdb.pragma("cache_size = -8192")
  const store = makeSqliteTripStore(rdb)
  const index = new TripIndex()
  index.beginLoad()
  Effect.runSync(store.scanIndex((r) => index.upsert(r)))
  index.endLoad()
  const gazetteer = Gazetteer.shared()
  const spent = { match: 0, read: 0 }
  const timed = (key, f) => {
    const t0 = performance.now()
    const value = f()
    spent[key] += performance.now() - t0
    return value
  }
  const services = Context.make(TripStore, { ...store, getTrips: (ids) => Effect.sync(() => timed("read", () => Effect.runSync(store.getTrips(ids)))) }).pipe(
    Context.add(TripMatcher, { match: (request) => Effect.sync(() => timed("match", () => index.search(request))) }),
    Context.add(PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer))
  )
  const requests = paths.map((p) => {
    const [path, query] = p.split("?")
    return { params: Object.fromEntries(new URLSearchParams(query)), context: { apiBaseUrl: "http://x", websiteBaseUrl: "http://w", path, query } }
  })
  let best
  for (let round = 0; round < 3; round++) {
    spent.match = spent.read = 0
    let encode = 0
    const t0 = performance.now()
    for (const r of requests) {
      const body = Effect.runSync(Effect.provide(searchTrips(r.params, r.context), services))
      const t1 = performance.now()
      JSON.stringify(body)
      encode += performance.now() - t1
    }
    const n = requests.length
    const total = (performance.now() - t0) / n
    if (round > 0 && (best === undefined || total < best.total)) best = { total, match: spent.match / n, read: spent.read / n, encode: encode / n }
  }
  console.log(
    `search use-case in one thread, no HTTP (best of 2 passes over the ${requests.length} queries): ${ms2(best.total)} ms per search ` +
      `(matching ${ms2(best.match)}, reading the shown trips ${ms2(best.read)}, JSON encoding ${ms2(best.encode)}, decoding, places and rendering ${ms2(best.total - best.match - best.read - best.encode)})`
  )
  rdb.close()
}
