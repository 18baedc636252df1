// Makes sure the PostgreSQL 15 programs the tests start their throwaway clusters with are on the
// machine (`npm test` runs this before vitest). Prints nothing when they are there. On Debian as
// root (CI, sessions) it installs Debian's postgresql-15, without the cluster the package would
// otherwise create and start: the tests make their own. Anywhere else it says what to install and
// fails, so that the PostgreSQL tests never go missing unnoticed.
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { aptInstall, ensurePackage } from "./aptInstall.mjs"

const bin = process.env.TRIPSEARCH_PG_BIN ?? "/usr/lib/postgresql/15/bin"

ensurePackage({
  label: "postgres",
  pkg: "postgresql-15",
  purpose: "the tests' throwaway clusters",
  present: () => ["initdb", "pg_ctl", "postgres"].every((program) => existsSync(join(bin, program))),
  missing: [
    `the tests need PostgreSQL 15's initdb and pg_ctl, not found in ${bin}.`,
    "On Debian or Ubuntu: apt-get install -y postgresql-15 (as root). Elsewhere: install PostgreSQL 15 and set",
    "TRIPSEARCH_PG_BIN to the folder holding its initdb, pg_ctl and postgres."
  ],
  notThere: `postgresql-15 is installed, but ${bin} has no initdb, pg_ctl and postgres: is TRIPSEARCH_PG_BIN right?`,
  install: (say) => {
    mkdirSync("/etc/postgresql-common/createcluster.d", { recursive: true })
    writeFileSync("/etc/postgresql-common/createcluster.d/tripsearch-tests.conf", "# the tests start clusters of their own\ncreate_main_cluster = false\n")
    return aptInstall("postgresql-15", say, ["-o", "Dpkg::Options::=--force-confold"])
  }
})
