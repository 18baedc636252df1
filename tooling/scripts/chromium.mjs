// Makes sure the Chromium the browser tests drive is on the machine (`npm test` runs this before
// vitest). Prints nothing when it is there. On Debian as root (CI, sessions) it installs Debian's
// `chromium` package; anywhere else it says what to install and fails, so that the browser tests
// never go missing unnoticed. TRIPSEARCH_CHROMIUM names another executable.
import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"

const executable = process.env.TRIPSEARCH_CHROMIUM ?? "/usr/bin/chromium"
const say = (line) => process.stderr.write(`chromium: ${line}\n`)

if (existsSync(executable)) process.exit(0)

const canApt = process.platform === "linux" && process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0
if (!canApt) {
  say(`the browser tests need Chromium, not found at ${executable}.`)
  say("On Debian or Ubuntu: apt-get install -y chromium (as root). Elsewhere: install Chromium and set")
  say("TRIPSEARCH_CHROMIUM to its executable.")
  process.exit(1)
}

const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
const apt = (...args) => spawnSync("apt-get", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
say("installing chromium from Debian's packages (apt-get), for the browser tests")
const started = performance.now()
let install = apt("install", "-y", "--no-install-recommends", "chromium")
if (install.status !== 0) {
  // A fresh machine has no package lists yet.
  const update = apt("update")
  if (update.status !== 0) process.stderr.write(update.stdout + update.stderr)
  install = apt("install", "-y", "--no-install-recommends", "chromium")
}
if (install.status !== 0) {
  process.stderr.write(install.stdout + install.stderr)
  say(`apt-get install chromium failed (exit ${install.status}); its output is above.`)
  process.exit(1)
}
if (!existsSync(executable)) {
  say(`chromium is installed, but there is no ${executable}: is TRIPSEARCH_CHROMIUM right?`)
  process.exit(1)
}
say(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
