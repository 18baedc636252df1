import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer as createHttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { createKey, openDatabase, revokeKey } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"
import { fakeKey, fuzzRequest } from "../src/fuzz/fuzzRequest.js"
import { countSecrets, formatSummary, runFuzz, violationCount } from "../src/fuzz/runFuzz.js"

/**
 * A short run of the fuzz command's loop (`npm run fuzz`) against the real server (worker pool,
 * SQLite store, gazetteer, query log): no 5xx, every body well-formed, no key echoed, and no key in
 * the request log or the query log.
 */

describe("fuzzing the real server", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-fuzz-"))
  const dbPath = join(dir, "trips.db")
  const queryLogPath = join(dir, "query-log.ndjson")
  const logLines: Array<string> = []
  const seed = Date.now() % 1_000_000
  const invalid = Array.from({ length: 4 }, (_, i) => fakeKey(seed, i))
  let valid: Array<string>
  let api: ApiServer
  let url: string

  beforeAll(async () => {
    await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 300, nowMs: Date.now() })
    const db = openDatabase(dbPath)
    valid = [createKey(db, { name: "fuzz", tier: "production", dailyLimit: 1_000_000 }).key]
    const revoked = createKey(db, { name: "revoked", tier: "production", dailyLimit: 1_000_000 })
    revokeKey(db, revoked.id)
    invalid.push(revoked.key)
    db.close()
    const logger = { info: (line: unknown) => void logLines.push(JSON.stringify(line)), error: (line: unknown) => void logLines.push(JSON.stringify(line)) }
    api = await createServer({
      config: { dbPath, publicBaseUrl: "https://api.fuzz.test", websiteBaseUrl: "https://www.fuzz.test", queryLogPath, productionDailyLimit: undefined, matcherThreads: 1 },
      logger
    })
    url = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("draws the same requests from the same seed, and keys in many shapes", () => {
    const keys = { valid: ["V".repeat(32)], invalid: ["I".repeat(32)] }
    const first = Array.from({ length: 300 }, (_, i) => fuzzRequest(7, i, keys))
    expect(Array.from({ length: 300 }, (_, i) => fuzzRequest(7, i, keys))).toEqual(first)
    expect(fuzzRequest(8, 0, keys)).not.toEqual(first[0])
    const wire = first.map((r) => `${r.method} ${r.target} ${r.headers.map(([n, v]) => `${n}: ${v}`).join(" ")}`)
    expect(wire.filter((w) => /[?&]key=V{32}/.test(w)).length).toBeGreaterThan(10)
    expect(wire.filter((w) => / key: V{32}/.test(w)).length).toBeGreaterThan(30)
    expect(wire.filter((w) => /[?&;](?!key=)[^&=]*=[VI]{32}/.test(w)).length).toBeGreaterThan(10)
    expect(first.filter((r) => r.raw).length).toBeGreaterThan(5)
    expect(new Set(first.map((r) => r.method)).size).toBeGreaterThan(5)
  })

  it("answers a few hundred fuzzed requests without a 5xx, a malformed body, a key echoed or logged", async () => {
    const summary = await runFuzz({ url, requests: 600, seed, concurrency: 4, keys: { valid, invalid }, maxLatencyMs: 10_000 })
    const report = formatSummary(summary).join("\n")
    expect(violationCount(summary), `seed ${seed}\n${report}`).toBe(0)
    expect(summary.requests).toBe(600)
    // The run reached the searches and the guards in front of them.
    for (const status of [200, 400, 401, 403, 404, 405]) expect(summary.statuses.get(status) ?? 0, `status ${status}\n${report}`).toBeGreaterThan(0)
    expect((await fetch(`${url}/health`)).status).toBe(200)

    await api.close()
    const queryLog = readFileSync(queryLogPath, "utf8")
    expect(queryLog.split("\n").length).toBeGreaterThan(200)
    expect(logLines.length).toBeGreaterThanOrEqual(600)
    expect(countSecrets(queryLog, [...valid, ...invalid])).toBe(0)
    expect(countSecrets(logLines.join("\n"), [...valid, ...invalid])).toBe(0)
  }, 120_000)
})

describe("npm run fuzz (the command)", () => {
  const FUZZ = fileURLToPath(new URL("../bench/fuzz.mjs", import.meta.url))
  const run = (args: ReadonlyArray<string>): Promise<{ code: number | null; out: string }> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [FUZZ, ...args], { stdio: ["ignore", "pipe", "pipe"] })
      let out = ""
      child.stdout.on("data", (c: Buffer) => (out += c.toString()))
      child.stderr.on("data", (c: Buffer) => (out += c.toString()))
      child.on("exit", (code) => resolve({ code, out }))
    })

  it("prints its usage on --help and refuses an unknown flag", async () => {
    const help = await run(["--help"])
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^Usage: npm run fuzz -- \[options\]/)
    expect(help.out).toContain("--requests N")
    const unknown = await run(["--nope"])
    expect(unknown.code).toBe(2)
    expect(unknown.out).toMatch(/^fuzz: .*--nope/)
  })

  it("exits 1 and names the violations when a server answers 5xx with a body that is not JSON", async () => {
    const broken = createHttpServer((_req, res) => {
      res.writeHead(500, { "Content-Type": "application/json" })
      res.end("{oops")
    })
    await new Promise<void>((resolve) => broken.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = broken.address() as AddressInfo
      const result = await run(["--url", `http://127.0.0.1:${port}`, "--requests", "30", "--seed", "3"])
      expect(result.code, result.out).toBe(1)
      expect(result.out).toMatch(/violations: \d+ \(5xx [1-9]\d*, malformed bodies [1-9]\d*/)
      expect(result.out).toContain("FAILED (reproduce with --seed 3)")
    } finally {
      broken.closeAllConnections()
      await new Promise((resolve) => broken.close(resolve))
    }
  }, 30_000)
})
