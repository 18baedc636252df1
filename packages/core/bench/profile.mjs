// Where a search's time goes: self time by function, sampled by V8's profiler, over a query log's
// searches run through the whole use-case and its JSON in one index (after a warm-up), split into
// the matcher (`TripIndex.search` and what it calls) and the rest (decoding, routing, rendering,
// JSON, garbage collection). docs/PERFORMANCE.md, "Where the time goes".
//
//   node packages/core/bench/profile.mjs --db STORE --log QUERY_LOG [--rounds R] [--warm W] [--top N] [--core OTHER/packages/core/dist/index.js]
import { existsSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { loadIndex, readLog, runQuery, servicesOf } from "./compareSetup.mjs"
import { makeSqliteTripStore, openDatabase } from "../../storage-sqlite/dist/index.js"

const USAGE =
  "usage: node packages/core/bench/profile.mjs --db STORE --log QUERY_LOG [--rounds R (the log's searches R times, default 3)] [--warm W (searches run first, unprofiled, default 300)] [--top N (entries of each part, default 12)] [--core OTHER/packages/core/dist/index.js (another build's core, e.g. a worktree of an older commit, built; default this one's)]"
let values
try {
  ;({ values } = parseArgs({
    options: {
      db: { type: "string" },
      log: { type: "string" },
      rounds: { type: "string", default: "3" },
      warm: { type: "string", default: "300" },
      top: { type: "string", default: "12" },
      core: { type: "string" },
      help: { type: "boolean" }
    },
    strict: true
  }))
} catch (e) {
  console.error(`profile.mjs: ${e.message}\n${USAGE}`)
  process.exit(2)
}
const [rounds, warm, top] = [Number(values.rounds), Number(values.warm), Number(values.top)]
const counts = [rounds, warm, top].every((n) => Number.isInteger(n) && n >= 0) && rounds >= 1 && top >= 1
if (values.help || !values.db || !values.log || !counts) {
  ;(values.help ? console.log : console.error)(USAGE)
  process.exit(values.help ? 0 : 2)
}
const corePath = values.core ?? new URL("../dist/index.js", import.meta.url).pathname
for (const [flag, path] of [["--db", values.db], ["--log", values.log], ["--core", corePath]]) {
  if (!existsSync(path)) {
    const hint = flag === "--core" ? "a core built by `npm run build`" : "`npm run bench:search` makes the stores and logs under .bench/"
    console.error(`profile.mjs: ${flag} ${path}: no such file (${hint})`)
    process.exit(2)
  }
}

const core = await import(pathToFileURL(resolve(corePath)).href)
const store = makeSqliteTripStore(openDatabase(values.db, { readonly: true }))
const t0 = performance.now()
const index = loadIndex(core.TripIndex, store)
console.log(`index loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
const services = servicesOf(core, store, (req) => Effect.sync(() => index.search(req)))
const queries = readLog(values.log)
// A function of its own so that the JSON's encoding, a builtin, shows as its self time.
const encodeAnswer = (answer) => JSON.stringify(answer)
const run = (q) => encodeAnswer(runQuery(core.searchTrips, services, q))
for (let k = 0; k < warm; k++) run(queries[k % queries.length])

const session = new Session()
session.connect()
await session.post("Profiler.enable")
await session.post("Profiler.setSamplingInterval", { interval: 100 })
await session.post("Profiler.start")
const w0 = performance.now()
for (let r = 0; r < rounds; r++) for (const q of queries) run(q)
const wallMs = performance.now() - w0
const { profile } = await session.post("Profiler.stop")
session.disconnect()

// Each sample's time goes to its node's function; a node under the matcher's entry counts there.
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
/** Whether a node or one of its callers satisfies `test` (a frame), remembered per node. */
const withinFrame = (test) => {
  const known = new Map()
  const within = (id) => {
    let v = known.get(id)
    if (v === undefined) {
      v = test(byId.get(id).callFrame) || (parent.has(id) && within(parent.get(id)))
      known.set(id, v)
    }
    return v
  }
  return within
}
const underMatcher = withinFrame(({ functionName, url }) => functionName === "search" && /\/(TripIndex|TripSearcher)\.js$/.test(url))
// Only the samples from the first search to the last: not the profiler's own start and stop.
const underRun = withinFrame(({ functionName, url }) => functionName === "run" && url.endsWith("/bench/profile.mjs"))
const first = profile.samples.findIndex(underRun)
const last = profile.samples.findLastIndex(underRun)
const selfUs = new Map()
for (let k = first; k >= 0 && k <= last; k++) {
  const id = profile.samples[k]
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0))
}
const parts = { matcher: new Map(), rest: new Map() }
const sums = { matcher: 0, rest: 0 }
for (const [id, us] of selfUs) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame
  const part = underMatcher(id) ? "matcher" : "rest"
  const key = `${functionName || "(anonymous)"} ${url === "" ? "" : `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`}`.trim()
  parts[part].set(key, (parts[part].get(key) ?? 0) + us)
  sums[part] += us
}
const all = sums.matcher + sums.rest
console.log(`${queries.length} searches x ${rounds} in ${(wallMs / 1000).toFixed(1)} s: the matcher ${((100 * sums.matcher) / all).toFixed(0)}% of the samples, the rest ${((100 * sums.rest) / all).toFixed(0)}%`)
for (const part of ["matcher", "rest"]) {
  console.log(`\n${part}, self time as a share of the ${part}'s:`)
  for (const [key, us] of [...parts[part]].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * us) / sums[part]).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`)
  }
}
