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

/**
 * What each set-up script does for the Debian package its tests need, `label` prefixing its lines:
 * nothing when `present()`; as root on Debian, `install(say)` (by default `aptInstall(pkg)`), then
 * `notThere` if it is still missing; anywhere else the `missing` lines, which say what to install.
 * Exits 1 on any failure, so that the tests needing it never go missing unnoticed.
 */
export const ensurePackage = ({ label, pkg, purpose, present, missing, notThere, install = (say) => aptInstall(pkg, say) }) => {
  const say = (line) => process.stderr.write(`${label}: ${line}\n`)
  if (present()) return
  if (!aptAvailable()) {
    for (const line of missing) say(line)
    process.exit(1)
  }
  say(`installing ${pkg} from Debian's packages (apt-get), for ${purpose}`)
  const started = performance.now()
  if (!install(say)) process.exit(1)
  if (!present()) {
    say(notThere)
    process.exit(1)
  }
  say(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
}
