// The index against the brute-force reference at full size, roads included. The property tests
// compare the two on small generated worlds; this compares them on a benchmark store (a million
// trips with their roads and meeting points) and a query log, where sizes, positions past 254
// stops and the renumbering by cell are those of production. For each search of the log, as the
// matcher receives it through the whole use-case: the index's answer (over every trip) against
// `referenceSearch`'s, which works each trip's stops along the road out from its stored road and
// the meeting points, itself.
//
// The reference is given only the trips and meeting points that can change its answer
// (`ReferenceNear`): over a million trips, it would take days a search otherwise.
//
//   node packages/core/bench/oracle.mjs --db STORE --log QUERY_LOG [--queries N] [--max-trips M] [--skip K]
import { existsSync } from "node:fs"
import { isDeepStrictEqual, parseArgs } from "node:util"
import { Effect } from "effect"
import * as core from "../dist/index.js"
import { readLog, runQuery, servicesOf } from "./compareSetup.mjs"
import { makeSqliteTripStore, openDatabase } from "../../storage-sqlite/dist/index.js"
import { cachedOffsetAt } from "../../store-common/dist/index.js"

const USAGE =
  "usage: node packages/core/bench/oracle.mjs --db STORE --log QUERY_LOG [--queries N (default 100)] [--skip K (searches of the log skipped first, default 0)] [--max-trips M (a search whose trips near its places are more is left out and counted, default 20000)]"
let values
try {
  ;({ values } = parseArgs({
    options: { db: { type: "string" }, log: { type: "string" }, queries: { type: "string", default: "100" }, skip: { type: "string", default: "0" }, "max-trips": { type: "string", default: "20000" }, help: { type: "boolean" } },
    strict: true
  }))
} catch (e) {
  console.error(`oracle.mjs: ${e.message}\n${USAGE}`)
  process.exit(2)
}
const count = (name) => {
  const n = Number(values[name])
  if (!Number.isInteger(n) || n < 0) {
    console.error(`oracle.mjs: --${name} must be a whole number, got "${values[name]}"\n${USAGE}`)
    process.exit(2)
  }
  return n
}
if (values.help || !values.db || !values.log) {
  ;(values.help ? console.log : console.error)(USAGE)
  process.exit(values.help ? 0 : 2)
}
const [queriesN, skip, maxTrips] = [count("queries"), count("skip"), count("max-trips")]
for (const [flag, path] of [["--db", values.db], ["--log", values.log]]) {
  if (!existsSync(path)) {
    console.error(`oracle.mjs: ${flag} ${path}: no such file (\`npm run bench:search\` makes the stores and logs under .bench/)`)
    process.exit(2)
  }
}

const db = openDatabase(values.db, { readonly: true })
const store = makeSqliteTripStore(db)
const t0 = performance.now()
const records = []
Effect.runSync(store.scanIndex((r) => records.push(r)))
const index = new core.TripIndex()
index.beginLoad()
for (const r of records) index.upsert(r)
index.endLoad()
console.log(`${records.length} trips read and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

// The store keeps each road's box for its own reads.
const roadBoxes = new Map()
for (const [id, ...box] of db.prepare("SELECT id, road_min_lat, road_max_lat, road_min_lon, road_max_lon FROM trips WHERE status = 'active' AND road_min_lat IS NOT NULL").raw().iterate()) roadBoxes.set(id, box)
const meetingPoints = [...Effect.runSync(store.meetingPoints(undefined)).values()].filter((mp) => mp.status === "active")
const tripsOf = (ids) => new Map([...Effect.runSync(store.getTrips(ids))].map(([id, s]) => [id, s.trip]))
const reference = new core.ReferenceNear(records, (id) => roadBoxes.get(id), tripsOf, meetingPoints, cachedOffsetAt)
roadBoxes.clear()
console.log(`${meetingPoints.length} active meeting points`)

// The searches as the matcher receives them.
const queries = readLog(values.log).slice(skip, skip + queriesN)
const requests = []
const services = servicesOf(core, store, (req) => Effect.sync(() => (requests.push({ ...req, withTrips: false }), index.search(req))))
for (const q of queries) {
  const before = requests.length
  runQuery(core.searchTrips, services, q)
  if (requests.length === before) requests.push(undefined)
}

const kindOf = (r) => (r.from !== undefined && r.to !== undefined ? "pairs" : r.from !== undefined ? "departure only" : "arrival only")

let compared = 0
let differ = 0
let tooMany = 0
let refMs = 0
const byKind = {}
requests.forEach((req, n) => {
  if (req === undefined) return
  if (req.from === undefined && req.to === undefined) return
  const near = reference.near(req)
  if (near.length > maxTrips) {
    tooMany++
    return
  }
  const s = performance.now()
  const expected = reference.search(req, near)
  refMs += performance.now() - s
  const got = index.search(req)
  compared++
  const kind = kindOf(req)
  byKind[kind] ??= { n: 0, differ: 0, matched: 0, along: 0 }
  byKind[kind].n++
  byKind[kind].matched += got.total
  byKind[kind].along += got.page.filter((h) => h.fromStop !== undefined || h.toStop !== undefined).length
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(got)), JSON.parse(JSON.stringify(expected)))) {
    differ++
    byKind[kind].differ++
    if (differ <= 5) {
      console.log(`DIFFERENT: ${queries[n].query}: index total ${got.total}, reference total ${expected.total}`)
      console.log(`  index     ${JSON.stringify({ ...got, facets: undefined }).slice(0, 600)}`)
      console.log(`  reference ${JSON.stringify({ ...expected, facets: undefined }).slice(0, 600)}`)
    }
  }
})
for (const [kind, x] of Object.entries(byKind)) console.log(`${kind.padEnd(15)} ${x.n} searches, ${x.differ} different; ${x.matched} trips matched, ${x.along} of the shown hits end along the road`)
console.log(`${compared} searches compared with the reference (${(refMs / 1000).toFixed(0)} s in it), ${differ} different; ${tooMany} left out with more than ${maxTrips} trips near their places`)
process.exit(differ === 0 ? 0 : 1)
