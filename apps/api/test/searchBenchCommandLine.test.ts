import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const bench = fileURLToPath(new URL("../bench/search.mjs", import.meta.url))
const run = (...args: ReadonlyArray<string>) => spawnSync(process.execPath, [bench, ...args], { encoding: "utf8" })

describe("bench:search's command line", () => {
  it("--help prints the usage with the three mixes and runs nothing", () => {
    const r = run("--help")
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run bench:search -- \[options\]/)
    for (const mix of ["heavy (default)", "wide:", "dense:"]) expect(r.stdout).toContain(mix)
    expect(r.stdout).not.toContain("making ")
  })

  it.each([
    [["--bogus"], "Unknown option '--bogus'"],
    [["--mix", "light"], '--mix must be heavy, wide or dense, got "light"'],
    [["--trips", "0"], '--trips must be a positive integer, got "0"'],
    [["--roads", "maybe"], '--roads must be on or off, got "maybe"'],
    [["--http", "maybe"], '--http must be yes or no, got "maybe"']
  ])("refuses %j with exit 2 before any work", (args, message) => {
    const r = run(...args)
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(message)
    expect(r.stdout).toBe("")
  })
})
