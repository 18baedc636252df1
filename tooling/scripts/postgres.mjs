// Makes sure the PostgreSQL 15 programs the tests start their throwaway clusters with are on the
// machine (`npm test` runs this before vitest). Prints nothing when they are there. On Debian as
// root (CI, sessions) it installs Debian's postgresql-15, without the cluster the package would
// otherwise create and start: the tests make their own. Anywhere else it says what to install and
// fails, so that the PostgreSQL tests never go missing unnoticed.
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { aptAvailable, aptInstall } from "./aptInstall.mjs"

const bin = process.env.TRIPSEARCH_PG_BIN ?? "/usr/lib/postgresql/15/bin"
const installed = () => ["initdb", "pg_ctl", "postgres"].every((program) => existsSync(join(bin, program)))
const say = (line) => process.stderr.write(`postgres: ${line}\n`)

if (installed()) process.exit(0)

const canApt = aptAvailable()
if (!canApt) {
  say(`the tests need PostgreSQL 15's initdb and pg_ctl, not found in ${bin}.`)
  say("On Debian or Ubuntu: apt-get install -y postgresql-15 (as root). Elsewhere: install PostgreSQL 15 and set")
  say("TRIPSEARCH_PG_BIN to the folder holding its initdb, pg_ctl and postgres.")
  process.exit(1)
}

mkdirSync("/etc/postgresql-common/createcluster.d", { recursive: true })
writeFileSync("/etc/postgresql-common/createcluster.d/tripsearch-tests.conf", "# the tests start clusters of their own\ncreate_main_cluster = false\n")
say("installing postgresql-15 from Debian's packages (apt-get), for the tests' throwaway clusters")
const started = performance.now()
if (!aptInstall("postgresql-15", say, ["-o", "Dpkg::Options::=--force-confold"])) process.exit(1)
if (!installed()) {
  say(`postgresql-15 is installed, but ${bin} has no initdb, pg_ctl and postgres: is TRIPSEARCH_PG_BIN right?`)
  process.exit(1)
}
say(`installed in ${((performance.now() - started) / 1000).toFixed(0)} s`)
