import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it, onTestFinished } from "vitest"
import { makeStore, sampleQueries, tempDir } from "./fixture.js"

const CLI = resolve(fileURLToPath(import.meta.url), "../../dist/main.js")

it("SIGINT mid-run prints the partial report and exits 130", async () => {
  expect(existsSync(CLI), `build the replay first (npx tsc -p apps/replay): ${CLI}`).toBe(true)
  const tmp = tempDir()
  onTestFinished(() => tmp.remove())
  const store = await makeStore(tmp.dir, "a", 200, Date.now())
  const log = join(tmp.dir, "paths.txt")
  const queries = sampleQueries(store.lines)
  writeFileSync(log, `${queries.join("\n")}\n`)

  const child = spawn(process.execPath, [CLI, log, "--target", "core", "--db", store.dbPath, "--rate", "10", "--json", join(tmp.dir, "r.json")], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
  const started = new Promise<void>((resolveStarted) =>
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString()
      if (stderr.includes("queries from")) resolveStarted()
    })
  )
  const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)))
  await started
  await new Promise((r) => setTimeout(r, 1_000)) // about 10 queries at 10/s
  child.kill("SIGINT")
  const code = await exited

  expect(code).toBe(130)
  expect(stderr).toContain("SIGINT: no new queries")
  expect(stdout).toMatch(/INTERRUPTED: SIGINT; partial report/)
  const done = Number(/ (\d+) of (\d+) queries in /.exec(stdout)?.[1])
  expect(done).toBeGreaterThan(0)
  expect(done).toBeLessThan(queries.length)
  expect(stdout).toMatch(/latency ms \(nearest rank\): p50/)
}, 60_000)
