// Makes sure the Chromium the browser tests drive is on the machine (`npm test` runs this before
// vitest). Prints nothing when it is there. On Debian as root (CI, sessions) it installs Debian's
// `chromium` package; anywhere else it says what to install and fails, so that the browser tests
// never go missing unnoticed. TRIPSEARCH_CHROMIUM names another executable.
import { existsSync } from "node:fs"
import { aptAvailable, aptInstall } from "./aptInstall.mjs"

const executable = process.env.TRIPSEARCH_CHROMIUM ?? "/usr/bin/chromium"
const say = (line) => process.stderr.write(`chromium: ${line}\n`)

if (existsSync(executable)) process.exit(0)

const canApt = aptAvailable()
if (!canApt) {
  say(`the browser tests need Chromium, not found at ${executable}.`)
  say("On Debian or Ubuntu: apt-get install -y chromium (as root). Elsewhere: install Chromium and set")
  say("TRIPSEARCH_CHROMIUM to its executable.")
  process.exit(1)
}

say("installing chromium from Debian's packages (apt-get), for the browser tests")
const started = performance.now()
if (!aptInstall("chromium", say)) process.exit(1)
if (!existsSync(executable)) {
  say(`chromium is installed, but there is no ${executable}: is TRIPSEARCH_CHROMIUM right?`)
  process.exit(1)
}
say(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
