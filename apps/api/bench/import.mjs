// The import benchmark: generated feed files (made once, cached under .bench/) imported into a
// fresh store as `npm run store -- import` does: the meeting points (`importMeetingPoints`), then the
// trips with their roads (`importFeed`), each timed, the total against issue 25's 150 s target for
// 1,000,000 trips. Generation is never timed. With --previous, the same feeds are also imported by
// another build's storage-sqlite (e.g. a checkout of the last commit, built), in the same run, and
// the two stores are compared row by row.
//
//   npm run bench:import -- [--trips N] [--seed S] [--roads on|off] [--previous OTHER/packages/storage-sqlite/dist/index.js] [--keep yes]
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs"
import { once } from "node:events"
import { cpus, loadavg } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseArgs } from "node:util"

const USAGE = `usage: npm run bench:import -- [options]

Imports generated feed files into a fresh store, the meeting points then the trips, and prints
each one's time and the total against the 150 s target (for 1,000,000 trips).
  --trips N         lines of the feed (default 200000); the feeds are made once under .bench/
                    (import-<N>-<seed>-g<V>.ndjson and import-<N>-<seed>-g<V>-mp.ndjson, V the
                    generator version), then reused
  --seed S          generator seed (default 1)
  --roads off       a feed without roads, and no meeting points (default on: every leg has its
                    road, and the meeting points are imported first, as bench:search does)
  --previous PATH   also import the same feeds with another build's storage-sqlite (its
                    dist/index.js), first, and compare the two stores row by row
  --keep yes        keep the imported stores (.bench/import-<N>-<seed>-g<V>[-noroads]-{this,previous}.db)
  --help            this text`

let values
try {
  ;({ values } = parseArgs({
    options: {
      trips: { type: "string", default: "200000" },
      seed: { type: "string", default: "1" },
      roads: { type: "string", default: "on" },
      previous: { type: "string" },
      keep: { type: "string", default: "no" },
      help: { type: "boolean", short: "h" }
    },
    strict: true,
    allowPositionals: false
  }))
} catch (e) {
  console.error(`bench:import: ${e.message}\n\n${USAGE}`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const N = Number(values.trips.replaceAll("_", ""))
if (!Number.isSafeInteger(N) || N < 1) {
  console.error(`bench:import: --trips must be a positive integer, got "${values.trips}"`)
  process.exit(2)
}
if (!/^\d+$/.test(values.seed)) {
  console.error(`bench:import: --seed must be a non-negative integer, got "${values.seed}"`)
  process.exit(2)
}
if (values.keep !== "yes" && values.keep !== "no") {
  console.error(`bench:import: --keep must be yes or no, got "${values.keep}"`)
  process.exit(2)
}
if (values.roads !== "on" && values.roads !== "off") {
  console.error(`bench:import: --roads must be on or off, got "${values.roads}"`)
  process.exit(2)
}
const ROADS = values.roads === "on"
const previousPath = values.previous === undefined ? undefined : resolve(values.previous)
if (previousPath !== undefined && !existsSync(previousPath)) {
  console.error(`bench:import: --previous: no file ${previousPath} (build that checkout first)`)
  process.exit(2)
}

// Loaded once the command line is known good: a refusal or --help answers at once, without them.
const { GENERATOR_VERSION, writeFeed, writeMeetingPoints } = await import("@tripsearch/dataset")
const current = await import("@tripsearch/storage-sqlite")

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const benchDir = join(root, ".bench")
mkdirSync(benchDir, { recursive: true })
// The generator version in the names: a feed of an older generator is never reused.
const stem = `import-${N}-${values.seed}-g${GENERATOR_VERSION}${ROADS ? "" : "-noroads"}`
const feedPath = join(benchDir, `${stem}.ndjson`)
const meetingPointsPath = ROADS ? join(benchDir, `${stem}-mp.ndjson`) : undefined
/** Departures over 30 days from a fixed instant, so that a cached feed stays the same feed. */
const GEN_NOW = Date.UTC(2030, 0, 7, 6, 0, 0)
const genOptions = { trips: N, seed: Number(values.seed), nowMs: GEN_NOW, roads: ROADS }

/** Writes one generated feed file once (through a .partial file, so an interrupted one is made again). */
const make = async (path, write) => {
  if (existsSync(path)) return
  console.log(`making ${path} (${N} trips, seed ${values.seed}${ROADS ? "" : ", no roads"})...`)
  const t0 = performance.now()
  const tmp = `${path}.partial`
  const out = createWriteStream(tmp)
  await write(out)
  out.end()
  await once(out, "finish")
  renameSync(tmp, path)
  console.log(`  done in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
}
if (meetingPointsPath !== undefined) await make(meetingPointsPath, (out) => writeMeetingPoints(genOptions, out))
await make(feedPath, (out) => writeFeed(genOptions, out))

const removeStore = (path) => {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true })
}

/** The import target of issue 25 for 1,000,000 trips with their roads and the meeting points, s. */
const TARGET_S = 150

/**
 * Imports the feeds with one build's `openDatabase`/`importMeetingPoints`/`importFeed` into a fresh
 * store, as `npm run store -- import --meeting-points` does (the meeting points first), each timed.
 */
const run = async (label, lib, dbPath) => {
  removeStore(dbPath)
  const t0 = performance.now()
  const db = lib.openDatabase(dbPath)
  let pointsSeconds = 0
  if (meetingPointsPath !== undefined) {
    const points = await lib.importMeetingPoints(db, meetingPointsPath)
    if (!points.ok) throw new Error(`${label}: meeting points: ${points.errors.slice(0, 5).join("\n")}`)
    pointsSeconds = (performance.now() - t0) / 1000
    console.log(`${label.padEnd(9)} meeting points: ${points.imported} in ${pointsSeconds.toFixed(1)} s`)
  }
  const t1 = performance.now()
  const result = await lib.importFeed(db, feedPath)
  db.close() // as the CLI: the close checkpoints the WAL into the store
  const tripSeconds = (performance.now() - t1) / 1000
  if (!result.ok) throw new Error(`${label}: ${result.errors.slice(0, 5).join("\n")}`)
  const seconds = (performance.now() - t0) / 1000
  const mb = statSync(dbPath).size / 1e6
  console.log(`${label.padEnd(9)} trips: ${result.imported} lines in ${tripSeconds.toFixed(1)} s: ${Math.round(result.imported / tripSeconds)} lines/s (store ${mb.toFixed(0)} MB)`)
  const scaled = N === 1_000_000 ? "" : ` (x${(1_000_000 / N).toFixed(1)} for 1,000,000 trips: ${((seconds * 1_000_000) / N).toFixed(0)} s)`
  console.log(`${label.padEnd(9)} total: ${seconds.toFixed(1)} s against the ${TARGET_S} s target${scaled}`)
  return seconds
}

/**
 * Every column the two stores have in common, of every row, in id order: the number of rows that
 * differ. Each store is opened with its own build (a newer build refuses an older schema), and a
 * column only one of them has (one added since) is left out of the comparison and named.
 * `road_stops` is compared as the stops it holds: a BLOB (this build's encoding) is read back
 * with this build's `readRoadStops` and written as JSON, the column's earlier form.
 */
const compareStores = (a, libA, b, libB) => {
  const [da, db] = [libA.openDatabase(a, { readonly: true }), libB.openDatabase(b, { readonly: true })]
  const columns = (d) => d.prepare("SELECT name FROM pragma_table_info('trips')").pluck().all()
  const inB = new Set(columns(db))
  const common = columns(da).filter((c) => inB.has(c))
  const only = [...columns(da), ...columns(db)].filter((c) => !common.includes(c))
  const list = common.map((c) => `"${c}"`).join(", ")
  const stopsAt = common.indexOf("road_stops")
  const asStops = (row) => {
    if (stopsAt >= 0 && Buffer.isBuffer(row[stopsAt])) row[stopsAt] = JSON.stringify(current.readRoadStops(row[stopsAt]))
    return row
  }
  const rows = function* (d) {
    for (const row of d.prepare(`SELECT ${list} FROM trips ORDER BY id`).raw().iterate()) yield asStops(row)
  }
  const ib = rows(db)
  let rowsSeen = 0
  let differ = 0
  for (const ra of rows(da)) {
    const rb = ib.next().value
    rowsSeen++
    if (rb === undefined || ra.some((x, k) => (Buffer.isBuffer(x) ? !x.equals(rb[k]) : x !== rb[k]))) differ++
  }
  if (!ib.next().done) differ++
  da.close()
  db.close()
  return { rowsSeen, differ, only }
}

// Read once before any timing, so that neither build pays for a cold page cache.
for (const path of [meetingPointsPath, feedPath]) {
  if (path !== undefined) for await (const _ of (await import("node:fs")).createReadStream(path, { highWaterMark: 1 << 20 }));
}
const points = meetingPointsPath === undefined ? "no meeting points" : `meeting points ${meetingPointsPath} (${(statSync(meetingPointsPath).size / 1e6).toFixed(0)} MB)`
console.log(`import bench (${ROADS ? "roads" : "no roads"}): ${feedPath} (${(statSync(feedPath).size / 1e6).toFixed(0)} MB), ${points}; ${cpus().length} cores, load average ${loadavg()[0].toFixed(1)}, Node ${process.version}`)
const thisDb = join(benchDir, `${stem}-this.db`)
const previousDb = join(benchDir, `${stem}-previous.db`)
let previousSeconds
let previous
if (previousPath !== undefined) {
  previous = await import(pathToFileURL(previousPath).href)
  previousSeconds = await run("previous", previous, previousDb)
}
const seconds = await run("this", current, thisDb)
if (previousSeconds !== undefined) {
  const { rowsSeen, differ, only } = compareStores(previousDb, previous, thisDb, current)
  const skipped = only.length > 0 ? ` (columns in one store only, not compared: ${only.join(", ")})` : ""
  console.log(`this build is x${(previousSeconds / seconds).toFixed(2)} the previous one's speed; ${rowsSeen} rows compared, ${differ} differ${skipped}`)
}
if (values.keep !== "yes") for (const path of [thisDb, previousDb]) removeStore(path)
