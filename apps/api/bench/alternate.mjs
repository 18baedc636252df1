// Two builds' in-thread search benchmarks, run alternately in fresh processes (previous, this, this,
// previous, ...), and the ratio of their medians: before against after in one sitting.
//
// Why not two indexes in one process (packages/core/bench/compareIndexes.mjs)? That compare checks
// the answers byte for byte, but its timings carry the order in which the two 1M-trip indexes were
// loaded: on unchanged code, the first one loaded came out up to 10% faster or slower depending on
// the sitting. Here each run has the process to itself, as `bench:search` does; what remains is the
// machine's drift, which the alternation spreads over both builds.
import { spawn } from "node:child_process"
import { existsSync, symlinkSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { ownChild } from "./stopOnSignal.mjs"

const USAGE = `usage: npm run bench:alternate -- [options]

This checkout's in-thread search benchmark (\`apps/api/bench/search.mjs --http no\`) against another
checkout's, in fresh processes, alternately (previous, this, this, previous, ...): each run's
whole-search p50 / p90 / p99 and matcher p50, then each build's medians and their ratio.
  --previous DIR  another checkout of the project, built (required; for instance
                  \`git worktree add ../wt-base <commit> && cd ../wt-base && npm run build\`); it
                  gets a link to this checkout's .bench/ when it has none, so that both read the
                  same store and query log (made by the first run when missing); a checkout
                  with a .bench/ of its own reads its own, and makes it there when missing
  --mix M         heavy (default), wide or dense, as bench:search
  --pairs P       runs of each build (default 2, at most 20)
  --trips N       trips in the store (default 1000000)
  --help          this text`

let values
try {
  ;({ values } = parseArgs({
    options: {
      previous: { type: "string" },
      mix: { type: "string", default: "heavy" },
      pairs: { type: "string", default: "2" },
      trips: { type: "string", default: "1000000" },
      help: { type: "boolean", short: "h" }
    },
    strict: true
  }))
} catch (e) {
  console.error(`bench:alternate: ${e.message}\n\n${USAGE}`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
const pairs = Number(values.pairs)
const trips = Number(values.trips)
const bad =
  values.previous === undefined ? "--previous DIR is required"
  : !["heavy", "wide", "dense"].includes(values.mix) ? `--mix must be heavy, wide or dense, got "${values.mix}"`
  : !(Number.isInteger(pairs) && pairs >= 1 && pairs <= 20) ? `--pairs must be a whole number from 1 to 20, got "${values.pairs}"`
  : !(/^\d+$/.test(values.trips) && trips > 0) ? `--trips must be a positive integer, got "${values.trips}"`
  : undefined
if (bad !== undefined) {
  console.error(`bench:alternate: ${bad}\n\n${USAGE}`)
  process.exit(2)
}

const here = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")
const previous = resolve(values.previous)
const script = (root) => join(root, "apps/api/bench/search.mjs")
if (!existsSync(script(previous)) || !existsSync(join(previous, "apps/replay/dist/targets.js"))) {
  console.error(`bench:alternate: no built checkout at ${previous} (apps/api/bench/search.mjs and apps/replay/dist)`)
  process.exit(2)
}
if (!existsSync(join(previous, ".bench")) && previous !== here) {
  symlinkSync(join(here, ".bench"), join(previous, ".bench"))
  console.log(`linked ${join(previous, ".bench")} -> ${join(here, ".bench")}`)
}

/** One run of `search.mjs` in `root`: its whole-search p50 / p90 / p99 and matcher p50 (ms). */
const run = (root) =>
  new Promise((resolvePromise, reject) => {
    const args = ["--max-old-space-size=12000", script(root), "--trips", values.trips, "--mix", values.mix, "--http", "no"]
    const child = ownChild(spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] }))
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.on("error", reject)
    child.on("exit", (code) => {
      const all = /^all searches\s+n\s+\d+\s+p50\s+([\d.]+)\s+p90\s+([\d.]+)\s+p99\s+([\d.]+)/m.exec(out)
      const matcher = /the matcher \(TripIndex\.search\): p50 ([\d.]+) ms/.exec(out)
      if (code !== 0 || all === null || matcher === null) return reject(new Error(`search.mjs in ${root} exited with ${code}:\n${out.slice(-2000)}`))
      resolvePromise({ p50: Number(all[1]), p90: Number(all[2]), p99: Number(all[3]), matcher: Number(matcher[1]) })
    })
  })

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

console.log(`bench:alternate, ${values.mix} mix, ${values.trips} trips: previous ${previous}, this ${here}`)
const results = { previous: [], this: [] }
for (let p = 0; p < pairs; p++) {
  for (const who of p % 2 === 0 ? ["previous", "this"] : ["this", "previous"]) {
    const r = await run(who === "previous" ? previous : here)
    results[who].push(r)
    console.log(`${who.padEnd(8)} whole p50 ${r.p50.toFixed(2)}  p90 ${r.p90.toFixed(2)}  p99 ${r.p99.toFixed(2)} ms   matcher p50 ${r.matcher.toFixed(2)} ms`)
  }
}
for (const key of ["p50", "p90", "p99", "matcher"]) {
  const a = median(results.previous.map((r) => r[key]))
  const b = median(results.this.map((r) => r[key]))
  console.log(`median ${key.padEnd(7)} previous ${a.toFixed(2)} ms, this ${b.toFixed(2)} ms: x${(a / b).toFixed(3)} (over 1: this build faster)`)
}
