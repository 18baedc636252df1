// The scaling bench: API replicas over one PostgreSQL behind HAProxy. It starts a throwaway cluster
// (pg_stat_statements loaded), imports a generated feed with the store CLI into it and into a
// SQLite file (the two imports' times), leaves the index snapshot in the database, starts a SQLite
// server and the replicas (their start times and memory), measures the throughput through HAProxy
// with 1, 2, 3... replicas, counts the statements the database runs for the replicas at rest and
// per 1,000 searches (and trip details), then, under a steady load through HAProxy, stops one
// replica with SIGTERM, kills one with SIGKILL and starts a new one, counting what each costs.
//
//   npm run bench:scaling -- [--trips N] [--feed FILE] [--replicas R] [--rest-seconds S] [--searches N]
import { spawn } from "node:child_process"
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { once } from "node:events"
import { cpus, loadavg, totalmem } from "node:os"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { GENERATOR_VERSION } from "../../../packages/dataset/dist/generatorVersion.js"
import { startChild } from "./startChild.mjs"
import { atStop, ownChild, temporaryFolder } from "./stopOnSignal.mjs"

const USAGE = `usage: npm run bench:scaling -- [options]

Starts a throwaway PostgreSQL 15 cluster, imports a feed into it and into a SQLite file with the
store CLI (then the same feed again into each: the nightly full import that changes nothing),
starts a SQLite server and API replicas over PostgreSQL behind HAProxy, and prints: the imports'
times, each server's start time and memory, the throughput through HAProxy with 1 to R
replicas, the database's statements and transactions per second per replica at rest, per 1,000
searches and per 1,000 trip details, the connections each replica holds, and, under a steady load
through HAProxy, what stopping a replica (SIGTERM), killing one (SIGKILL) and starting one cost.
  --trips N          trips of the feed (default 1000000); the feed is made once under
                     .bench/import-<N>-1-g<V>.ndjson (V the generator version), then reused
  --feed FILE        import this NDJSON feed instead (e.g. another checkout's .bench file)
  --replicas R       API replicas behind HAProxy (default 3)
  --rest-seconds S   how long the replicas are watched at rest (default 20)
  --searches N       searches (and trip details) sent to the first replica (default 1000)
  --concurrency C    requests in flight while doing so (default 4)
  --load-seconds S   how long each throughput is measured (default 15)
  --load-clients C   clients of the throughput load through HAProxy (default 16)
  --rate R           searches a second of the steady load under which replicas stop and start (default 100)
  --help             this text`
let values
try {
  ;({ values } = parseArgs({
    options: {
      trips: { type: "string", default: "1000000" },
      feed: { type: "string" },
      replicas: { type: "string", default: "3" },
      "rest-seconds": { type: "string", default: "20" },
      searches: { type: "string", default: "1000" },
      concurrency: { type: "string", default: "4" },
      "load-seconds": { type: "string", default: "15" },
      "load-clients": { type: "string", default: "16" },
      rate: { type: "string", default: "100" },
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
const LOAD_S = int("load-seconds", 1)
const LOAD_CLIENTS = int("load-clients", 1)
const RATE = int("rate", 1)

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
// Loaded once the command line is known good: a refusal or --help answers at once, without them.
const { connectPostgres } = await import("@tripsearch/storage-postgres")
const { startPostgresCluster } = await import("@tripsearch/store-tests/postgres-cluster")
const { freePort, HAPROXY_TIMINGS, startHaproxy, steadyLoad } = await import("@tripsearch/store-tests/haproxy")
const { writeFeed } = await import("@tripsearch/dataset")

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
    const child = ownChild(spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] }))
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
atStop(cluster.stop)
const scratch = temporaryFolder("tripsearch-scaling-")
const children = []
const admin = connectPostgres(cluster.url, { max: 1 })
atStop(() => admin.end({ timeout: 1 }))
let haproxy
const stopChild = async (child, signal = "SIGTERM") => {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill(signal)
  await once(child, "exit")
}
try {
  await admin`CREATE EXTENSION pg_stat_statements`

  // The two imports of the same feed, one after the other, the snapshot left out of both.
  let t0 = performance.now()
  console.log(`import into PostgreSQL: ${(await run([STORE_CLI, "import", "--db", cluster.url, "--snapshot", "off", feedPath])).trim()}`)
  const importMs = performance.now() - t0
  const [{ trips, bytes }] = await admin`SELECT count(*)::int8 AS trips, pg_database_size(current_database())::int8 AS bytes FROM trips`
  console.log(`  ${seconds(importMs)}; ${trips} trips, database ${(bytes / 1e9).toFixed(2)} GB`)
  const sqlitePath = join(scratch, "trips.db")
  t0 = performance.now()
  console.log(`import into SQLite: ${(await run([STORE_CLI, "import", "--db", sqlitePath, "--snapshot", "off", feedPath])).trim()}`)
  const sqliteImportMs = performance.now() - t0
  console.log(`  ${seconds(sqliteImportMs)}: PostgreSQL's import took ${(importMs / sqliteImportMs).toFixed(2)}x SQLite's`)
  // The nightly full import: the same feed again, every trip compared with its row, none changed.
  t0 = performance.now()
  console.log(`the same feed again into PostgreSQL: ${(await run([STORE_CLI, "import", "--db", cluster.url, "--snapshot", "off", feedPath])).trim()}`)
  const reimportMs = performance.now() - t0
  t0 = performance.now()
  console.log(`  ${seconds(reimportMs)}; into SQLite: ${(await run([STORE_CLI, "import", "--db", sqlitePath, "--snapshot", "off", feedPath])).trim()}`)
  const sqliteReimportMs = performance.now() - t0
  console.log(`  ${seconds(sqliteReimportMs)}: PostgreSQL's took ${(reimportMs / sqliteReimportMs).toFixed(2)}x SQLite's`)
  // What the store CLI does after an import (an empty feed: no change, the snapshot brought up to date).
  const empty = join(scratch, "empty.ndjson")
  writeFileSync(empty, "")
  t0 = performance.now()
  const snapshotOut = await run([STORE_CLI, "import", "--db", cluster.url, empty])
  console.log(`snapshot into the database: ${/index snapshot[^\n]*/.exec(snapshotOut)?.[0] ?? snapshotOut.trim()} (${seconds(performance.now() - t0)} for the command)`)
  const key = /^key:\s+(\S+)/m.exec(await run([STORE_CLI, "keys", "create", "--db", cluster.url, "--name", "bench", "--tier", "production", "--daily-limit", "100000000"]))[1]

  const serverEnv = { PORT: "0", HOST: "127.0.0.1", QUERY_LOG: "off", MATCHER_THREADS: "1", METRICS: "off" }
  const LISTENING = /tripsearch API listening on (http:\/\/[\d.]+:\d+)/
  // A SQLite server: the first start scans its file and writes its snapshot, the second starts from it.
  let sqliteRss = NaN
  for (const label of ["scans its file, writes its snapshot", "starts from its snapshot"]) {
    const started = await startChild([MAIN], { ...serverEnv, TRIPSEARCH_DB: sqlitePath }, LISTENING)
    children.push(started.child)
    const loaded = /index loaded (.*) in ([\d.]+) s/.exec(started.output)
    await sleep(2_000)
    sqliteRss = rssMb(started.child.pid)
    console.log(`SQLite server that ${label}: ready after ${seconds(started.ms)} (index loaded in ${loaded?.[2] ?? "?"} s), RSS ${sqliteRss.toFixed(0)} MB`)
    await stopChild(started.child)
  }
  // A replica with no snapshot, as every replica started before the database kept one.
  {
    const started = await startChild([MAIN], { ...serverEnv, TRIPSEARCH_DB: cluster.url, INDEX_SNAPSHOT: "off" }, LISTENING)
    children.push(started.child)
    const loaded = /index loaded (.*) in ([\d.]+) s/.exec(started.output)
    await sleep(2_000)
    console.log(`PostgreSQL replica that scans the store (INDEX_SNAPSHOT=off): ready after ${seconds(started.ms)} (index loaded in ${loaded?.[2] ?? "?"} s), RSS ${rssMb(started.child.pid).toFixed(0)} MB`)
    await stopChild(started.child)
  }

  // HAProxy in front of the replicas' ports, one more for the replica started under load.
  const backends = await Promise.all(Array.from({ length: REPLICAS + 1 }, async (_, i) => ({ name: `r${i + 1}`, port: await freePort() })))
  haproxy = await startHaproxy(backends)
  atStop(haproxy.stop)
  const drainMs = HAPROXY_TIMINGS.fall * HAPROXY_TIMINGS.checkMs + 1_000
  const startReplica = async (backend) => {
    const started = await startChild(
      [MAIN],
      { ...serverEnv, TRIPSEARCH_DB: cluster.url, PORT: String(backend.port), DRAIN_MS: String(drainMs) },
      LISTENING
    )
    children.push(started.child)
    return { ...started, base: started.match[1], name: backend.name }
  }
  const upAre = async (names) => {
    for (const end = performance.now() + 20_000; performance.now() < end; await sleep(50)) {
      const s = await haproxy.servers()
      if (names.every((n) => s.get(n)?.status === "UP")) return
    }
    throw new Error(`HAProxy did not see ${names.join(", ")} up within 20 s`)
  }
  const throughput = async () => {
    const load = steadyLoad(haproxy.url, searches, { key }, LOAD_CLIENTS)
    await sleep(LOAD_S * 1_000)
    const t = await load.stop()
    const ok = t.statuses.get(200) ?? 0
    return `${(ok / LOAD_S).toFixed(0)} searches/s (${[...t.statuses].map(([s, n]) => `${s} x${n}`).join(", ")}; by replica ${[...t.servedBy].map(([s, n]) => `${s} ${n}`).join(", ")})`
  }

  const replicas = []
  const replicaRss = []
  for (let i = 0; i < REPLICAS; i++) {
    const r = await startReplica(backends[i])
    replicas.push(r)
    const loaded = /index loaded (.*) in ([\d.]+) s/.exec(r.output)
    await upAre(replicas.map((x) => x.name))
    await sleep(1_000)
    replicaRss.push(rssMb(r.child.pid))
    console.log(`replica ${r.name}: ready after ${seconds(r.ms)} (index loaded ${loaded?.[1] ?? "?"} in ${loaded?.[2] ?? "?"} s), RSS ${replicaRss[i].toFixed(0)} MB`)
    console.log(`  through HAProxy with ${i + 1} replica(s), ${LOAD_CLIENTS} clients for ${LOAD_S} s: ${await throughput()}`)
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


  // Under a steady load through HAProxy: a replica stopped, one killed, one started.
  const steady = steadyLoad(haproxy.url, searches, { key }, 8, RATE)
  await sleep(3_000)
  const failedSince = (t) => steady.tally.failures.filter((f) => f.at >= t)
  const describeFailures = (list) => (list.length === 0 ? "" : ` (${[...new Set(list.map((f) => f.status))].map((s) => `${s === 0 ? "no answer" : s} x${list.filter((f) => f.status === s).length}`).join(", ")})`)
  const [first, second] = replicas
  let t = performance.now()
  first.child.kill("SIGTERM")
  await once(first.child, "exit")
  const termMs = performance.now() - t
  await sleep(1_000)
  const termFailed = failedSince(t)
  console.log(`\nunder ${RATE} searches/s through HAProxy:
  SIGTERM to ${first.name}: exited ${first.child.exitCode} after ${seconds(termMs)} (drain ${drainMs} ms); failed requests: ${termFailed.length}${describeFailures(termFailed)}`)
  if (second !== undefined) {
    const inFlight = (await haproxy.servers()).get(second.name).current
    t = performance.now()
    second.child.kill("SIGKILL")
    for (const end = performance.now() + 10_000; performance.now() < end; await sleep(50)) {
      if ((await haproxy.servers()).get(second.name)?.status.startsWith("DOWN")) break
    }
    await sleep(1_000)
    const killFailed = failedSince(t)
    console.log(`  SIGKILL to ${second.name} with ${inFlight} request(s) in flight on it: failed requests: ${killFailed.length}${describeFailures(killFailed)}`)
  }
  t = performance.now()
  const late = startChild([MAIN], { ...serverEnv, TRIPSEARCH_DB: cluster.url, PORT: String(backends[REPLICAS].port), DRAIN_MS: String(drainMs) }, LISTENING)
  const lateStarted = await late
  children.push(lateStarted.child)
  const lateName = backends[REPLICAS].name
  for (const end = performance.now() + 30_000; performance.now() < end && !steady.tally.firstAnswer.has(lateName); ) await sleep(20)
  const takenMs = (steady.tally.firstAnswer.get(lateName) ?? NaN) - t
  console.log(`  replica ${lateName} started: ready after ${seconds(lateStarted.ms)}, first request through HAProxy ${seconds(takenMs)} after its spawn`)
  const tally = await steady.stop()
  console.log(`  in all: ${tally.sent} searches, ${[...tally.statuses].map(([s, n]) => `${s === 0 ? "no answer" : s} x${n}`).join(", ")}`)
  const pgRss = Math.max(...replicaRss)
  console.log(`\nRSS: PostgreSQL replica (from the database's snapshot) ${pgRss.toFixed(0)} MB, SQLite server (from its snapshot) ${sqliteRss.toFixed(0)} MB: ${(pgRss / sqliteRss).toFixed(2)}x`)
} finally {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
  await haproxy?.stop()
  await admin.end({ timeout: 1 })
  cluster.stop()
  rmSync(scratch, { recursive: true, force: true })
}
