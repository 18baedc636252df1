import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const bench = fileURLToPath(new URL("../bench/import.mjs", import.meta.url))
const run = (...args: ReadonlyArray<string>) => spawnSync(process.execPath, [bench, ...args], { encoding: "utf8" })

describe("bench:import's command line", () => {
  it("--help prints the usage and runs nothing", () => {
    const r = run("--help")
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run bench:import -- \[options\]/)
    expect(r.stdout).toContain("--previous PATH")
    expect(r.stdout).not.toContain("making ")
  })

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--trips", "0"], '--trips must be a positive integer, got "0"'],
    [["--trips", "ten"], '--trips must be a positive integer, got "ten"'],
    [["--keep", "maybe"], '--keep must be yes or no, got "maybe"'],
    [["--roads", "maybe"], '--roads must be on or off, got "maybe"'],
    [["--previous", "/nonexistent/index.js"], "--previous: no file /nonexistent/index.js"]
  ])("refuses %j with exit 2 before any work", (args, message) => {
    const r = run(...args)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stdout).toBe("")
  })
})
