// The server's start and memory at full size: spawn to listening (index loaded, from its snapshot
// or the store, every worker ready), then its RSS after searches have run on every worker, for
// each pool size asked. With
// --previous OTHER/apps/api/dist/main.js, the other build is started the same way, alternately with
// this one, so that the ratios come from one run. See docs/PERFORMANCE.md.
//
//   npm run bench:startup -- [--trips N] [--threads 1,2,4] [--previous OTHER/apps/api/dist/main.js]
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { GENERATOR_VERSION } from "../../../packages/dataset/dist/generatorVersion.js"
import { startChild } from "./startChild.mjs"

const USAGE = `usage: npm run bench:startup -- [options]

The server's start (spawn -> listening, index ready) and its RSS after searches, per pool size:
this build from its index snapshot, the same with the snapshot's file dropped from the page cache
first ("cold"), this build scanning the store ("this"), the same with glibc's mmap threshold left
dynamic instead of fixed as npm start fixes it ("glibc"), and the other build if given.
  --trips N          the bench:search store of N trips (default 1000000; run bench:search once to make it)
  --seed S           its seed (default 1)
  --threads LIST     pool sizes, comma-separated (default 1,2,4)
  --previous FILE    another build's apps/api/dist/main.js, measured alternately with this one
  --help             this text`

let values
try {
  ;({ values } = parseArgs({
    options: {
      trips: { type: "string", default: "1000000" },
      seed: { type: "string", default: "1" },
      threads: { type: "string", default: "1,2,4" },
      previous: { type: "string" },
      help: { type: "boolean", short: "h" }
    },
    strict: true
  }))
} catch (e) {
  console.error(`bench:startup: ${e.message}\n\n${USAGE}`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const threads = values.threads.split(",").map(Number)
if (threads.some((t) => !Number.isInteger(t) || t < 1)) {
  console.error(`bench:startup: --threads must list positive integers, got "${values.threads}"`)
  process.exit(2)
}
const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../../..")
const dbPath = join(root, ".bench", `search-${Number(values.trips.replaceAll("_", ""))}-${values.seed}-g${GENERATOR_VERSION}.db`)
if (!existsSync(dbPath)) {
  console.error(`bench:startup: no store at ${dbPath}: make it with npm run bench:search -- --trips ${values.trips} --http no`)
  process.exit(2)
}
// Loaded once the command line is known good: a refusal or --help answers at once, without them.
const { createKey, openDatabase } = await import("@tripsearch/storage-sqlite")

const thisMain = join(root, "apps/api/dist/main.js")
const snapshotPath = `${dbPath}.startup-bench.index`
// This build three times: from the snapshot (made first if missing), the same with the snapshot's
// file dropped from the page cache first (a replica on a host that has not read it lately), and
// scanning the store (no snapshot). The snapshot's starts come first: the scan reads the whole
// store, which may push the snapshot's file out of the page cache, and the cold start is measured
// on purpose.
// Then the same scan with glibc's mmap threshold left dynamic ("glibc"), as a server runs that is
// started without what npm start sets (startChild's SERVER_ENV).
const GLIBC_DEFAULT = { MALLOC_MMAP_THRESHOLD_: undefined }
const builds = [
  ["snapshot", thisMain, snapshotPath],
  ["cold", thisMain, snapshotPath],
  ["this", thisMain, "off"],
  ["glibc", thisMain, "off", GLIBC_DEFAULT],
  ...(values.previous ? [["previous", resolve(values.previous), "off"]] : [])
]
/** Drops a file's pages from the page cache (GNU dd's `nocache`, with no byte copied). */
const dropFromPageCache = (path) => execFileSync("dd", [`if=${path}`, "iflag=nocache", "count=0", "status=none"])

const db = openDatabase(dbPath)
const key = createKey(db, { name: "startup-bench", tier: "production", dailyLimit: 1_000_000_000 }).key
db.close()

const statusKb = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN)
const SEARCHES = ["fc=48.8566|2.3522&tc=45.764|4.8357", "fn=Berlin&radius=150", "tc=41.3874|2.1686&radius=300", "fc=51.5072|-0.1276&tc=53.4808|-2.2426&limit=100"]

const measure = async (main, n, snapshot, extraEnv = {}) => {
  const env = { TRIPSEARCH_DB: dbPath, PORT: "0", QUERY_LOG: "off", MATCHER_THREADS: String(n), METRICS: "off", INDEX_SNAPSHOT: snapshot, ...extraEnv }
  const server = await startChild([main], env, /listening on (http:\/\/[\d.]+:\d+)/)
  try {
    const base = server.match[1]
    const atStart = statusKb(server.child.pid, "VmRSS")
    // Enough searches, several at once, that every worker has run some (and loaded its gazetteer).
    for (let round = 0; round < 5; round++) {
      await Promise.all(
        Array.from({ length: 2 * n }, (_, k) =>
          fetch(`${base}/api/v2/trips?locale=en_GB&cur=EUR&${SEARCHES[k % SEARCHES.length]}`, { headers: { key } }).then((r) => r.arrayBuffer())
        )
      )
    }
    await new Promise((r) => setTimeout(r, 1500))
    const loaded = /index loaded (from (?:its snapshot|the store))[^\n]* in ([\d.]+) s/.exec(server.output)
    return {
      startS: server.ms / 1000,
      index: loaded ? `index ${loaded[1].replace("its ", "")} ${loaded[2]} s` : "index: no pool",
      rssAtStart: atStart / 1024,
      rss: statusKb(server.child.pid, "VmRSS") / 1024,
      peak: statusKb(server.child.pid, "VmHWM") / 1024
    }
  } finally {
    server.child.kill("SIGTERM")
    await new Promise((r) => server.child.once("exit", r))
  }
}

console.log(`bench:startup: ${dbPath}`)
if (!existsSync(snapshotPath)) {
  console.log(`making the index snapshot ${snapshotPath} (one start, not measured)...`)
  await measure(thisMain, 1, snapshotPath)
}
const results = new Map()
for (const n of threads) {
  for (const [label, main, snapshot, extraEnv] of builds) {
    if (label === "cold") dropFromPageCache(snapshot)
    const r = await measure(main, n, snapshot, extraEnv)
    results.set(`${label}/${n}`, r)
    console.log(
      `${label.padEnd(8)} ${n} worker${n === 1 ? " " : "s"}: start ${r.startS.toFixed(1)} s [target <= 5 s: ${r.startS <= 5 ? "ok" : "MISSED"}] (${r.index}), RSS at start ${r.rssAtStart.toFixed(0)} MB, after searches ${r.rss.toFixed(0)} MB, peak ${r.peak.toFixed(0)} MB`
    )
  }
}
for (const [label] of builds) {
  const base = results.get(`${label}/${threads[0]}`)
  for (const n of threads.slice(1)) {
    const r = results.get(`${label}/${n}`)
    const per = (r.rss - base.rss) / (n - threads[0])
    console.log(`${label}: each worker beyond ${threads[0]} adds ${per.toFixed(0)} MB of RSS [target <= 100 MB]`)
  }
  const def = results.get(`${label}/2`)
  // The store is bench:search's, with roads and stops along the road: their target is 1.5 GB (1 GB was the target of a feed without roads).
  if (def) console.log(`${label}: default pool (2 workers) RSS ${def.rss.toFixed(0)} MB [target <= 1536 MB with roads: ${def.rss <= 1536 ? "ok" : "MISSED"}]`)
}
for (const n of threads) {
  const fixed = results.get(`this/${n}`)
  const dynamic = results.get(`glibc/${n}`)
  console.log(
    `after a scan, ${n} worker${n === 1 ? "" : "s"}: RSS with the mmap threshold fixed ${fixed.rss.toFixed(0)} MB, left dynamic ${dynamic.rss.toFixed(0)} MB (${(fixed.rss - dynamic.rss).toFixed(0)} MB); at start ${fixed.rssAtStart.toFixed(0)} against ${dynamic.rssAtStart.toFixed(0)} MB`
  )
}
