// Before against after, in one process: the TripIndex of another build of the core (`--previous`,
// e.g. a worktree of the last commit, built) and this one, over the same store. Every search of the
// query log runs through each build's own whole use-case (its index, rendering and all), alternating
// which goes first; the answers are compared byte for byte and each index's matcher time, and the
// whole request's (the use-case and its JSON), are kept per query.
//
//   node packages/core/bench/compareIndexes.mjs --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js [--first previous|this]
import { Effect } from "effect"
import * as core from "../dist/index.js"
import { compareArgs, loadIndex, readLog, runQuery, servicesOf } from "./compareSetup.mjs"

const { store, log, previousUrl, thisFirst } = compareArgs("compareIndexes.mjs", true)
const previous = await import(previousUrl)
const search = { old: previous.searchTrips, new: core.searchTrips }
const load = (I) => { const t0 = performance.now(); const index = loadIndex(I, store); console.log(`${I === core.TripIndex ? "this" : "previous"} index loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`); return index }
const idx = {}
for (const key of thisFirst ? ["new", "old"] : ["old", "new"]) idx[key] = load(key === "new" ? core.TripIndex : previous.TripIndex)
let spent = 0
const services = (index) => servicesOf(core, store, (r) => Effect.sync(() => { const t0 = performance.now(); const x = index.search(r); spent = performance.now() - t0; return x }))
const svc = { old: services(idx.old), new: services(idx.new) }
const qs = readLog(log)
const run = (key, q) => {
  spent = 0
  const t0 = performance.now()
  const body = JSON.stringify(runQuery(search[key], svc[key], q))
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
