// The overload benchmark's load generator (bench/overload.mjs starts it as its own process, so that
// it does not share the server's event loop): `concurrency` closed-loop keep-alive clients over a
// list of search paths for `seconds`. A client answered 503 either asks again at once (`--retry
// now`, what a misbehaving partner or a traffic spike does) or waits the `Retry-After` seconds it
// was told (`--retry after`). Prints one JSON line: seconds, the 200s with their latency
// percentiles, the 503s with theirs, any other status, and this generator's CPU per answer.
//
// Each client is a bare TCP socket writing prebuilt GET requests and reading answers framed by
// their Content-Length (the server frames every search answer so). It shares the 2 cores with the
// server it loads, and node:http's client cost about as much CPU per answer as the server's
// refusal, and as much latency as the 503s it timed: against a server answering nothing but a
// fixed 503, this one times p99 1.9-2.8 ms at 64-128 clients where node:http's timed 5.8-12 ms
// (docs/PERFORMANCE.md, Overload).
import { readFileSync } from "node:fs"
import { connect } from "node:net"
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
const port = Number(base.port)
const requests = readFileSync(values.paths, "utf8")
  .split("\n")
  .filter((l) => l !== "")
  .map((path) => Buffer.from(`GET ${path} HTTP/1.1\r\nHost: ${base.host}\r\n${values.key ? `key: ${values.key}\r\n` : ""}\r\n`, "latin1"))
const concurrency = Number(values.concurrency)
const honour = values.retry === "after"
const HEAD_END = Buffer.from("\r\n\r\n")

const ok = []
const refused = []
const others = {}
const count = (what) => (others[what] = (others[what] ?? 0) + 1)
let next = 0
const started = performance.now()
const cpuStart = process.cpuUsage()
const deadline = started + Number(values.seconds) * 1000

/** One keep-alive connection asking in a closed loop until the deadline; reconnects when closed. */
const client = () =>
  new Promise((done) => {
    let socket
    let pending = Buffer.alloc(0)
    // Bytes of the whole answer being read once its head is in, else -1.
    let answerBytes = -1
    let status = 0
    let retryAfter = 1
    let sentAt = 0
    let awaiting = false
    const ask = () => {
      if (performance.now() >= deadline) {
        socket.end()
        return
      }
      sentAt = performance.now()
      awaiting = true
      socket.write(requests[next++ % requests.length])
    }
    const read = (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      while (true) {
        if (answerBytes < 0) {
          const end = pending.indexOf(HEAD_END)
          if (end < 0) return
          const head = pending.toString("latin1", 0, end)
          status = Number(head.slice(9, 12))
          const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)
          if (length === null) {
            // Not framed by length (chunked, or to the close): not what the server sends; start afresh.
            count("unframed answer")
            socket.destroy()
            return
          }
          retryAfter = Number(/\r\nretry-after:[ \t]*(\d+)/i.exec(head)?.[1] ?? 1)
          answerBytes = end + HEAD_END.length + Number(length[1])
        }
        if (pending.length < answerBytes) return
        pending = pending.subarray(answerBytes)
        answerBytes = -1
        awaiting = false
        const ms = performance.now() - sentAt
        if (status === 200) ok.push(ms)
        else if (status === 503) refused.push(ms)
        else count(status)
        if (status === 503 && honour) setTimeout(ask, Math.min(retryAfter * 1000, Math.max(0, deadline - performance.now())))
        else ask()
      }
    }
    const open = () => {
      pending = Buffer.alloc(0)
      answerBytes = -1
      socket = connect(port, base.hostname, ask)
      socket.setNoDelay(true)
      socket.on("data", read)
      socket.on("error", (e) => count(`error ${e.code ?? e.message}`))
      socket.on("close", () => {
        if (awaiting) count("closed before the answer")
        awaiting = false
        // A server that closed the connection is asked again on a new one, after a breath so that
        // a refused connection does not spin.
        if (performance.now() < deadline) setTimeout(open, 10)
        else done()
      })
    }
    open()
  })

await Promise.all(Array.from({ length: concurrency }, client))
const seconds = (performance.now() - started) / 1000
const cpu = process.cpuUsage(cpuStart)
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
    others,
    clientCpuMsPerAnswer: (cpu.user + cpu.system) / 1000 / Math.max(1, ok.length + refused.length)
  })
)
