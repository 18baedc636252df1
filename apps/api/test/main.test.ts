import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { loadConfig, REPO_ROOT } from "../src/config.js"
import { ensureDataset } from "../src/ensureDataset.js"
import { readCommandLine, USAGE } from "../src/main.js"

const mainJs = resolve(REPO_ROOT, "apps/api/dist/main.js")
let dir = ""
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tripsearch-main-args-"))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The built server with its store and query log pointed into the test's empty folder. */
const runMain = (args: ReadonlyArray<string>) => {
  expect(existsSync(mainJs), "build apps/api first (npx tsc -p apps/api)").toBe(true)
  return spawnSync(process.execPath, [mainJs, ...args], {
    encoding: "utf8",
    timeout: 20_000,
    env: { ...process.env, PORT: "0", TRIPSEARCH_DB: join(dir, "trips.db"), QUERY_LOG: join(dir, "log.ndjson"), SEED_TRIPS: "10" }
  })
}

describe("the server's command line", () => {
  it("--help and the README's configuration table name every variable the configuration reads", () => {
    const read = new Set<string>()
    loadConfig(new Proxy({}, { get: (_, name) => (typeof name === "string" && read.add(name), undefined) }))
    expect(read.size).toBeGreaterThanOrEqual(20)
    const readme = readFileSync(resolve(REPO_ROOT, "README.md"), "utf8")
    for (const name of read) {
      expect(USAGE, name).toMatch(new RegExp(`^  ${name} `, "m"))
      expect(readme, name).toContain(`| \`${name}\` |`)
    }
  })

  it("--help prints the usage and exits 0 without starting, generating or listening", () => {
    const r = runMain(["--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: tripsearch-api \[--help\]/)
    expect(r.stdout).toContain("TRIPSEARCH_DB")
    expect(r.stderr).toBe("")
    expect(readdirSync(dir)).toEqual([])
  })

  it("refuses an unknown argument with a short message and exit 2, starting nothing", () => {
    const r = runMain(["--port", "8080"])
    expect(r.status).toBe(2)
    expect(r.stdout).toBe("")
    expect(r.stderr).toMatch(/^tripsearch-api: Unknown option '--port'/)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(readdirSync(dir)).toEqual([])
  })

  it("refuses to start on a SQLite store in a folder that does not exist: one message, exit 1, nothing created", () => {
    const missing = join(dir, "typo", "data")
    const r = spawnSync(process.execPath, [mainJs], {
      encoding: "utf8",
      timeout: 20_000,
      env: { ...process.env, PORT: "0", TRIPSEARCH_DB: join(missing, "trips.db"), QUERY_LOG: join(dir, "log.ndjson"), SEED_TRIPS: "10" }
    })
    expect(r.status, r.stderr).toBe(1)
    expect(r.stderr).toBe(
      `Invalid configuration:\n  - TRIPSEARCH_DB "${join(missing, "trips.db")}" is in a folder that does not exist, ${missing}: create it (mkdir -p ${missing}) or give a path in an existing folder\n`
    )
    expect(readdirSync(dir)).toEqual([])
  })

  it("reads -h as help, no arguments as run, and rejects positionals", () => {
    expect(readCommandLine(["-h"])).toBe("help")
    expect(readCommandLine([])).toBe("run")
    expect(() => readCommandLine(["serve"])).toThrow(/serve/)
  })
})

describe("npm start on a default data set running out", () => {
  it("says so in one line, builds a new one and prints the same demo key", async () => {
    const db = join(dir, "trips.db")
    // A default data set made 40 days ago: its trips (30 days from then) are all gone.
    const made = await ensureDataset({ dbPath: db, demoKeyPath: join(dir, "demo-key.json"), trips: 10, nowMs: Date.now() - 40 * 86_400_000 })
    const child = spawn(process.execPath, [mainJs], {
      env: { ...process.env, PORT: "0", TRIPSEARCH_DB: db, QUERY_LOG: "off", SEED_TRIPS: "12", MATCHER_THREADS: "0", METRICS: "off" }
    })
    let stderr = ""
    child.stderr.setEncoding("utf8")
    await new Promise<void>((resolveStarted, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start in 60 s:\n${stderr}`)), 60_000)
      child.stderr.on("data", (chunk: string) => {
        stderr += chunk
        if (/demo API key/.test(stderr)) {
          clearTimeout(timer)
          resolveStarted()
        }
      })
      child.on("exit", (code) => reject(new Error(`exited ${code}:\n${stderr}`)))
    })
    const exited = new Promise((done) => child.once("exit", done))
    child.kill("SIGTERM")
    await exited
    const lines = stderr.split("\n")
    const told = lines.filter((l) => l.includes("default data set"))
    expect(told, stderr).toHaveLength(1)
    expect(told[0]).toMatch(/^the default data set runs out on \d{4}-\d{2}-\d{2} \(fewer than 7 days of trips left\): generating a new one of 12 trips into .*trips\.db; the demo key stays the same$/)
    expect(stderr).not.toContain("first start")
    expect(stderr).toContain(made.demoKey!.key)
  }, 90_000)
})
