import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const FUZZ = fileURLToPath(new URL("../bench/fuzz.mjs", import.meta.url))

/** The processes whose parent is `pid` (Linux's /proc). */
const childrenOf = (pid: number): Array<number> =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8")
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid
      } catch {
        return false // gone meanwhile
      }
    })
    .map(Number)

/** Whether `pid` still runs (a zombie, waiting for a parent to read its status, does not). */
const running = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
  } catch {
    return false
  }
}

const until = async (what: string, ready: () => boolean, bench: ChildProcess, output: () => string): Promise<void> => {
  for (const end = Date.now() + 60_000; !ready(); await new Promise((r) => setTimeout(r, 50))) {
    if (bench.exitCode !== null) throw new Error(`the bench exited with ${bench.exitCode} before ${what}:\n${output()}`)
    if (Date.now() > end) throw new Error(`no ${what} within 60 s:\n${output()}`)
  }
}

/**
 * `npm run fuzz` on a tiny store, its temporary folder made under a folder of the test's own
 * (TMPDIR), stopped by `signal` once that folder exists and, with `withChild`, once it has started
 * its server: what the bench leaves, and its exit. `onFinished` gets what kills and removes what a
 * failing run left.
 */
const stopFuzz = async (signal: NodeJS.Signals, withChild: boolean, onFinished: (cleanUp: () => void) => void) => {
  const tmp = mkdtempSync(join(tmpdir(), "tripsearch-bench-stop-"))
  // No matcher thread to start: the server is only there to be stopped.
  const bench = spawn(process.execPath, [FUZZ, "--trips", "5", "--requests", "100000000"], {
    env: { ...process.env, TMPDIR: tmp, MATCHER_THREADS: "0" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let children: Array<number> = []
  onFinished(() => {
    if (bench.exitCode === null && bench.signalCode === null) bench.kill("SIGKILL")
    for (const pid of children) {
      try {
        if (running(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("apps/api/dist/main.js")) process.kill(pid, "SIGKILL")
      } catch {
        // gone meanwhile
      }
    }
    rmSync(tmp, { recursive: true, force: true })
  })
  let output = ""
  bench.stdout.on("data", (c: Buffer) => (output += c.toString()))
  bench.stderr.on("data", (c: Buffer) => (output += c.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => bench.once("exit", (code, signal) => resolve({ code, signal })))

  await until("temporary folder", () => readdirSync(tmp).length > 0, bench, () => output)
  const folder = join(tmp, readdirSync(tmp)[0]!)
  expect(folder).toMatch(/tripsearch-fuzz-/)
  if (withChild) await until("server started", () => (children = childrenOf(bench.pid!)).length > 0, bench, () => output)
  bench.kill(signal)
  const exit = await Promise.race([exited, new Promise<undefined>((r) => setTimeout(r, 20_000))])
  return { exit, output, tmp, folder, children }
}

// Side by side: most of each is the bench making its store, which does not yield to the signal.
describe.concurrent("a bench stopped by a signal", () => {
  it("SIGTERM once its server is started: the server is stopped, the temporary folder removed, exit 143", async ({ expect, onTestFinished }) => {
    const { exit, output, folder, children } = await stopFuzz("SIGTERM", true, onTestFinished)
    expect(exit, `the exit after SIGTERM (undefined: none within 20 s):\n${output}`).toEqual({ code: 143, signal: null })
    expect(children.length).toBeGreaterThan(0)
    expect(children.filter(running), output).toEqual([])
    expect(existsSync(folder), output).toBe(false)
    expect(output).toContain("SIGTERM: stopping 1 child process(es), removing 1 temporary folder(s)")
  }, 90_000)

  it("SIGINT (Ctrl-C) while it makes its store: the temporary folder removed, exit 130", async ({ expect, onTestFinished }) => {
    const { exit, output, tmp, folder } = await stopFuzz("SIGINT", false, onTestFinished)
    expect(exit, `the exit after SIGINT (undefined: none within 20 s):\n${output}`).toEqual({ code: 130, signal: null })
    expect(existsSync(folder), output).toBe(false)
    expect(readdirSync(tmp)).toEqual([])
  }, 90_000)
})
