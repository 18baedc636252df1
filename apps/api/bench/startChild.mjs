import { spawn } from "node:child_process"
import { ownChild } from "./stopOnSignal.mjs"

/**
 * What `npm start` sets for the server, so that a benchmark measures the server as it is run:
 * glibc's mmap threshold fixed at its default (README, Configuration). Left dynamic, glibc raises
 * it as the index's columns grow during a scan of the store, and a server that scanned 1M trips
 * then holds 100-200 MB more (bench:startup prints both).
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: "131072" }

/**
 * Starts `node args...` with `env` added, and resolves with the first match of `ready` in its
 * output (the server says it listens on stderr and logs requests on stdout: both are read and kept
 * drained), the time from spawn to that line and everything it printed until then (`output`).
 * The child's environment is `SERVER_ENV`, then this process's, then `env` (a key whose value is
 * `undefined` is left out). The child is stopped when the bench gets SIGINT or SIGTERM (`ownChild`).
 */
export const startChild = (args, env, ready) =>
  new Promise((resolvePromise, reject) => {
    const t0 = performance.now()
    const child = ownChild(spawn(process.execPath, args, { env: { ...SERVER_ENV, ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] }))
    let buffer = ""
    let found = false
    const watch = (chunk) => {
      if (found) return
      buffer += chunk
      const m = ready.exec(buffer)
      if (m) {
        found = true
        resolvePromise({ child, match: m, ms: performance.now() - t0, output: buffer })
      }
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.on("exit", (code) => found || reject(new Error(`${args[0]} exited with ${code} before it was ready:\n${buffer.slice(-2000)}`)))
  })
