// Makes sure the Chromium the browser tests drive is on the machine (`npm test` runs this before
// vitest). Prints nothing when it is there. On Debian as root (CI, sessions) it installs Debian's
// `chromium` package; anywhere else it says what to install and fails, so that the browser tests
// never go missing unnoticed. TRIPSEARCH_CHROMIUM names another executable.
import { existsSync } from "node:fs"
import { ensurePackage } from "./aptInstall.mjs"

const executable = process.env.TRIPSEARCH_CHROMIUM ?? "/usr/bin/chromium"

ensurePackage({
  label: "chromium",
  pkg: "chromium",
  purpose: "the browser tests",
  present: () => existsSync(executable),
  missing: [
    `the browser tests need Chromium, not found at ${executable}.`,
    "On Debian or Ubuntu: apt-get install -y chromium (as root). Elsewhere: install Chromium and set",
    "TRIPSEARCH_CHROMIUM to its executable."
  ],
  notThere: `chromium is installed, but there is no ${executable}: is TRIPSEARCH_CHROMIUM right?`
})
