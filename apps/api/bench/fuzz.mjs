// The fuzz command: fuzzed requests against a real listening server (the loop is
// src/fuzz/runFuzz.ts, which the test suite runs briefly too). `--help` lists the options.
import { readFileSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { createKey, openDatabase, revokeKey } from "@tripsearch/storage-sqlite"
import { ensureDataset } from "../dist/ensureDataset.js"
import { fakeKey } from "../dist/fuzz/fuzzRequest.js"
import { countSecrets, formatSummary, runFuzz, violationCount } from "../dist/fuzz/runFuzz.js"
import { startChild } from "./startChild.mjs"
import { temporaryFolder } from "./stopOnSignal.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const root = resolve(here, "../../..")

const USAGE = `Usage: npm run fuzz -- [options]
       node apps/api/bench/fuzz.mjs [options]     (after npm run build)

Sends fuzzed requests to the API: garbage in every parameter, broken percent-encodings, URLs of
10 to 100 KB, big headers, odd methods and paths, valid and invalid keys in many shapes (the key
header and parameter, misspelled names such as KEY, api_key, key%20, access_token, Authorization,
keys typed into the path). Checks every answer: no 5xx, a body that is what its Content-Type says
(JSON, or XML when asked; errors in the Error object), no key in any body or header, an answer
within --max-latency-ms. Without --url it starts the real server (apps/api/dist/main.js) on a
small generated store in a temporary folder on 127.0.0.1, and also checks that no key reaches its
request log (stdout) or its query log. Prints a summary; exits 1 on any violation.

Options:
  --requests N          requests to send (default 10000)
  --seed S              seed of the requests: the same seed sends the same requests (default 1)
  --concurrency C       requests in flight (default 8)
  --url URL             fuzz this running server instead (e.g. http://127.0.0.1:3000); its logs are not checked
  --key KEY             a valid key of the server at --url (repeatable); without one, only unknown keys are sent
  --trips N             trips of the generated store (default 2000; without --url)
  --max-latency-ms MS   an answer slower than this is a violation (default 5000)
  -h, --help            print this help and exit`

let values
try {
  ;({ values } = parseArgs({
    options: {
      help: { type: "boolean", short: "h", default: false },
      requests: { type: "string", default: "10000" },
      seed: { type: "string", default: "1" },
      concurrency: { type: "string", default: "8" },
      url: { type: "string" },
      key: { type: "string", multiple: true, default: [] },
      trips: { type: "string", default: "2000" },
      "max-latency-ms": { type: "string", default: "5000" }
    }
  }))
} catch (e) {
  console.error(`fuzz: ${e.message.split("\n")[0]} (--help lists the options)`)
  process.exit(2)
}
if (values.help) {
  console.log(USAGE)
  process.exit(0)
}
for (const name of ["requests", "concurrency", "trips", "max-latency-ms"]) {
  if (!/^[1-9]\d*$/.test(values[name])) {
    console.error(`fuzz: --${name} must be a positive integer, got "${values[name]}" (--help lists the options)`)
    process.exit(2)
  }
}
if (!/^\d+$/.test(values.seed) || Number(values.seed) > 2 ** 32 - 1) {
  console.error(`fuzz: --seed must be an integer from 0 to 4294967295, got "${values.seed}" (--help lists the options)`)
  process.exit(2)
}
if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/i.test(values.url)) {
  console.error(`fuzz: --url must be the server's base URL, like http://127.0.0.1:3000, got "${values.url}"`)
  process.exit(2)
}
if (values.url === undefined && values.key.length > 0) {
  console.error("fuzz: --key goes with --url (without it the fuzzer makes its own keys)")
  process.exit(2)
}
if (values.url?.toLowerCase().startsWith("https:")) {
  console.error("fuzz: --url must be plain http (the fuzzer writes raw HTTP/1.1 on sockets)")
  process.exit(2)
}

const seed = Number(values.seed)
const invalid = Array.from({ length: 6 }, (_, i) => fakeKey(seed, i))
let valid = values.key
let server
let work
let logHits = 0
/** Log lines that held a key, the key masked, to show where it leaked. */
const leaks = []
const noteLeaks = (text, secrets) => {
  for (const line of text.split("\n")) {
    if (leaks.length >= 5) return
    if (countSecrets(line, secrets) > 0) leaks.push(secrets.reduce((l, k) => l.split(k).join("<KEY>"), line).slice(0, 300))
  }
}
let queryLogPath
let url = values.url?.replace(/\/$/, "")

if (url === undefined) {
  work = temporaryFolder("tripsearch-fuzz-")
  const dbPath = join(work, "trips.db")
  queryLogPath = join(work, "query-log.ndjson")
  const t0 = performance.now()
  await ensureDataset({ dbPath, demoKeyPath: join(work, "demo-key.json"), trips: Number(values.trips), nowMs: Date.now() })
  const db = openDatabase(dbPath)
  // A production key with room for the whole run, and a revoked one (a 403 that looks valid).
  valid = [createKey(db, { name: "fuzz", tier: "production", dailyLimit: 1_000_000_000 }).key]
  const revoked = createKey(db, { name: "fuzz-revoked", tier: "production", dailyLimit: 1_000_000_000 })
  revokeKey(db, revoked.id)
  invalid.push(revoked.key)
  db.close()
  console.log(`store: ${values.trips} trips in ${dbPath} (${((performance.now() - t0) / 1000).toFixed(1)} s)`)
  server = await startChild([join(root, "apps/api/dist/main.js")], { TRIPSEARCH_DB: dbPath, PORT: "0", HOST: "127.0.0.1", QUERY_LOG: queryLogPath }, /listening on (http:\/\/[\d.]+:\d+)/)
  url = server.match[1]
  // The request log (stdout) and errors (stderr), scanned for keys as they come; a key cut in two
  // by a chunk boundary is caught by keeping the end of the previous chunk.
  const secrets = [...valid, ...invalid]
  const keep = Math.max(...secrets.map((k) => k.length))
  for (const stream of [server.child.stdout, server.child.stderr]) {
    let tail = ""
    stream.on("data", (chunk) => {
      const text = tail + chunk.toString("latin1")
      const hits = countSecrets(text, secrets)
      if (hits > 0) noteLeaks(text, secrets)
      logHits += hits
      tail = text.slice(-keep)
      // What was counted in the tail must not count again.
      logHits -= countSecrets(tail, secrets)
    })
  }
  console.log(`server: ${url} (started in ${(server.ms / 1000).toFixed(1)} s)`)
}

const requests = Number(values.requests)
console.log(`fuzz: ${requests} requests to ${url}, seed ${seed}, concurrency ${values.concurrency}, ${valid.length} valid and ${invalid.length} invalid keys`)
const step = Math.max(1, Math.round(requests / 10))
const summary = await runFuzz({
  url,
  requests,
  seed,
  concurrency: Number(values.concurrency),
  keys: { valid, invalid },
  maxLatencyMs: Number(values["max-latency-ms"]),
  onProgress: (done) => {
    if (done % step === 0 && done < requests) console.log(`  ${done} sent`)
  }
})

let alive = false
try {
  alive = (await fetch(`${url}/health`)).status === 200
} catch {
  alive = false
}
const extra = [`server still answering /health: ${alive ? "yes" : "NO"}`]
if (server !== undefined) {
  await new Promise((resolvePromise) => {
    server.child.once("exit", resolvePromise)
    server.child.kill("SIGTERM")
  })
  const queryLog = readFileSync(queryLogPath, "latin1")
  const queryLogHits = countSecrets(queryLog, [...valid, ...invalid])
  const queryLogLines = (queryLog.match(/\n/g) ?? []).length
  if (queryLogHits > 0) noteLeaks(queryLog, [...valid, ...invalid])
  extra.push(`keys in the request log: ${logHits}; in the query log (${queryLogLines} lines): ${queryLogHits}`)
  logHits += queryLogHits
  rmSync(work, { recursive: true, force: true })
} else extra.push("logs: not checked (--url)")

for (const line of formatSummary(summary, extra)) console.log(line)
for (const line of leaks) console.log(`  a key logged: ${line}`)
const failed = violationCount(summary) > 0 || logHits > 0 || !alive
console.log(failed ? `FAILED (reproduce with --seed ${seed})` : "OK")
process.exit(failed ? 1 : 0)
