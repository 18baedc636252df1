// One Debian package installed with apt-get, for the set-up scripts of the tests' system tools.
import { spawnSync } from "node:child_process"

const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
const apt = (...args) => spawnSync("apt-get", args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })

/** Whether this process may install Debian packages: Linux, root, apt-get present. */
export const aptAvailable = () => process.platform === "linux" && process.getuid?.() === 0 && spawnSync("apt-get", ["--version"], { stdio: "ignore" }).status === 0

/**
 * Installs `pkg` (with `options` before it, e.g. dpkg's), non-interactively, reading the package
 * lists first only when the install fails (a fresh machine has none yet). True when it is
 * installed; else apt-get's output goes to stderr, `say` says so, and it answers false.
 */
export const aptInstall = (pkg, say, options = []) => {
  let install = apt("install", "-y", "--no-install-recommends", ...options, pkg)
  if (install.status !== 0) {
    const update = apt("update")
    if (update.status !== 0) process.stderr.write(update.stdout + update.stderr)
    install = apt("install", "-y", "--no-install-recommends", ...options, pkg)
  }
  if (install.status === 0) return true
  process.stderr.write(install.stdout + install.stderr)
  say(`apt-get install ${pkg} failed (exit ${install.status}); its output is above.`)
  return false
}
