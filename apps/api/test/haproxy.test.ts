import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { feedLines } from "@tripsearch/dataset"
import { freshDatabase } from "@tripsearch/store-tests"
import { type Backend, freePort, type Haproxy, haproxyBin, haproxyConfig, HAPROXY_TIMINGS, startHaproxy, steadyLoad } from "@tripsearch/store-tests/haproxy"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { timeUntil } from "./timeUntil.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const MAIN = new URL("../dist/main.js", import.meta.url).pathname
const STORE_CLI = new URL("../../../packages/store/dist/cli.js", import.meta.url).pathname
const DOCS_CFG = new URL("../../../docs/haproxy.cfg", import.meta.url).pathname
const run = promisify(execFile)
/** Longer than HAProxy takes to see `/health` fail (`fall` checks, `inter` apart), with a margin. */
const DRAIN_MS = HAPROXY_TIMINGS.fall * HAPROXY_TIMINGS.checkMs + 1_000

/**
 * HAProxy (Debian's, as docs/haproxy.cfg configures it) in front of API replicas over one
 * PostgreSQL, under a steady load of searches through it: a replica stopped with SIGTERM drains
 * without one failed request, one killed with SIGKILL costs at most the requests it had under
 * way, and one started under load takes traffic as soon as its index is loaded (within the next
 * health check), a start that bench:scaling measures at 5 s at most with 1M trips.
 */
describe("replicas behind HAProxy, under load", () => {
  const nowMs = Date.now()
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-haproxy-test-"))
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let haproxy: Haproxy
  let key: string
  let backends: Array<Backend>
  const children: Array<ChildProcess> = []
  const feed = [...feedLines({ trips: 2_000, seed: "haproxy", nowMs })]
  const paths = feed.slice(0, 200).map((line) => {
    const trip = JSON.parse(line) as Json
    const [a, b] = [trip.waypoints[0], trip.waypoints[trip.waypoints.length - 1]]
    return `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}&radius=5`
  })

  /** `node apps/api/dist/main.js` on the backend's port; resolves once it is spawned (not ready). */
  const spawnReplica = (backend: Backend): { child: ChildProcess; output: () => string; spawnedAt: number } => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        PORT: String(backend.port),
        HOST: "127.0.0.1",
        TRIPSEARCH_DB: database.url,
        MATCHER_THREADS: "1",
        QUERY_LOG: "off",
        METRICS: "off",
        DRAIN_MS: String(DRAIN_MS)
      },
      stdio: ["ignore", "ignore", "pipe"]
    })
    children.push(child)
    let output = ""
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()))
    return { child, output: () => output, spawnedAt: performance.now() }
  }
  const ready = async (r: ReturnType<typeof spawnReplica>) =>
    expect(await timeUntil(async () => r.output(), (o) => o.includes("tripsearch API listening"), 60_000)).toBeLessThan(60_000)
  const up = (names: ReadonlyArray<string>) =>
    timeUntil(() => haproxy.servers(), (s) => names.every((n) => s.get(n)?.status === "UP"), 20_000)

  beforeAll(async () => {
    database = await freshDatabase()
    const file = join(dir, "feed.ndjson")
    writeFileSync(file, `${feed.join("\n")}\n`)
    // The store tool also leaves the index snapshot in the database: the replicas start from it.
    const imported = (await run(process.execPath, [STORE_CLI, "import", "--db", database.url, file])).stdout
    expect(imported).toMatch(/index snapshot in the database .*: written at seq 2000/)
    const created = (await run(process.execPath, [STORE_CLI, "keys", "create", "--db", database.url, "--name", "lb", "--tier", "production", "--daily-limit", "100000000"])).stdout
    key = /^key:\s+(\S+)/m.exec(created)![1]!
    backends = await Promise.all(["r1", "r2", "r3", "r4"].map(async (name) => ({ name, port: await freePort() })))
    haproxy = await startHaproxy(backends)
  }, 120_000)

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL")
    await haproxy?.stop()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it("drains a replica stopped with SIGTERM with no failed request, loses at most the in-flight requests of one killed, sends to a new one at its first health check", async () => {
    const [r1, r2, r3] = backends.slice(0, 3).map(spawnReplica)
    // /health is 503 while a replica starts: HAProxy sends it nothing before its index is loaded.
    for (const r of [r1!, r2!, r3!]) await ready(r)
    expect(r1!.output()).toMatch(/index loaded from its snapshot in the database/)
    expect(await up(["r1", "r2", "r3"])).toBeLessThan(20_000)

    // 100 searches a second: a steady load that leaves the 2 cores room to start a replica.
    const load = steadyLoad(haproxy.url, paths, { key }, 4, 100)
    // The load's own check below only when the steps passed: it would hide the failure of one.
    let passed = false
    try {
      // Each replica answers searches through HAProxy before one is stopped (on a busy machine a
      // replica's first searches can take over a second: a fixed wait made this test flaky).
      expect(await timeUntil(async () => load.tally.servedBy, (by) => ["r1", "r2", "r3"].every((n) => (by.get(n) ?? 0) > 0), 20_000)).toBeLessThan(20_000)

      // SIGTERM: /health turns 503, HAProxy takes r1 out, r1 finishes what it has and stops.
      const termAt = performance.now()
      r1!.child.kill("SIGTERM")
      await new Promise((r) => r1!.child.once("exit", r))
      expect(r1!.child.exitCode).toBe(0)
      await new Promise((r) => setTimeout(r, 500))
      const afterTerm = load.tally.failures.filter((f) => f.at >= termAt)
      expect(afterTerm).toEqual([])
      const servedByR1 = load.tally.servedBy.get("r1") ?? 0

      // SIGKILL: what r2 had under way is lost at most (HAProxy sends again what found no answer).
      const inFlight = (await haproxy.servers()).get("r2")!.current
      const killAt = performance.now()
      r2!.child.kill("SIGKILL")
      expect(await timeUntil(() => haproxy.servers(), (s) => s.get("r2")?.status.startsWith("DOWN") === true, 10_000)).toBeLessThan(10_000)
      await new Promise((r) => setTimeout(r, 500))
      const afterKill = load.tally.failures.filter((f) => f.at >= killAt)
      expect(afterKill.length).toBeLessThanOrEqual(inFlight)

      // A replica started under load: listening at once, /health 503 until its index is loaded, then taken in.
      const r4 = spawnReplica(backends[3]!)
      const readyAfterMs = await timeUntil(async () => r4.output(), (o) => o.includes("tripsearch API listening"), 30_000)
      expect(readyAfterMs, r4.output()).toBeLessThan(30_000)
      expect(await timeUntil(async () => load.tally.firstAnswer.get("r4"), (t) => t !== undefined, 20_000)).toBeLessThan(20_000)
      const takenAfterMs = load.tally.firstAnswer.get("r4")! - r4.spawnedAt
      // HAProxy's part: the first check after /health turned 200 puts it in (rise 1, every checkMs).
      expect(takenAfterMs - readyAfterMs).toBeLessThan(4 * HAPROXY_TIMINGS.checkMs)
      // The replica's own part: its start from the database's snapshot is seconds on an idle machine
      // (bench:scaling measures it at 1M trips); bounded loosely here, the machine being shared.
      expect(takenAfterMs, r4.output()).toBeLessThan(15_000)
      // r1 was gone: nothing went to it after it exited.
      expect(load.tally.servedBy.get("r1") ?? 0).toBe(servedByR1)
      passed = true
    } finally {
      const tally = await load.stop()
      // Searches went through all along.
      if (passed) expect(tally.statuses.get(200) ?? 0).toBeGreaterThan(100)
    }
  }, 120_000)

  it("docs/haproxy.cfg is valid and configures what this test runs: the health check, the retries, the balance, the timeouts", async () => {
    await run(haproxyBin(), ["-c", "-q", "-f", DOCS_CFG])
    const directives = (text: string) => new Set(text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#")))
    const docs = directives(readFileSync(DOCS_CFG, "utf8"))
    const ours = directives(haproxyConfig(8080, "/run/admin.sock", backends))
    for (const line of [
      "option httpchk",
      "http-check send meth GET uri /health",
      "http-check expect status 200",
      "retries 2",
      "option redispatch 1",
      "retry-on conn-failure empty-response",
      "balance leastconn",
      "timeout connect 1s",
      "timeout server 10s",
      "timeout http-keep-alive 4s",
      "http-response set-header X-Served-By %s",
      // Under Debian's default limit of open files for a process started by hand.
      "maxconn 4096"
    ]) {
      expect(docs.has(line), line).toBe(true)
      expect(ours.has(line), line).toBe(true)
    }
  })
})
