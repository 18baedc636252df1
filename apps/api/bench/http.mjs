// HTTP benchmark: the real server (apps/api, worker pool, SQLite store) answering JSON searches
// without compression and with `Accept-Encoding: gzip, br`, against a bare Express route returning
// a constant body of the uncompressed mean size, all loaded by the same load generator
// (bench/load.mjs, its own process) at the same concurrency, in alternating rounds of one run.
// `--help` lists the options. It also prints the CPU per request of the servers and of the load
// generator, and (unless --in-process no) the search use-case's own cost in this thread without
// HTTP, with what compressing its body costs and saves by body size.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { cpus } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { Context, Effect } from "effect"
import { PlaceResolver, searchTrips, TripIndex, TripMatcher, TripStore } from "@tripsearch/core"
import { GENERATOR_VERSION } from "@tripsearch/dataset"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { COMPRESSION_MIN_BYTES, compress, errorBody } from "@tripsearch/http-express"
import { createKey, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { ensureDataset } from "../dist/ensureDataset.js"
import { startChild } from "./startChild.mjs"
import { ownChild, temporaryFolder } from "./stopOnSignal.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../../..")

const USAGE = `Usage: npm run bench:http -- [options]
       node apps/api/bench/http.mjs [options]     (after npm run build)

Loads the real server with JSON searches drawn from its store, without compression and with
Accept-Encoding: gzip, br, in alternating rounds, and a bare Express route with a body of the same
size; prints throughput, latency (p50, p99), bytes on the wire and CPU per request of each.

Options:
  --trips N            size of the generated store .bench/http-N-gV.db (V: the generator version), made on the first run (default 20000)
  --db PATH            load this existing store instead (e.g. .bench/geo-pool-1000000-1-gV.db of npm run bench)
  --seconds S          length of one load round (default 10)
  --rounds R           rounds of each side, best one reported (default 2)
  --concurrency C      requests in flight (default 32)
  --threads T          worker threads of the server's search pool (default 2)
  --queries Q          distinct searches drawn from the store (default 2000)
  --in-process yes|no  also time the search use-case without HTTP, and compression by body size (default yes)
  -h, --help           print this help and exit`

let values
try {
  ;({ values } = parseArgs({
    options: {
      help: { type: "boolean", short: "h", default: false },
      db: { type: "string" },
      trips: { type: "string", default: "20000" },
      seconds: { type: "string", default: "10" },
      concurrency: { type: "string", default: "32" },
      rounds: { type: "string", default: "2" },
      threads: { type: "string", default: "2" },
      queries: { type: "string", default: "2000" },
      "in-process": { type: "string", default: "yes" }
    }
  }))
} catch (e) {
  console.error(`bench:http: ${e.message.split("\n")[0]} (--help lists the options)`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
for (const name of ["trips", "seconds", "concurrency", "rounds", "threads", "queries"]) {
  if (!/^[1-9]\d*$/.test(values[name]) || (name === "threads" && Number(values[name]) > 64)) {
    console.error(`bench:http: --${name} must be a positive integer, got "${values[name]}" (--help lists the options)`)
    process.exit(2)
  }
}
if (values["in-process"] !== "yes" && values["in-process"] !== "no") {
  console.error(`bench:http: --in-process must be yes or no, got "${values["in-process"]}" (--help lists the options)`)
  process.exit(2)
}

/** Departures of a generated store start at a fixed date, so that a cached store stays valid. */
const GEN_NOW = Date.UTC(2030, 0, 7, 6, 0, 0)
if (values.db !== undefined) {
  values.db = resolve(values.db)
  if (!existsSync(values.db)) {
    console.error(`bench:http: no store at ${values.db} (leave --db out to generate one under .bench/)`)
    process.exit(2)
  }
  console.log(`store: ${values.db} (--db)`)
} else {
  values.db = join(root, ".bench", `http-${values.trips}-g${GENERATOR_VERSION}.db`)
  if (existsSync(values.db)) console.log(`store: ${values.db} (made by an earlier run; delete it to regenerate)`)
  else {
    console.log(`store: ${values.db} is missing: generating and importing ${values.trips} trips (once; later runs reuse it)`)
    mkdirSync(dirname(values.db), { recursive: true })
    const t0 = performance.now()
    await ensureDataset({ dbPath: values.db, demoKeyPath: join(dirname(values.db), `http-${values.trips}-g${GENERATOR_VERSION}-demo-key.json`), trips: Number(values.trips), nowMs: GEN_NOW })
    console.log(`  done in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
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
const work = temporaryFolder("tripsearch-http-bench-")
const pathsFile = join(work, "paths.txt")
writeFileSync(pathsFile, paths.join("\n"))

const COMPRESSED = "gzip, br"

const load = (base, withKey, seconds, acceptEncoding) =>
  new Promise((resolvePromise, reject) => {
    const args = [join(here, "load.mjs"), "--base", base, "--paths", pathsFile, "--concurrency", values.concurrency, "--seconds", String(seconds)]
    if (withKey) args.push("--key", key)
    if (acceptEncoding !== undefined) args.push("--accept-encoding", acceptEncoding)
    const child = ownChild(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] }))
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

// Warm-up, and the mean (uncompressed) body size the baseline must match.
await load(apiBase, true, 2, COMPRESSED)
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
const oursCompressed = []
const baseline = []
/** One load round, with the server's CPU per request (all its threads, and its main thread). */
const measured = async (pid, base, withKey, acceptEncoding) => {
  const before = threadCpuMs(pid)
  const run = await load(base, withKey, Number(values.seconds), acceptEncoding)
  const after = threadCpuMs(pid)
  if (before !== undefined && after !== undefined) {
    run.cpuPerRequest = { main: (after.main - before.main) / run.requests, others: (after.others - before.others) / run.requests }
  }
  return run
}
// The three sides alternate, so that a change in the machine's load hits each alike.
for (let r = 0; r < Number(values.rounds); r++) {
  ours.push(await measured(server.child.pid, apiBase, true))
  oursCompressed.push(await measured(server.child.pid, apiBase, true, COMPRESSED))
  baseline.push(await measured(bare.child.pid, bareBase, false))
}
const best = (runs) => runs.reduce((a, b) => (b.rps > a.rps ? b : a))
// The search at full speed: at least 1,600 searches/s at concurrency 32 and 0.40 of the bare route.
const RATIO_TARGET = 0.4
const RPS_TARGET = 1600
const o = best(ours)
const c = best(oursCompressed)
const b = best(baseline)
const ms2 = (x) => x.toFixed(2)
const fmt = (x) => {
  const cpu = x.cpuPerRequest === undefined ? "" : `, CPU ${ms2(x.cpuPerRequest.main + x.cpuPerRequest.others)} ms/req (main thread ${ms2(x.cpuPerRequest.main)})`
  return `${x.rps.toFixed(0)} req/s, p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, ${Math.round(x.meanBytes)} B on the wire${cpu}`
}
const rounds = (runs) => runs.map((x) => x.rps.toFixed(0)).join(", ")
console.log(`tripsearch search, no compression:       ${fmt(o)}   statuses ${JSON.stringify(o.statuses)}`)
console.log(`tripsearch search, Accept-Encoding ${COMPRESSED}: ${fmt(c)}   codings ${JSON.stringify(c.codings)}`)
console.log(`bare Express, same size uncompressed:    ${fmt(b)}`)
console.log(`compressed / uncompressed: ${(c.rps / o.rps).toFixed(2)}x the throughput, ${(c.meanBytes / o.meanBytes).toFixed(3)}x the bytes`)
console.log(`ratio ours / bare: ${(o.rps / b.rps).toFixed(2)}   [targets: ratio >= ${RATIO_TARGET.toFixed(2)} ${o.rps / b.rps >= RATIO_TARGET ? "ok" : "MISSED"}, ours >= ${RPS_TARGET} req/s ${o.rps >= RPS_TARGET ? "ok" : "MISSED"}]   (rounds: ours ${rounds(ours)}; compressed ${rounds(oursCompressed)}; bare ${rounds(baseline)})`)
if (o.cpuPerRequest !== undefined && b.cpuPerRequest !== undefined) {
  const oursCpu = o.cpuPerRequest.main + o.cpuPerRequest.others
  const bareCpu = b.cpuPerRequest.main + b.cpuPerRequest.others
  console.log(`CPU per request (best rounds): tripsearch ${ms2(oursCpu)} ms (main thread ${ms2(o.cpuPerRequest.main)}, pool workers and other threads ${ms2(o.cpuPerRequest.others)}); bare Express ${ms2(bareCpu)} ms; load generator ${ms2(o.clientCpuMsPerRequest)} / ${ms2(b.clientCpuMsPerRequest)} ms`)
  // What the targets leave: at the higher of the two rates, every core-ms of this machine per request.
  const targetRps = Math.max(RATIO_TARGET * b.rps, RPS_TARGET)
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

  // What compression costs and saves by body size, at the service's levels (brotli 4, gzip 6): the
  // searches above, the same with limit=1 and with fields=pager (small bodies), and Error objects.
  const bodies = []
  for (const [i, r] of requests.entries()) {
    bodies.push(JSON.stringify(Effect.runSync(Effect.provide(searchTrips(r.params, r.context), services))))
    if (i % 4 === 0) {
      for (const extra of [{ limit: "1" }, { fields: "pager" }]) {
        const exit = Effect.runSyncExit(Effect.provide(searchTrips({ ...r.params, ...extra }, r.context), services))
        if (exit._tag === "Success") bodies.push(JSON.stringify(exit.value))
      }
      bodies.push(JSON.stringify(errorBody({ status: 404, token: "place.not_found", message: `fn: no place named "${r.params.fn ?? "x"}"` }, "https://www.tripsearch.example/developers/errors#place.not_found")))
    }
  }
  const bins = [[0, 512], [512, 1024], [1024, 2048], [2048, 8192], [8192, 32768], [32768, Infinity]].map(([lo, hi]) => ({ lo, hi, n: 0, raw: 0, gz: 0, br: 0, gzMs: 0, brMs: 0 }))
  for (const text of bodies) {
    const bytes = Buffer.from(text)
    const bin = bins.find((x) => bytes.length >= x.lo && bytes.length < x.hi)
    bin.n++
    bin.raw += bytes.length
    let t = performance.now()
    bin.gz += compress(bytes, "gzip").length
    bin.gzMs += performance.now() - t
    t = performance.now()
    bin.br += compress(bytes, "br").length
    bin.brMs += performance.now() - t
  }
  console.log(`compression by body size (${bodies.length} JSON bodies; threshold ${COMPRESSION_MIN_BYTES} B): mean bytes raw -> gzip / brotli, and µs per body`)
  for (const x of bins.filter((x) => x.n > 0)) {
    const mean = (v) => Math.round(v / x.n)
    console.log(
      `  ${String(x.lo).padStart(5)}-${x.hi === Infinity ? "   " : String(x.hi).padEnd(5)} B: ${String(x.n).padStart(5)} bodies, ${mean(x.raw)} -> ${mean(x.gz)} / ${mean(x.br)} B ` +
        `(saves ${mean(x.raw - x.gz)} / ${mean(x.raw - x.br)} B), ${((x.gzMs / x.n) * 1000).toFixed(0)} / ${((x.brMs / x.n) * 1000).toFixed(0)} µs`
    )
  }
  rdb.close()
}
