// Makes sure HAProxy, which the tests and bench:scaling put in front of API replicas, is on the
// machine (`npm test` runs this before vitest). Prints nothing when it is there. On Debian as root
// (CI, sessions) it installs Debian's haproxy package, without starting the service the package
// would otherwise start: the tests run their own. Anywhere else it says what to install and fails,
// so that the load balancer's test never goes missing unnoticed.
import { spawnSync } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { aptInstall, ensurePackage } from "./aptInstall.mjs"

const bin = process.env.TRIPSEARCH_HAPROXY ?? "/usr/sbin/haproxy"

ensurePackage({
  label: "haproxy",
  pkg: "haproxy",
  purpose: "the tests' load balancer",
  present: () => existsSync(bin),
  missing: [
    `the tests need HAProxy, not found at ${bin}.`,
    "On Debian or Ubuntu: apt-get install -y haproxy (as root). Elsewhere: install HAProxy 2.x and set",
    "TRIPSEARCH_HAPROXY to its program."
  ],
  notThere: `haproxy is installed, but ${bin} is not there: is TRIPSEARCH_HAPROXY right?`,
  install: (say) => {
    // Debian's maintainer scripts start the service unless policy-rc.d says no (exit 101): the
    // tests start HAProxy themselves, on their own ports. The file is removed afterwards unless it was there.
    const policy = "/usr/sbin/policy-rc.d"
    const hadPolicy = existsSync(policy)
    if (!hadPolicy) writeFileSync(policy, "#!/bin/sh\nexit 101\n", { mode: 0o755 })
    try {
      return aptInstall("haproxy", say, ["-o", "Dpkg::Options::=--force-confold"])
    } finally {
      if (!hadPolicy) spawnSync("rm", ["-f", policy])
    }
  }
})
