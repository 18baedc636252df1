import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

interface Ran {
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * `apps/api/bench/NAME.mjs` run to its end, asynchronously: a bench's refusals run side by side
 * (each is a Node start), and the test's thread stays free meanwhile.
 */
const run = (name: string, args: ReadonlyArray<string>): Promise<Ran> =>
  new Promise((resolve) =>
    execFile(process.execPath, [fileURLToPath(new URL(`../bench/${name}.mjs`, import.meta.url)), ...args], { encoding: "utf8", timeout: 20_000 }, (error, stdout, stderr) =>
      resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })
    )
  )

/**
 * Each bench's command line: what its --help must say, and the refusals it must make (exit 2, on
 * stderr its name and the message, nothing on stdout) before it generates, imports or starts
 * anything; none of them prints "making " (a feed or store being generated).
 */
const BENCHES: ReadonlyArray<{ readonly name: string; readonly help: ReadonlyArray<string>; readonly refusals: ReadonlyArray<readonly [ReadonlyArray<string>, string]> }> = [
  {
    name: "import",
    help: ["--previous PATH"],
    refusals: [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--trips", "0"], '--trips must be a positive integer, got "0"'],
      [["--trips", "ten"], '--trips must be a positive integer, got "ten"'],
      [["--keep", "maybe"], '--keep must be yes or no, got "maybe"'],
      [["--roads", "maybe"], '--roads must be on or off, got "maybe"'],
      [["--previous", "/nonexistent/index.js"], "--previous: no file /nonexistent/index.js"]
    ]
  },
  {
    name: "search",
    help: ["heavy (default)", "wide:", "dense:"],
    refusals: [
      [["--bogus"], "Unknown option '--bogus'"],
      [["--mix", "light"], '--mix must be heavy, wide or dense, got "light"'],
      [["--trips", "0"], '--trips must be a positive integer, got "0"'],
      [["--roads", "maybe"], '--roads must be on or off, got "maybe"'],
      [["--http", "maybe"], '--http must be yes or no, got "maybe"']
    ]
  },
  {
    name: "alternate",
    help: ["--previous DIR", "--pairs P"],
    refusals: [
      [["--bogus"], "Unknown option '--bogus'"],
      [[], "--previous DIR is required"],
      [["--previous", "/nonexistent/checkout", "--mix", "light"], '--mix must be heavy, wide or dense, got "light"'],
      [["--previous", "/nonexistent/checkout", "--pairs", "0"], '--pairs must be a whole number from 1 to 20, got "0"'],
      [["--previous", "/nonexistent/checkout", "--trips", "ten"], '--trips must be a positive integer, got "ten"'],
      [["--previous", "/nonexistent/checkout"], "no built checkout at /nonexistent/checkout"]
    ]
  },
  {
    name: "overload",
    help: ["--saturation C", "--baseline DIR"],
    refusals: [
      [["--saturaton", "8"], "Unknown option '--saturaton'"],
      [["--saturation", "0"], '--saturation must be a positive integer, got "0"'],
      [["--multipliers", "1,x"], '--multipliers must be positive integers separated by commas, got "1,x"'],
      [["--db", "/nonexistent/store.db"], "no store at /nonexistent/store.db"],
      [["--baseline", "/nonexistent/checkout"], "no built server at /nonexistent/checkout/apps/api/dist/main.js"]
    ]
  },
  {
    name: "scaling",
    help: ["--replicas"],
    refusals: [
      [["--replica", "2"], "Unknown option '--replica'"],
      [["--replicas", "0"], '--replicas must be an integer >= 1, got "0"'],
      [["--feed", "/nonexistent/feed.ndjson"], "--feed: no file /nonexistent/feed.ndjson"]
    ]
  },
  {
    name: "startup",
    help: ["--threads"],
    refusals: [
      [["--thread", "2"], "Unknown option '--thread'"],
      [["--trips", "7", "--seed", "no-such-seed"], "no store at "],
      [["--threads", "2,zero"], '--threads must list positive integers, got "2,zero"']
    ]
  }
]

describe.each(BENCHES.map((bench) => [bench.name, bench] as const))("bench:%s's command line", (name, { help, refusals }) => {
  it("--help prints the usage and exits 0, starting nothing", async () => {
    const r = await run(name, ["--help"])
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^usage: npm run bench:${name} -- \\[options\\]`, "i"))
    for (const text of help) expect(r.stdout).toContain(text)
    expect(r.stdout).not.toContain("making ")
  })

  it.concurrent.each(refusals)("refuses %j with exit 2 before any work", async (args, message) => {
    const r = await run(name, args)
    expect(r.status, r.stderr).toBe(2)
    expect(r.stderr.startsWith(`bench:${name}: ${message}`), r.stderr).toBe(true)
    expect(r.stdout).toBe("")
  })
})

/** The repository's scripts that rewrite files or drive a browser: `--help` and a bad flag do neither. */
describe("docs:api, docs:screenshots and lighthouse take --help and refuse an unknown flag, doing nothing else", () => {
  const script = (path: string, args: ReadonlyArray<string>): Promise<Ran> =>
    new Promise((resolve) =>
      execFile(process.execPath, [fileURLToPath(new URL(path, import.meta.url)), ...args], { encoding: "utf8", timeout: 20_000 }, (error, stdout, stderr) =>
        resolve({ status: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr })
      )
    )
  for (const [path, name] of [
    ["../../../tooling/scripts/docs-api.mjs", "docs-api"],
    ["../scripts/docs-screenshots.mjs", "docs-screenshots"],
    ["../scripts/lighthouse.mjs", "lighthouse"]
  ] as const) {
    it(name, async () => {
      const help = await script(path, ["--help"])
      expect(help).toMatchObject({ status: 0, stderr: "" })
      expect(help.stdout).toMatch(/^usage: npm run /)
      const bad = await script(path, ["--bogus"])
      expect(bad.status).toBe(2)
      expect(bad.stdout).toBe("")
      expect(bad.stderr).toMatch(new RegExp(`^${name}: Unknown option '--bogus'`))
    })
  }
})
