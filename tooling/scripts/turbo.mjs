// Runs the workspace's turbo with telemetry off, for every root script (not only CI).
// With --quiet first, turbo's banner and summary are kept back: a build that succeeds prints at
// most one line (when it compiled something), and a failing one prints everything turbo said.
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"

const turbo = fileURLToPath(new URL("../../node_modules/.bin/turbo", import.meta.url))
const [first, ...rest] = process.argv.slice(2)
const quiet = first === "--quiet"
const args = quiet ? rest : process.argv.slice(2)

if (!existsSync(turbo)) {
  process.stderr.write(`turbo is not installed (${turbo}): run npm run setup\n`)
  process.exit(1)
}
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_PRINT_VERSION_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" }
const started = performance.now()
const child = spawn(turbo, args, { env, stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" })
const kept = []
if (quiet) {
  child.stdout.on("data", (chunk) => kept.push(chunk))
  child.stderr.on("data", (chunk) => kept.push(chunk))
}
child.on("error", (error) => {
  process.stderr.write(`cannot run turbo: ${error.message}\n`)
  process.exit(1)
})
child.on("close", (code) => {
  const output = Buffer.concat(kept).toString("utf8")
  if (code !== 0) {
    process.stderr.write(output)
    process.exit(code ?? 1)
  }
  if (quiet) {
    // "Cached:    3 cached, 8 total": only a build that compiled something has anything to say.
    const m = /Cached:\s+(\d+) cached, (\d+) total/.exec(output)
    if (m && Number(m[1]) < Number(m[2])) {
      const task = args.filter((a) => !a.startsWith("-")).slice(1).join(" ")
      process.stderr.write(`${task}: ${Number(m[2]) - Number(m[1])} of ${m[2]} packages compiled in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
    }
  }
})
