import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const STARTUP = fileURLToPath(new URL("../bench/startup.mjs", import.meta.url))
const run = (args: ReadonlyArray<string>) => spawnSync(process.execPath, [STARTUP, ...args], { encoding: "utf8", timeout: 20_000 })

describe("bench:startup's command line", () => {
  it("--help prints the usage and exits 0", () => {
    const r = run(["--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run bench:startup -- \[options\]/)
  })

  it("refuses an unknown flag, bad pool sizes and a store that bench:search has not made, naming each (exit 2)", () => {
    for (const [args, message] of [
      [["--thread", "2"], "bench:startup: Unknown option '--thread'"],
      [["--trips", "7", "--seed", "no-such-seed"], "bench:startup: no store at "],
      [["--threads", "2,zero"], 'bench:startup: --threads must list positive integers, got "2,zero"']
    ] as const) {
      const r = run(args)
      expect(r.status).toBe(2)
      expect(r.stderr.startsWith(message)).toBe(true)
    }
  })
})
