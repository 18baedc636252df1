import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { REPO_ROOT } from "../src/config.js"
import { readCommandLine } from "../src/main.js"

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

  it("reads -h as help, no arguments as run, and rejects positionals", () => {
    expect(readCommandLine(["-h"])).toBe("help")
    expect(readCommandLine([])).toBe("run")
    expect(() => readCommandLine(["serve"])).toThrow(/serve/)
  })
})
