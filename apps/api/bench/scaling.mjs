// The scaling bench: API replicas over one PostgreSQL, and what each costs the database. It starts
// a throwaway cluster (pg_stat_statements loaded), imports a generated feed with the store CLI,
// starts the replicas one after the other (the start time of a replica at that many trips), then
// counts the statements the database runs for the replicas at rest and per 1,000 searches (and per
// 1,000 trip details), with their connections; last, a server's start from an index snapshot.
//
//   npm run bench:scaling -- [--trips N] [--feed FILE] [--replicas R] [--rest-seconds S] [--searches N]
import { spawn } from "node:child_process"
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import { once } from "node:events"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { GENERATOR_VERSION, writeFeed } from "@tripsearch/dataset"
import { connectPostgres } from "@tripsearch/storage-postgres"
import { startPostgresCluster } from "@tripsearch/store-tests/postgres-cluster"
import { startChild } from "./startChild.mjs"

const USAGE = `usage: npm run bench:scaling -- [options]

Starts a throwaway PostgreSQL 15 cluster, imports a feed into it with the store CLI, starts API
replicas over it one after the other, and prints: the import time, each replica's start time
and memory, the database's statements and transactions per second per replica at rest, per
1,000 searches and per 1,000 trip details, and the connections each replica holds.
  --trips N          trips of the feed (default 1000000); the feed is made once under
                     .bench/import-<N>-1-g<V>.ndjson (V the generator version), then reused
  --feed FILE        import this NDJSON feed instead (e.g. another checkout's .bench file)
  --replicas R       API processes (default 2)
  --rest-seconds S   how long the replicas are watched at rest (default 20)
  --searches N       searches (and trip details) sent to the first replica (default 1000)
  --concurrency C    requests in flight while doing so (default 4)
  --snapshot yes|no  also start a server twice with INDEX_SNAPSHOT: the first scans the store and
                     writes the snapshot, the second starts from it (default yes)
  --help             this text`

let values
try {
  ;({ values } = parseArgs({
    options: {
      trips: { type: "string", default: "1000000" },
      feed: { type: "string" },
      replicas: { type: "string", default: "2" },
      "rest-seconds": { type: "string", default: "20" },
      searches: { type: "string", default: "1000" },
      concurrency: { type: "string", default: "4" },
      snapshot: { type: "string", default: "yes" },
      help: { type: "boolean", short: "h" }
    },
    strict: true,
    allowPositionals: false
  }))
} catch (e) {
  console.error(`bench:scaling: ${e.message}\n\n${USAGE}`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const int = (name, min) => {
  const raw = values[name].replaceAll("_", "")
  const n = Number(raw)
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min) {
    console.error(`bench:scaling: --${name} must be an integer >= ${min}, got "${values[name]}"`)
    process.exit(2)
  }
  return n
}
const N = int("trips", 1)
const REPLICAS = int("replicas", 1)
const REST_S = int("rest-seconds", 1)
const SEARCHES = int("searches", 1)
const CONCURRENCY = int("concurrency", 1)
if (values.snapshot !== "yes" && values.snapshot !== "no") {
  console.error(`bench:scaling: --snapshot must be yes or no, got "${values.snapshot}"`)
  process.exit(2)
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const benchDir = join(root, ".bench")
mkdirSync(benchDir, { recursive: true })
/** Departures over 30 days from a fixed instant, as bench:import's feeds (the same files). */
const GEN_NOW = Date.UTC(2030, 0, 7, 6, 0, 0)
let feedPath = values.feed === undefined ? join(benchDir, `import-${N}-1-g${GENERATOR_VERSION}.ndjson`) : resolve(values.feed)
if (values.feed !== undefined && !existsSync(feedPath)) {
  console.error(`bench:scaling: --feed: no file ${feedPath}`)
  process.exit(2)
}
if (!existsSync(feedPath)) {
  console.log(`making ${feedPath} (${N} trips, seed 1)...`)
  const tmp = `${feedPath}.partial`
  const out = createWriteStream(tmp)
  await writeFeed({ trips: N, seed: 1, nowMs: GEN_NOW }, out)
  out.end()
  await once(out, "finish")
  renameSync(tmp, feedPath)
}

const STORE_CLI = join(root, "packages/store/dist/cli.js")
const MAIN = join(root, "apps/api/dist/main.js")
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const run = (args) =>
  new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (c) => (out += c))
    child.stderr.on("data", (c) => (out += c))
    child.on("exit", (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`${args.join(" ")} exited with ${code}:\n${out}`))))
  })
const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return m ? Number(m[1]) / 1024 : NaN
}

console.log(
  `scaling bench: ${feedPath} (${(statSync(feedPath).size / 1e9).toFixed(2)} GB), ${REPLICAS} replicas; ` +
    `${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, load average ${loadavg()[0].toFixed(1)}, Node ${process.version}`
)

// The searches: between the two ends of trips of the feed (its first lines), so that each finds trips.
const searches = []
const tripIds = []
for await (const line of createInterface({ input: createReadStream(feedPath), crlfDelay: Infinity })) {
  if (line === "") continue
  const trip = JSON.parse(line)
  const [a, b] = [trip.waypoints[0], trip.waypoints[trip.waypoints.length - 1]]
  searches.push(`/api/v2/trips?locale=fr_FR&cur=EUR&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}`)
  tripIds.push(trip.id)
  if (searches.length === SEARCHES) break
}

const cluster = await startPostgresCluster({
  settings: ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all", "shared_buffers=256MB", "max_wal_size=4GB"]
})
const replicas = []
const admin = connectPostgres(cluster.url, { max: 1 })
try {
  await admin`CREATE EXTENSION pg_stat_statements`

  let t0 = performance.now()
  console.log(`import: ${(await run([STORE_CLI, "import", "--db", cluster.url, feedPath])).trim()}`)
  const importMs = performance.now() - t0
  const [{ trips, bytes }] = await admin`SELECT count(*)::int8 AS trips, pg_database_size(current_database())::int8 AS bytes FROM trips`
  console.log(`  ${seconds(importMs)}; ${trips} trips, database ${(bytes / 1e9).toFixed(2)} GB`)
  const key = /^key:\s+(\S+)/m.exec(await run([STORE_CLI, "keys", "create", "--db", cluster.url, "--name", "bench", "--tier", "production", "--daily-limit", "100000000"]))[1]

  for (let i = 0; i < REPLICAS; i++) {
    const started = await startChild(
      [MAIN],
      { TRIPSEARCH_DB: cluster.url, PORT: "0", HOST: "127.0.0.1", QUERY_LOG: "off", MATCHER_THREADS: "1", METRICS: "off" },
      /listening on (http:\/\/[\d.]+:\d+)/
    )
    const loaded = /index loaded from the store in ([\d.]+) s/.exec(started.output)
    replicas.push({ ...started, base: started.match[1] })
    console.log(`replica ${i + 1}: listening after ${seconds(started.ms)} (index loaded from the store in ${loaded?.[1] ?? "?"} s), RSS ${rssMb(started.child.pid).toFixed(0)} MB`)
  }

  /** Statements run (pg_stat_statements' calls, the bench's own left out) and transactions committed. */
  const counters = async () => {
    const [row] = await admin`
      SELECT (SELECT coalesce(sum(calls), 0)::int8 FROM pg_stat_statements
               WHERE query NOT ILIKE '%pg_stat%' AND query NOT ILIKE '%pg_database_size%') AS statements,
             (SELECT xact_commit::int8 FROM pg_stat_database WHERE datname = current_database()) AS commits`
    return row
  }
  const top = async () =>
    admin`SELECT calls::int8 AS calls, regexp_replace(left(query, 90), '\\s+', ' ', 'g') AS query FROM pg_stat_statements
          WHERE query NOT ILIKE '%pg_stat%' ORDER BY calls DESC LIMIT 6`
  // Statistics reach pg_stat_database within a second or so of a backend going idle: wait them out.
  const settle = () => sleep(1_500)
  const window = async (body) => {
    await settle()
    await admin`SELECT pg_stat_statements_reset()`
    const before = await counters()
    const t = performance.now()
    await body()
    const ms = performance.now() - t
    await settle()
    const after = await counters()
    return { ms: ms + 1_500, statements: after.statements - before.statements, commits: after.commits - before.commits }
  }

  // Warm each replica's key lookup and count, as a replica in service has them.
  for (const r of replicas) await fetch(`${r.base}${searches[0]}`, { headers: { key } })
  const rest = await window(() => sleep(REST_S * 1_000))
  const restTop = await top()
  const perReplicaRest = (x) => x / (rest.ms / 1000) / REPLICAS

  const send = async (paths) => {
    let next = 0
    const statuses = new Map()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < paths.length) {
          const path = paths[next++]
          const response = await fetch(`${replicas[0].base}${path}`, { headers: { key } })
          await response.arrayBuffer()
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        }
      })
    )
    return [...statuses].map(([s, n]) => `${s} x${n}`).join(", ")
  }
  let searchStatuses
  const load = await window(async () => void (searchStatuses = await send(searches)))
  const loadTop = await top()
  let detailStatuses
  const details = await window(async () => void (detailStatuses = await send(tripIds.map((id) => `/api/v2/trips/${id}?locale=fr_FR&cur=EUR`))))
  // Beyond what the replicas do at rest over the same time, per 1,000 requests.
  const per1000 = (w, n, field) => ((w[field] - perReplicaRest(rest[field]) * REPLICAS * (w.ms / 1000)) / n) * 1000
  const [{ connections }] = await admin`SELECT count(*)::int AS connections FROM pg_stat_activity WHERE application_name = 'tripsearch'`

  console.log(`
at rest (${seconds(rest.ms)}, ${REPLICAS} replicas): ${rest.statements} statements, ${rest.commits} transactions
  per replica: ${perReplicaRest(rest.statements).toFixed(2)} statements/s, ${perReplicaRest(rest.commits).toFixed(2)} transactions/s
  most run: ${restTop.map((r) => `\n    ${String(r.calls).padStart(6)}  ${r.query}`).join("")}
${searches.length} searches to replica 1 in ${seconds(load.ms - 1_500)} (${searchStatuses}): ${load.statements} statements, ${load.commits} transactions
  per 1,000 searches beyond rest: ${per1000(load, searches.length, "statements").toFixed(0)} statements, ${per1000(load, searches.length, "commits").toFixed(0)} transactions
  most run: ${loadTop.map((r) => `\n    ${String(r.calls).padStart(6)}  ${r.query}`).join("")}
${tripIds.length} trip details to replica 1 in ${seconds(details.ms - 1_500)} (${detailStatuses}): ${details.statements} statements, ${details.commits} transactions
  per 1,000 details beyond rest: ${per1000(details, tripIds.length, "statements").toFixed(0)} statements, ${per1000(details, tripIds.length, "commits").toFixed(0)} transactions
connections held by ${REPLICAS} replicas: ${connections} (${(connections / REPLICAS).toFixed(1)} each)
replica RSS: ${replicas.map((r) => `${rssMb(r.child.pid).toFixed(0)} MB`).join(", ")}`)

  if (values.snapshot === "yes") {
    for (const r of replicas) r.child.kill("SIGKILL")
    const snapshotPath = join(mkdtempSync(join(tmpdir(), "tripsearch-scaling-")), "index")
    for (const label of ["scans the store, writes the snapshot", "starts from the snapshot"]) {
      const started = await startChild(
        [MAIN],
        { TRIPSEARCH_DB: cluster.url, PORT: "0", HOST: "127.0.0.1", QUERY_LOG: "off", MATCHER_THREADS: "1", METRICS: "off", INDEX_SNAPSHOT: snapshotPath },
        /listening on (http:\/\/[\d.]+:\d+)/
      )
      const loaded = /index loaded (.*) in ([\d.]+) s/.exec(started.output)
      console.log(`with INDEX_SNAPSHOT, a server that ${label}: listening after ${seconds(started.ms)} (index loaded in ${loaded?.[2] ?? "?"} s)`)
      started.child.kill("SIGTERM")
      await once(started.child, "exit")
    }
    rmSync(dirname(snapshotPath), { recursive: true, force: true })
  }
} finally {
  for (const r of replicas) r.child.kill("SIGKILL")
  await admin.end({ timeout: 1 })
  cluster.stop()
}
