import { spawn } from "node:child_process"

/**
 * Starts `node args...` with `env` added, and resolves with the first match of `ready` in its
 * output (the server says it listens on stderr and logs requests on stdout: both are read and kept
 * drained), the time from spawn to that line and everything it printed until then (`output`).
 */
export const startChild = (args, env, ready) =>
  new Promise((resolvePromise, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
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
