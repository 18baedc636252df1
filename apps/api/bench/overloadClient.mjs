// The overload benchmark's load generator (bench/overload.mjs starts it as its own process, so that
// it does not share the server's event loop): `concurrency` closed-loop keep-alive clients over a
// list of search paths for `seconds`. A client answered 503 either asks again at once (`--retry
// now`, what a misbehaving partner or a traffic spike does) or waits the `Retry-After` seconds it
// was told (`--retry after`). Prints one JSON line: seconds, the 200s with their latency
// percentiles, the 503s with theirs, and any other status.
import { readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    paths: { type: "string" },
    key: { type: "string", default: "" },
    concurrency: { type: "string", default: "32" },
    seconds: { type: "string", default: "4" },
    retry: { type: "string", default: "now" }
  }
})
const base = new URL(values.base)
const paths = readFileSync(values.paths, "utf8").split("\n").filter((l) => l !== "")
const concurrency = Number(values.concurrency)
const honour = values.retry === "after"
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
const headers = values.key ? { key: values.key } : {}

const once = (path) =>
  new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, agent, headers }, (res) => {
      res.resume()
      res.on("end", () => resolve({ status: res.statusCode, retryAfter: Number(res.headers["retry-after"] ?? 1) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const ok = []
const refused = []
const others = {}
let next = 0
const started = performance.now()
const deadline = started + Number(values.seconds) * 1000
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const path = paths[next++ % paths.length]
      const t0 = performance.now()
      const r = await once(path).catch((e) => ({ status: `error ${e.code ?? e.message}` }))
      const ms = performance.now() - t0
      if (r.status === 200) ok.push(ms)
      else if (r.status === 503) {
        refused.push(ms)
        if (honour) await new Promise((w) => setTimeout(w, Math.min(r.retryAfter * 1000, Math.max(0, deadline - performance.now()))))
      } else others[r.status] = (others[r.status] ?? 0) + 1
    }
  })
)
const seconds = (performance.now() - started) / 1000
const pct = (xs, p) => (xs.length === 0 ? null : xs[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)])
ok.sort((a, b) => a - b)
refused.sort((a, b) => a - b)
console.log(
  JSON.stringify({
    seconds,
    ok: ok.length,
    okPerSecond: ok.length / seconds,
    okP50: pct(ok, 50),
    okP99: pct(ok, 99),
    refused: refused.length,
    refusedP50: pct(refused, 50),
    refusedP99: pct(refused, 99),
    others
  })
)
agent.destroy()
