import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SCALING = fileURLToPath(new URL("../bench/scaling.mjs", import.meta.url))
const run = (args: ReadonlyArray<string>) => spawnSync(process.execPath, [SCALING, ...args], { encoding: "utf8", timeout: 20_000 })

describe("bench:scaling's command line", () => {
  it("--help prints the usage and exits 0, starting nothing", () => {
    const r = run(["--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^usage: npm run bench:scaling -- \[options\]/)
  })

  it("refuses an unknown flag, a bad count and a missing feed, naming each (exit 2)", () => {
    for (const [args, message] of [
      [["--replica", "2"], "bench:scaling: Unknown option '--replica'"],
      [["--replicas", "0"], 'bench:scaling: --replicas must be an integer >= 1, got "0"'],
      [["--feed", "/nonexistent/feed.ndjson"], "bench:scaling: --feed: no file /nonexistent/feed.ndjson"]
    ] as const) {
      const r = run(args)
      expect(r.status, r.stderr).toBe(2)
      expect(r.stderr.startsWith(message), r.stderr).toBe(true)
    }
  })
})
