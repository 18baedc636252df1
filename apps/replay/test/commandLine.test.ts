import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { afterEach, beforeEach, expect, it } from "vitest"

const CLI = resolve(fileURLToPath(import.meta.url), "../../dist/main.js")
let dir = ""
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tripsearch-replay-args-"))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const replay = (args: ReadonlyArray<string>) => spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd: dir, timeout: 20_000 })

it("--help prints the usage and exits 0 without reading the log or opening a store", () => {
  const r = replay(["log.ndjson", "--target", "core", "--db", join(dir, "trips.db"), "--json", join(dir, "r.json"), "--help"])
  expect(r.status).toBe(0)
  expect(r.stdout).toMatch(/^usage: tripsearch-replay LOG \[options\]/)
  expect(r.stderr).toBe("")
  expect(readdirSync(dir)).toEqual([])
})

it("an unknown flag is a short usage error with exit 2, not a stack trace", () => {
  const r = replay(["log.ndjson", "--target", "core", "--db", join(dir, "trips.db"), "--bogus"])
  expect(r.status).toBe(2)
  expect(r.stdout).toBe("")
  expect(r.stderr).toMatch(/^tripsearch-replay: Unknown option '--bogus'/)
  expect(r.stderr).toContain("(tripsearch-replay --help for the usage)")
  expect(r.stderr).not.toMatch(/\n\s+at /)
  expect(readdirSync(dir)).toEqual([])
})

it("a --json report that cannot be written is refused before the replay starts, exit 2", () => {
  const log = join(dir, "log.ndjson")
  writeFileSync(log, `${JSON.stringify({ path: "/api/v2/trips", query: "locale=fr_FR&cur=EUR&fn=Paris" })}\n`)
  const r = replay([log, "--target", "http://127.0.0.1:9", "--key", "k", "--json", join(dir, "no-such-folder", "r.json")])
  expect(r.status).toBe(2)
  expect(r.stderr).toMatch(/^tripsearch-replay: --json .*no-such-folder\/r\.json: cannot write there/)
  expect(r.stdout).toBe("")
})
