import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const OVERLOAD = fileURLToPath(new URL("../bench/overload.mjs", import.meta.url))
const run = (args: ReadonlyArray<string>) => spawnSync(process.execPath, [OVERLOAD, ...args], { encoding: "utf8", timeout: 20_000 })

describe("bench:overload's command line", () => {
  it("--help prints the usage and exits 0, starting nothing", () => {
    const r = run(["--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^Usage: npm run bench:overload -- \[options\]/)
    expect(r.stdout).toContain("--saturation C")
    expect(r.stdout).toContain("--baseline DIR")
  })

  it("refuses an unknown flag, a bad number, bad multipliers and a missing store, naming each (exit 2)", () => {
    for (const [args, message] of [
      [["--saturaton", "8"], "bench:overload: Unknown option '--saturaton'"],
      [["--saturation", "0"], 'bench:overload: --saturation must be a positive integer, got "0"'],
      [["--multipliers", "1,x"], 'bench:overload: --multipliers must be positive integers separated by commas, got "1,x"'],
      [["--db", "/nonexistent/store.db"], "bench:overload: no store at /nonexistent/store.db"],
      [["--baseline", "/nonexistent/checkout"], "bench:overload: no built server at /nonexistent/checkout/apps/api/dist/main.js"]
    ] as const) {
      const r = run(args)
      expect(r.status).toBe(2)
      expect(r.stderr.startsWith(message)).toBe(true)
    }
  })
})
