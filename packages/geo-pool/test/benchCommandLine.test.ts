import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const BENCH = fileURLToPath(new URL("../bench/bench.mjs", import.meta.url))
const BENCH_STORE = fileURLToPath(new URL("../../../.bench/geo-pool-7-424242.db", import.meta.url))

// Each flag names a store that no run uses, so "nothing started" shows as that store never created.
const bench = (args: ReadonlyArray<string>) => spawnSync(process.execPath, [BENCH, ...args], { encoding: "utf8", timeout: 20_000 })

describe("the matching benchmark's command line", () => {
  it("--help prints the usage and exits 0 without generating a store or starting a pool", () => {
    const r = bench(["--trips", "7", "--seed", "424242", "--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run bench -- \[--trips N\]/)
    expect(r.stderr).toBe("")
    expect(existsSync(BENCH_STORE)).toBe(false)
  })

  it("an unknown flag or a malformed number is a usage error (exit 2), not the default 1,000,000-trip run", () => {
    for (const [args, message] of [
      [["--trip", "7", "--seed", "424242"], "bench: Unknown option '--trip'"],
      [["--trips", "7e0", "--seed", "424242"], 'bench: --trips must be an integer >= 1, got "7e0"'],
      [["--trips", "7", "--seed", "424242", "extra"], "bench: Unexpected argument 'extra'"]
    ] as const) {
      const r = bench(args)
      expect(r.status).toBe(2)
      expect(r.stdout).toBe("")
      expect(r.stderr.startsWith(message)).toBe(true)
      expect(r.stderr).toContain("usage: npm run bench")
    }
    expect(existsSync(BENCH_STORE)).toBe(false)
  })
})
