// Before against after, in one process: the TripIndex of another build of the core (`--previous`,
// e.g. a worktree of the last commit, built) and this one, over the same store. Every search of the
// query log runs through each build's own whole use-case (its index, rendering and all), alternating
// which goes first; the answers are compared byte for byte and each index's matcher time, and the
// whole request's (the use-case and its JSON), are kept per query.
//
//   node packages/core/bench/compareIndexes.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Context, Effect } from "effect"
import { PlaceResolver, searchTrips, TripIndex, TripMatcher, TripStore } from "../dist/index.js"
import { Gazetteer, GazetteerPlaceResolver } from "../../gazetteer/dist/index.js"
import { makeSqliteTripStore, openDatabase } from "../../storage-sqlite/dist/index.js"

const { values } = parseArgs({ options: { db: { type: "string" }, log: { type: "string" }, previous: { type: "string" }, help: { type: "boolean" } }, strict: true })
if (values.help || !values.db || !values.log || !values.previous) {
  console.log("usage: node packages/core/bench/compareIndexes.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js")
  process.exit(values.help ? 0 : 2)
}
const previous = await import(pathToFileURL(resolve(values.previous)).href)
const TripIndexOld = previous.TripIndex
const search = { old: previous.searchTrips, new: searchTrips }
const [dbPath, logPath] = [values.db, values.log]
const store = makeSqliteTripStore(openDatabase(dbPath, { readonly: true }))
const load = (I) => { const t0 = performance.now(); const index = new I(); index.beginLoad(); Effect.runSync(store.scanIndex((r) => index.upsert(r))); index.endLoad(); console.log(`${I === TripIndex ? "this" : "previous"} index loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`); return index }
const idx = { old: load(TripIndexOld), new: load(TripIndex) }
const gazetteer = Gazetteer.shared()
let spent = 0
const services = (index) => Context.make(TripStore, store).pipe(
  Context.add(TripMatcher, { match: (r) => Effect.sync(() => { const t0 = performance.now(); const x = index.search(r); spent = performance.now() - t0; return x }) }),
  Context.add(PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer)))
const svc = { old: services(idx.old), new: services(idx.new) }
const qs = readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
const run = (key, q) => {
  spent = 0
  const t0 = performance.now()
  const r = Effect.runSync(Effect.either(Effect.provide(search[key](Object.fromEntries(new URLSearchParams(q.query)), { apiBaseUrl: "http://x", websiteBaseUrl: "http://w", path: q.path, query: q.query }), svc[key])))
  const body = JSON.stringify(r)
  return { body, ms: spent, wholeMs: performance.now() - t0 }
}
const kind = (q) => { const p = new URLSearchParams(q.query); const f = p.has("fc") || p.has("fn"), t = p.has("tc") || p.has("tn"); return f && t ? "pairs" : f ? "departure only" : "arrival only" }
let diffs = 0
const times = { old: [], new: [] }
for (let round = 0; round < 2; round++) {
  qs.forEach((q, k) => {
    const order = k % 2 === 0 ? ["old", "new"] : ["new", "old"]
    const out = {}
    for (const key of order) out[key] = run(key, q)
    if (round === 0 && out.old.body !== out.new.body) { diffs++; if (diffs <= 3) console.log(`different answers: ${q.query}`) }
    if (round === 1) for (const key of order) times[key].push({ ms: out[key].ms, whole: out[key].wholeMs, kind: kind(q) })
  })
}
const pct = (xs, p) => { const s = xs.map((x) => x.ms).sort((a, b) => a - b); return s[Math.max(0, Math.ceil(p / 100 * s.length) - 1)] }
const f = (x) => x.toFixed(3)
console.log(`${qs.length} searches, ${diffs} differences between the two indexes' whole answers`)
for (const k of ["all", "pairs", "departure only", "arrival only"]) {
  const sel = (key) => times[key].filter((x) => k === "all" || x.kind === k)
  const o = sel("old"), n = sel("new")
  if (o.length === 0) continue
  const sum = (xs) => xs.reduce((a, x) => a + x.ms, 0)
  console.log(`${k.padEnd(15)} n ${String(o.length).padStart(4)}  matcher p50 ${f(pct(o, 50))} -> ${f(pct(n, 50))} ms, p90 ${f(pct(o, 90))} -> ${f(pct(n, 90))}, p99 ${f(pct(o, 99))} -> ${f(pct(n, 99))}, total ${sum(o).toFixed(0)} -> ${sum(n).toFixed(0)} ms (x${(sum(o) / sum(n)).toFixed(2)})`)
  const w = (xs) => xs.map((x) => ({ ms: x.whole }))
  console.log(`${"".padEnd(15)}         whole request p50 ${f(pct(w(o), 50))} -> ${f(pct(w(n), 50))} ms, p90 ${f(pct(w(o), 90))} -> ${f(pct(w(n), 90))}, p99 ${f(pct(w(o), 99))} -> ${f(pct(w(n), 99))}, total ${sum(w(o)).toFixed(0)} -> ${sum(w(n)).toFixed(0)} ms (x${(sum(w(o)) / sum(w(n))).toFixed(2)})`)
}
