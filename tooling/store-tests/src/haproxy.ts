import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./freePort.js"

/** Where HAProxy is (Debian's `haproxy`); `TRIPSEARCH_HAPROXY` overrides it. */
export const haproxyBin = (): string => process.env["TRIPSEARCH_HAPROXY"] ?? "/usr/sbin/haproxy"

export { freePort }

export interface Backend {
  /** HAProxy's name of the server, also sent back in `X-Served-By`. */
  readonly name: string
  readonly port: number
}

export interface HaproxyTimings {
  /** Milliseconds between two health checks of a server (`inter` and `fastinter`; `downinter`, for a server that is down or starting, is half). */
  readonly checkMs: number
  /** Failed checks before a server is taken out (`fall`). */
  readonly fall: number
  /** Passed checks before it is put back (`rise`). */
  readonly rise: number
  /** `timeout server`: the longest a request may take on a server (whole seconds). */
  readonly serverTimeoutMs: number
}

/** docs/haproxy.cfg's values, the test's and the bench's as well. */
export const HAPROXY_TIMINGS: HaproxyTimings = { checkMs: 500, fall: 2, rise: 1, serverTimeoutMs: 10_000 }

/**
 * The configuration of docs/haproxy.cfg for these backends on 127.0.0.1, its frontend on `port`,
 * its admin socket at `socket`. Every backend is listed from the start: one with no server behind
 * its port yet fails its checks (DOWN) until a replica starts there and `/health` answers 200.
 */
export const haproxyConfig = (port: number, socket: string, backends: ReadonlyArray<Backend>, t: HaproxyTimings = HAPROXY_TIMINGS): string => `global
    maxconn 4096
    stats socket ${socket} mode 600 level admin

defaults
    mode http
    option http-keep-alive
    timeout connect 1s
    timeout client 30s
    timeout server ${t.serverTimeoutMs / 1000}s
    timeout http-keep-alive 4s
    timeout queue 2s
    # A search or a detail is a GET: one that met a dead connection or no answer at all is sent
    # again, to another server.
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response

frontend api
    bind 127.0.0.1:${port}
    default_backend replicas

backend replicas
    balance leastconn
    option httpchk
    http-check send meth GET uri /health
    http-check expect status 200
    default-server inter ${t.checkMs}ms fastinter ${t.checkMs}ms downinter ${t.checkMs / 2}ms rise ${t.rise} fall ${t.fall}
    http-response set-header X-Served-By %s
${backends.map((b) => `    server ${b.name} 127.0.0.1:${b.port} check`).join("\n")}
`

export interface Haproxy {
  /** The frontend's base URL. */
  readonly url: string
  readonly process: ChildProcess
  /** A command on the admin socket (`show stat`, `show servers state`), its answer. */
  readonly command: (line: string) => Promise<string>
  /** Each server's state (`UP`, `DOWN`, `MAINT`…) and current sessions (requests under way on it), from `show stat`. */
  readonly servers: () => Promise<ReadonlyMap<string, { readonly status: string; readonly current: number }>>
  /** Stops HAProxy and removes its folder. */
  readonly stop: () => Promise<void>
}

/**
 * Starts HAProxy in the foreground with `haproxyConfig`. Missing HAProxy is an error that says how
 * to install it, never a reason to skip.
 */
export const startHaproxy = async (backends: ReadonlyArray<Backend>, timings: HaproxyTimings = HAPROXY_TIMINGS): Promise<Haproxy> => {
  const bin = haproxyBin()
  if (!existsSync(bin)) {
    throw new Error(`HAProxy is not installed (no ${bin}): npm test installs it on Debian (apt-get install -y haproxy); elsewhere install it and set TRIPSEARCH_HAPROXY to its program`)
  }
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-haproxy-"))
  const socket = join(dir, "admin.sock")
  const port = await freePort()
  const cfg = join(dir, "haproxy.cfg")
  writeFileSync(cfg, haproxyConfig(port, socket, backends, timings))
  // -db: in the foreground, not a daemon; its messages go to its stderr, kept for a failure.
  const child = spawn(bin, ["-db", "-f", cfg], { stdio: ["ignore", "ignore", "pipe"] })
  let output = ""
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()))
  const command = (line: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const s = connect(socket)
      let answer = ""
      s.on("data", (c) => (answer += c.toString()))
      s.on("end", () => resolve(answer))
      s.on("error", reject)
      s.write(`${line}\n`)
    })
  const deadline = performance.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited with ${child.exitCode}:\n${output}`)
    if (existsSync(socket)) {
      try {
        await command("show info")
        break
      } catch {
        // not accepting yet
      }
    }
    if (performance.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`HAProxy did not start within 10 s:\n${output}\n${readFileSync(cfg, "utf8")}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  const servers = async () => {
    const lines = (await command("show stat")).split("\n")
    const head = lines[0]!.replace(/^# /, "").split(",")
    const at = (name: string) => head.indexOf(name)
    const out = new Map<string, { status: string; current: number }>()
    for (const line of lines.slice(1)) {
      const f = line.split(",")
      if (f[at("pxname")] !== "replicas" || f[at("svname")] === "BACKEND" || f[at("svname")] === undefined) continue
      out.set(f[at("svname")]!, { status: f[at("status")]!, current: Number(f[at("scur")]) })
    }
    return out
  }
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    command,
    servers,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        await new Promise((r) => child.once("exit", r))
      }
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** What a steady load saw: answers by status (0: no answer), by server, and when each server first answered. */
export interface LoadTally {
  sent: number
  readonly statuses: Map<number, number>
  readonly servedBy: Map<string, number>
  /** `performance.now()` of each server's first answer. */
  readonly firstAnswer: Map<string, number>
  /** Answers that were not 200 (or none at all): when, which status, which server. */
  readonly failures: Array<{ readonly at: number; readonly status: number; readonly server: string }>
}

export interface SteadyLoad {
  readonly tally: LoadTally
  /** Stops sending, resolves once the requests under way are answered. */
  readonly stop: () => Promise<LoadTally>
}

/**
 * `concurrency` clients sending the `paths` in turn to `base` (keep-alive) until stopped, each
 * answer read whole: a steady load through the balancer. With `perSecond`, the clients together
 * send no more than that many requests a second (a load that leaves the machine some CPU, as a
 * service in production has); without, each sends its next request as soon as it has an answer.
 */
export const steadyLoad = (base: string, paths: ReadonlyArray<string>, headers: Record<string, string>, concurrency: number, perSecond?: number): SteadyLoad => {
  const tally: LoadTally = { sent: 0, statuses: new Map(), servedBy: new Map(), firstAnswer: new Map(), failures: [] }
  let stopping = false
  let next = 0
  const gapMs = perSecond === undefined ? 0 : (1_000 * concurrency) / perSecond
  const client = async () => {
    let due = performance.now()
    while (!stopping) {
      if (gapMs > 0) {
        due += gapMs
        const wait = due - performance.now()
        if (wait > 0) await new Promise((r) => setTimeout(r, wait))
        else due = performance.now()
      }
      const path = paths[next++ % paths.length]!
      tally.sent++
      let status = 0
      let server = ""
      try {
        const response = await fetch(`${base}${path}`, { headers })
        await response.arrayBuffer()
        status = response.status
        server = response.headers.get("x-served-by") ?? ""
      } catch {
        status = 0
      }
      const at = performance.now()
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1)
      if (server !== "") {
        tally.servedBy.set(server, (tally.servedBy.get(server) ?? 0) + 1)
        if (!tally.firstAnswer.has(server)) tally.firstAnswer.set(server, at)
      }
      if (status !== 200) tally.failures.push({ at, status, server })
    }
  }
  const running = Promise.all(Array.from({ length: concurrency }, client))
  return {
    tally,
    stop: async () => {
      stopping = true
      await running
      return tally
    }
  }
}
