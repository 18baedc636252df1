import { Agent, request } from "node:http"
import { connect } from "node:net"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { type FuzzKeys, type FuzzRequest, fuzzRequest } from "./fuzzRequest.js"

export interface FuzzOptions {
  /** The server, e.g. `http://127.0.0.1:3000`. */
  readonly url: string
  readonly requests: number
  readonly seed: number
  /** Requests in flight. */
  readonly concurrency: number
  readonly keys: FuzzKeys
  /** An answer slower than this is a violation. */
  readonly maxLatencyMs: number
  /** How long to wait for an answer before counting the request unanswered. */
  readonly timeoutMs?: number
  /** Called after each request with the number done (progress output). */
  readonly onProgress?: (done: number) => void
}

export type ViolationKind = "5xx" | "malformed body" | "key echoed" | "no answer" | "slow"

export interface Violation {
  readonly index: number
  readonly kind: ViolationKind
  readonly detail: string
  readonly method: string
  /** The target, cut to 200 characters. */
  readonly target: string
  readonly status?: number
}

export interface FuzzSummary {
  readonly requests: number
  readonly seconds: number
  readonly statuses: ReadonlyMap<number, number>
  readonly rawRequests: number
  /** Every violation counted by kind; the first `examples` kept. */
  readonly violations: Readonly<Record<ViolationKind, number>>
  readonly examples: ReadonlyArray<Violation>
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number }
}

interface Reply {
  readonly status: number
  /** Header names and values as received, for the echo check. */
  readonly headerText: string
  readonly contentType: string
  readonly contentEncoding: string
  readonly body: Buffer
}

const MAX_EXAMPLES = 20

/**
 * Sends one request on its own socket and reads one answer. The socket is not half-closed after
 * the request, as ordinary clients do not: Node's server aborts a request whose client shut its
 * sending side.
 */
const sendRaw = (host: string, port: number, req: FuzzRequest, timeoutMs: number): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const head = `${req.method} ${req.target} ${req.version}\r\n${req.headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}${
      req.version === "HTTP/1.1" ? "Connection: close\r\n" : ""
    }\r\n`
    const socket = connect(port, host, () => socket.write(Buffer.from(head + (req.body ?? ""), "latin1")))
    const chunks: Array<Buffer> = []
    let settled = false
    const settle = (closed: boolean, error?: Error) => {
      const bytes = Buffer.concat(chunks)
      const reply = parseRawReply(bytes, req.method, closed)
      if (reply === undefined && !closed) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      // A reset after a whole answer (the server closing on a request it refused) is still an answer.
      if (reply !== undefined) resolve(reply)
      else reject(error ?? new Error(`connection closed after ${bytes.length} bytes, no whole answer`))
    }
    const timer = setTimeout(() => settle(true, new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    socket.on("data", (c: Buffer) => {
      chunks.push(c)
      if (!settled) settle(false)
    })
    socket.on("error", (error) => settled || settle(true, error))
    socket.on("close", () => settled || settle(true))
  })

/**
 * Parses one HTTP/1.1 answer (Content-Length, chunked, or up to the close), or `undefined` while it
 * is incomplete.
 */
const parseRawReply = (bytes: Buffer, method: string, closed: boolean): Reply | undefined => {
  const end = bytes.indexOf("\r\n\r\n")
  if (end === -1) return undefined
  const lines = bytes.subarray(0, end).toString("latin1").split("\r\n")
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(lines[0] ?? "")
  if (status === null) return undefined
  const headers = new Map<string, string>()
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  let body = bytes.subarray(end + 4)
  const code = Number(status[1])
  if (method === "HEAD" || code === 204 || code === 304) body = Buffer.alloc(0)
  else if (headers.get("transfer-encoding")?.toLowerCase() === "chunked") {
    const parts: Array<Buffer> = []
    let at = 0
    for (;;) {
      const lineEnd = body.indexOf("\r\n", at)
      if (lineEnd === -1) return undefined
      const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16)
      if (!Number.isFinite(size)) return undefined
      if (size === 0) break
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size))
      at = lineEnd + 2 + size + 2
    }
    body = Buffer.concat(parts)
  } else {
    const length = Number(headers.get("content-length") ?? Number.NaN)
    if (Number.isFinite(length)) {
      if (body.length < length) return undefined
      body = body.subarray(0, length)
    } else if (!closed) return undefined
  }
  return {
    status: code,
    headerText: lines.slice(1).join("\n"),
    contentType: headers.get("content-type") ?? "",
    contentEncoding: headers.get("content-encoding") ?? "",
    body
  }
}

/** Sends one request through Node's HTTP client on a keep-alive connection. */
const sendHttp = (agent: Agent, host: string, port: number, req: FuzzRequest, timeoutMs: number): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const out = request(
      { host, port, method: req.method, path: req.target, headers: req.headers.flat(), agent, setHost: false, timeout: timeoutMs },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () => {
          const raw: Array<string> = []
          for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
          resolve({
            status: res.statusCode ?? 0,
            headerText: raw.join("\n"),
            contentType: res.headers["content-type"] ?? "",
            contentEncoding: String(res.headers["content-encoding"] ?? ""),
            body: Buffer.concat(chunks)
          })
        })
        res.on("error", reject)
      }
    )
    out.on("timeout", () => out.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    out.on("error", reject)
    out.end(req.body)
  })

const xml = new XMLParser({ parseTagValue: false })

const ERROR_FIELDS = ["code", "developper-message", "message", "support-link"]

/** What is wrong with a body, given its status and type, or `undefined`. */
const bodyProblem = (req: FuzzRequest, reply: Reply, path: string): string | undefined => {
  // The server's root, asked for HTML, sends a browser to the website's home page.
  if (reply.status === 302 && path === "/") return reply.body.length === 0 ? undefined : `a 302 with a body of ${reply.body.length} bytes`
  if (req.method === "HEAD" || reply.status === 204 || reply.status === 304) {
    return reply.body.length === 0 ? undefined : `a ${reply.status} to ${req.method} with a body of ${reply.body.length} bytes`
  }
  let text: string
  try {
    const coding = reply.contentEncoding
    text = (coding === "br" ? brotliDecompressSync(reply.body) : coding === "gzip" ? gunzipSync(reply.body) : reply.body).toString("utf8")
  } catch (error) {
    return `the body does not decode as "${reply.contentEncoding}": ${String(error)}`
  }
  const type = reply.contentType
  if (type.startsWith("application/json")) {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      return `not JSON: ${JSON.stringify(text.slice(0, 120))}`
    }
    if (typeof json !== "object" || json === null) return "JSON that is not an object"
    if (reply.status >= 400) {
      const error = (json as { error?: Record<string, unknown> }).error
      if (Object.keys(json).join() !== "error" || error === undefined || Object.keys(error).join() !== ERROR_FIELDS.join()) {
        return `not the Error object: ${JSON.stringify(text.slice(0, 120))}`
      }
      if (error.code !== String(reply.status)) return `error code ${String(error.code)} under status ${reply.status}`
    }
    return undefined
  }
  if (type.startsWith("application/xml")) {
    if (XMLValidator.validate(text) !== true) return `not well-formed XML: ${JSON.stringify(text.slice(0, 120))}`
    const doc = xml.parse(text) as Record<string, { error?: { code?: unknown } }>
    if (Object.keys(doc).filter((k) => k !== "?xml").join() !== "response") return "XML whose root is not <response>"
    if (reply.status >= 400 && String(doc.response?.error?.code) !== String(reply.status)) return `XML error code under status ${reply.status}`
    return undefined
  }
  // The Prometheus exposition, the one answer that is neither.
  if (type.startsWith("text/plain") && reply.status === 200 && /^\/metrics\/?$/i.test(path)) return undefined
  return `unexpected content type "${type}" for status ${reply.status}`
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

/** How many times any of `secrets` occurs in `text`. */
export const countSecrets = (text: string, secrets: ReadonlyArray<string>): number => {
  let n = 0
  for (const secret of secrets) for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) n++
  return n
}

/**
 * Sends `requests` fuzzed requests (`fuzzRequest`) to a listening server, `concurrency` at a time,
 * and checks each answer: no 5xx; a body that is what its `Content-Type` says (JSON, or XML when
 * asked; an error in the Error object of its status; none to HEAD and 204); no key of the run in
 * any body or header; an answer within `maxLatencyMs`. Never throws on a bad answer: counts it.
 */
export const runFuzz = async (options: FuzzOptions): Promise<FuzzSummary> => {
  const { hostname, port: portText } = new URL(options.url)
  const host = hostname.replace(/^\[|\]$/g, "")
  const port = Number(portText || 80)
  const timeoutMs = options.timeoutMs ?? Math.max(10_000, options.maxLatencyMs * 2)
  const secrets = [...options.keys.valid, ...options.keys.invalid]
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency })
  const latencies = new Float64Array(options.requests)
  const statuses = new Map<number, number>()
  const violations: Record<ViolationKind, number> = { "5xx": 0, "malformed body": 0, "key echoed": 0, "no answer": 0, slow: 0 }
  const examples: Array<Violation> = []
  let rawRequests = 0
  let next = 0
  let done = 0

  const violate = (index: number, req: FuzzRequest, kind: ViolationKind, detail: string, status?: number) => {
    violations[kind]++
    if (examples.length < MAX_EXAMPLES) {
      examples.push({ index, kind, detail, method: req.method, target: req.target.slice(0, 200), ...(status !== undefined ? { status } : {}) })
    }
  }

  const worker = async (): Promise<void> => {
    while (next < options.requests) {
      const index = next++
      const req = fuzzRequest(options.seed, index, options.keys)
      if (req.raw) rawRequests++
      const t0 = performance.now()
      let reply: Reply
      try {
        reply = req.raw ? await sendRaw(host, port, req, timeoutMs) : await sendHttp(agent, host, port, req, timeoutMs)
      } catch (error) {
        latencies[index] = performance.now() - t0
        violate(index, req, "no answer", error instanceof Error ? error.message : String(error))
        done++
        options.onProgress?.(done)
        continue
      }
      const ms = performance.now() - t0
      latencies[index] = ms
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
      if (reply.status >= 500) violate(index, req, "5xx", `status ${reply.status}`, reply.status)
      const problem = bodyProblem(req, reply, req.target.split("?")[0]!)
      if (problem !== undefined) violate(index, req, "malformed body", problem, reply.status)
      if (countSecrets(reply.headerText, secrets) + countSecrets(reply.body.toString("latin1"), secrets) > 0) {
        violate(index, req, "key echoed", "a key of the run is in the answer", reply.status)
      }
      if (ms > options.maxLatencyMs) violate(index, req, "slow", `${ms.toFixed(0)} ms`, reply.status)
      done++
      options.onProgress?.(done)
    }
  }

  const t0 = performance.now()
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker))
  } finally {
    agent.destroy()
  }
  const seconds = (performance.now() - t0) / 1000
  const sorted = latencies.slice(0, done).sort()
  return {
    requests: done,
    seconds,
    statuses,
    rawRequests,
    violations,
    examples,
    latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.length === 0 ? 0 : sorted[sorted.length - 1]! }
  }
}

/** The number of violations of every kind. */
export const violationCount = (summary: FuzzSummary): number => Object.values(summary.violations).reduce((a, b) => a + b, 0)

/** The summary as lines of text, the CLI's and the docs'. */
export const formatSummary = (summary: FuzzSummary, extra: ReadonlyArray<string> = []): Array<string> => {
  const statusList = [...summary.statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s} ${n}`)
  const v = summary.violations
  return [
    `requests: ${summary.requests} in ${summary.seconds.toFixed(1)} s (${(summary.requests / summary.seconds).toFixed(0)}/s), ${summary.rawRequests} of them on raw sockets`,
    `statuses: ${statusList.join(", ")}`,
    `latency: p50 ${summary.latencyMs.p50.toFixed(1)} ms, p99 ${summary.latencyMs.p99.toFixed(1)} ms, max ${summary.latencyMs.max.toFixed(1)} ms`,
    ...extra,
    `violations: ${violationCount(summary)} (5xx ${v["5xx"]}, malformed bodies ${v["malformed body"]}, keys echoed ${v["key echoed"]}, unanswered ${v["no answer"]}, slow ${v.slow})`,
    ...summary.examples.map(
      (e) => `  #${e.index} ${e.kind}: ${e.detail} (${JSON.stringify(e.method)} ${JSON.stringify(e.target)}${e.status !== undefined ? ` -> ${e.status}` : ""})`
    )
  ]
}
