// A closed-loop HTTP load generator, run as its own process so that it does not share the
// server's event loop: `concurrency` keep-alive loops over a list of paths for `seconds`.
// Prints one JSON line: requests, rps, latency percentiles (nearest rank), statuses, the content
// codings answered, bytes as received (compressed when the server compressed; the body is not
// decompressed), and this generator's own CPU per request (it shares the machine's cores with
// the server). `--accept-encoding` is sent as the Accept-Encoding header when given. With
// `--once`, each path is asked exactly once, whatever the time it takes: a run then measures the
// same searches however fast the server is (a run of `seconds` covers fewer paths of the list
// when the server is slower, and so measures other searches).
import { readFileSync } from "node:fs"
import { Agent, request } from "node:http"
import { parseArgs } from "node:util"

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    paths: { type: "string" },
    key: { type: "string", default: "" },
    concurrency: { type: "string", default: "32" },
    seconds: { type: "string", default: "10" },
    "accept-encoding": { type: "string", default: "" },
    once: { type: "boolean", default: false }
  }
})
const base = new URL(values.base)
const paths = readFileSync(values.paths, "utf8").split("\n").filter((l) => l !== "")
const concurrency = Number(values.concurrency)
const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
const headers = {
  ...(values.key ? { key: values.key } : {}),
  ...(values["accept-encoding"] ? { "accept-encoding": values["accept-encoding"] } : {})
}

const once = (path) =>
  new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path, agent, headers }, (res) => {
      let bytes = 0
      res.on("data", (c) => (bytes += c.length))
      res.on("end", () => resolve({ status: res.statusCode, bytes, coding: res.headers["content-encoding"] ?? "identity" }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const latencies = []
const statuses = {}
const codings = {}
let next = 0
let bytes = 0
const started = performance.now()
const cpuStart = process.cpuUsage()
const deadline = started + Number(values.seconds) * 1000
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (values.once ? next < paths.length : performance.now() < deadline) {
      const path = paths[next++ % paths.length]
      const t0 = performance.now()
      // A failed connection is counted, not fatal: the report says how many there were.
      const r = await once(path).catch((e) => ({ status: `error ${e.code ?? e.message}`, bytes: 0 }))
      latencies.push(performance.now() - t0)
      statuses[r.status] = (statuses[r.status] ?? 0) + 1
      if (r.coding !== undefined) codings[r.coding] = (codings[r.coding] ?? 0) + 1
      bytes += r.bytes
    }
  })
)
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuStart)
latencies.sort((a, b) => a - b)
const rank = (p) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)]
console.log(
  JSON.stringify({ requests: latencies.length, seconds, rps: latencies.length / seconds, p50: rank(50), p90: rank(90), p99: rank(99), max: latencies[latencies.length - 1], statuses, codings, meanBytes: bytes / latencies.length, clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / latencies.length })
)
agent.destroy()
