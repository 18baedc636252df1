import { mkdtempSync, rmSync } from "node:fs"
import { constants, tmpdir } from "node:os"
import { join } from "node:path"

// What a bench leaves behind unless it runs to its end: the processes it started (servers, load
// generators, imports), what else it runs (a PostgreSQL cluster, HAProxy) and its temporary
// folders. On SIGINT (Ctrl-C) or SIGTERM they are stopped and removed, then the bench exits
// 128 + the signal's number, as the signal would have ended it. Nothing is watched until a bench
// registers something here.

/** How long a child has to exit after SIGTERM before it gets SIGKILL. */
const GRACE_MS = 5_000

const folders = new Set()
const children = new Set()
const stops = []
let watching = false
let stopping = false

/** A new folder under the system's temporary folder (`mkdtemp` with `prefix`), removed on SIGINT/SIGTERM. */
export const temporaryFolder = (prefix) => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  folders.add(dir)
  watch()
  return dir
}

/** `child` (returned), sent SIGTERM on SIGINT/SIGTERM, and SIGKILL when it has not exited `GRACE_MS` later. */
export const ownChild = (child) => {
  children.add(child)
  child.once("exit", () => children.delete(child))
  watch()
  return child
}

/** `stop` (it may return a promise) runs on SIGINT/SIGTERM once the children have exited; the last registered runs first. */
export const atStop = (stop) => {
  stops.push(stop)
  watch()
}

const watch = () => {
  if (watching) return
  watching = true
  process.on("SIGINT", onSignal)
  process.on("SIGTERM", onSignal)
}

const removeFolders = () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true })
}

const stopChild = (child) =>
  new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done()
    const timer = setTimeout(() => child.kill("SIGKILL"), GRACE_MS)
    child.once("exit", () => {
      clearTimeout(timer)
      done()
    })
    // A child in the terminal's process group got the Ctrl-C too: this second signal may stop it at
    // once (the server exits on a second signal), which costs a bench nothing.
    child.kill("SIGTERM")
  })

const onSignal = (signal) => {
  const status = 128 + constants.signals[signal]
  if (stopping) {
    // A second Ctrl-C: no more waiting (the exit listener kills what is left and removes the folders).
    process.exit(status)
  }
  stopping = true
  process.stderr.write(`${signal}: stopping ${children.size} child process(es)${stops.length > 0 ? ` and ${stops.length} service(s)` : ""}, removing ${folders.size} temporary folder(s)\n`)
  // The bench's own flow goes on meanwhile and fails as its children go: those errors are not news.
  // If it reaches an exit of its own first, the exit still reports the signal, and leaves nothing.
  process.on("uncaughtException", () => {})
  process.on("unhandledRejection", () => {})
  process.on("exit", () => {
    for (const child of children) child.kill("SIGKILL")
    removeFolders()
    process.exitCode = status
  })
  void Promise.all([...children].map(stopChild)).then(async () => {
    for (const stop of stops.reverse()) {
      try {
        await stop()
      } catch (error) {
        process.stderr.write(`${signal}: ${error instanceof Error ? error.message : String(error)}\n`)
      }
    }
    process.exit(status)
  })
}
