// What the matcher's time is spent on, against what a search must at least read. For each search
// of a query log, in one index: its candidates (the trips its scans found near its places), its
// geographic matches (the candidates with a segment near its places, each priced and counted in
// the facets, whatever the filters then say: a facet counts the trips its own filter would
// reject), and its matched trips; the matcher's time per candidate; and, over the same candidates
// in the same order, the time of a loop that only reads what every candidate loop must read of a
// trip (its word, its waypoints' range, its first waypoint's place and time, its first leg's
// price, its first stop along the road's meeting point, leg and fraction). That loop is a floor
// set by memory; what the matcher spends above it is its own work. See docs/PERFORMANCE.md.
//
//   node packages/core/bench/candidates.mjs --db STORE --log QUERY_LOG [--rounds R]
import { existsSync } from "node:fs"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import * as core from "../dist/index.js"
import { FacetTally } from "../dist/search/tripIndex/facets.js"
import { NearHits } from "../dist/search/tripIndex/NearHits.js"
import { loadIndex, readLog, runQuery, servicesOf } from "./compareSetup.mjs"
import { makeSqliteTripStore, openDatabase } from "../../storage-sqlite/dist/index.js"

const USAGE = "usage: node packages/core/bench/candidates.mjs --db STORE --log QUERY_LOG [--rounds R (default 3)]"
let values
try {
  ;({ values } = parseArgs({ options: { db: { type: "string" }, log: { type: "string" }, rounds: { type: "string", default: "3" }, help: { type: "boolean" } }, strict: true }))
} catch (e) {
  console.error(`candidates.mjs: ${e.message}\n${USAGE}`)
  process.exit(2)
}
const rounds = Number(values.rounds)
if (values.help || !values.db || !values.log || !(Number.isInteger(rounds) && rounds >= 1)) {
  ;(values.help ? console.log : console.error)(USAGE)
  process.exit(values.help ? 0 : 2)
}
for (const [flag, path] of [["--db", values.db], ["--log", values.log]]) {
  if (!existsSync(path)) {
    console.error(`candidates.mjs: ${flag} ${path}: no such file (\`npm run bench:search\` makes the stores and logs under .bench/)`)
    process.exit(2)
  }
}
const store = makeSqliteTripStore(openDatabase(values.db, { readonly: true }))
const t0 = performance.now()
const index = loadIndex(core.TripIndex, store)
console.log(`index loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

// The log's searches as the matcher receives them, through the whole use-case once.
const queries = readLog(values.log)
const requests = []
const services = servicesOf(core, store, (req) => Effect.sync(() => (requests.push(req), index.search(req))))
for (const q of queries) runQuery(core.searchTrips, services, q)
const kindOf = (r) => (r.from !== undefined && r.to !== undefined ? "pairs" : r.from !== undefined ? "departure only" : "arrival only")

// One counting pass, the two methods wrapped, then put back before anything is timed.
const candidatesOf = NearHits.prototype.candidates
const checkOf = FacetTally.prototype.check
let sets = []
let geographic = 0
NearHits.prototype.candidates = function () {
  const c = candidatesOf.call(this)
  sets.push(c.slice())
  return c
}
FacetTally.prototype.check = function (...args) {
  geographic++
  return checkOf.apply(this, args)
}
const rows = requests.map((req) => {
  geographic = 0
  const before = sets.length
  const { total } = index.search(req)
  // A search without a place scans nothing (it never reaches the matcher's loop).
  const candidates = sets.length > before ? sets[sets.length - 1] : new Int32Array(0)
  return { kind: kindOf(req), candidates, geographic, matched: total, ms: 0, floorMs: 0 }
})
NearHits.prototype.candidates = candidatesOf
FacetTally.prototype.check = checkOf
sets = undefined

const t = index.t
/** What every candidate loop reads of each candidate, at the least, summed so that nothing is left out. */
const floor = (c) => {
  const { traits, wpStart, wpCount, wPlace, wTime, legPrice, wAlong, aMp, aLeg, aFrac } = t
  let x = 0
  for (let k = 0; k < c.length; k++) {
    const s = c[k]
    const w0 = wpStart[s]
    const a = wAlong[w0]
    x += traits[s] + wpCount[s] + wPlace[2 * w0] + wTime[2 * w0] + legPrice[w0] + aMp[a] + aLeg[a] + aFrac[a]
  }
  return x
}
// Rounds of the whole log, the matcher then the floor loop, each search's best kept: the floor loop
// runs over all the log's candidate sets in a row, so that each set is read with the others'
// columns in the cache, as after a search's scans, not right after its own search.
for (const row of rows) row.ms = row.floorMs = Infinity
let sink = 0
for (let round = 0; round < rounds; round++) {
  rows.forEach((row, k) => {
    const a = performance.now()
    index.search(requests[k])
    row.ms = Math.min(row.ms, performance.now() - a)
  })
  for (const row of rows) {
    const a = performance.now()
    sink += floor(row.candidates)
    row.floorMs = Math.min(row.floorMs, performance.now() - a)
  }
}
if (Number.isNaN(sink)) console.log("(a NaN was read)")

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length / 2) - 1)]
const sum = (xs) => xs.reduce((a, b) => a + b, 0)
const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1))
console.log(`${rows.length} searches of ${values.log}, each one's best of ${rounds} rounds; p50 over the searches, ns per candidate over all of them`)
for (const kind of ["all", "pairs", "departure only", "arrival only"]) {
  const xs = rows.filter((r) => kind === "all" || r.kind === kind)
  if (xs.length === 0) continue
  const cands = sum(xs.map((r) => r.candidates.length))
  const ms = sum(xs.map((r) => r.ms))
  const floorMs = sum(xs.map((r) => r.floorMs))
  console.log(
    `${kind.padEnd(15)} n ${String(xs.length).padStart(4)}  matcher p50 ${f(p50(xs.map((r) => r.ms)))} ms` +
      `  candidates p50 ${p50(xs.map((r) => r.candidates.length))}, geographic matches ${p50(xs.map((r) => r.geographic))}, matched ${p50(xs.map((r) => r.matched))}` +
      `  | in all: ${cands} candidates, ${sum(xs.map((r) => r.geographic))} geographic, ${sum(xs.map((r) => r.matched))} matched;` +
      ` matcher ${((ms * 1e6) / cands).toFixed(0)} ns a candidate, the reads' floor ${((floorMs * 1e6) / cands).toFixed(0)} ns (x${(ms / floorMs).toFixed(1)})`
  )
}
