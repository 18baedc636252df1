import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./freePort.js"

/** Where the PostgreSQL 15 programs are (Debian's `postgresql-15`); `TRIPSEARCH_PG_BIN` overrides it. */
export const postgresBin = (): string => process.env["TRIPSEARCH_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"

export interface PostgresCluster {
  /** The superuser's URL of the cluster's `postgres` database (trust authentication, 127.0.0.1). */
  readonly url: string
  readonly port: number
  /** Stops the server at once and removes its folder. */
  readonly stop: () => void
  /** Stops the server (fast shutdown: connections are ended), keeping its data: the database is down. */
  readonly pause: () => void
  /** Starts the paused server again on the same port, with its data. */
  readonly resume: () => void
}


/**
 * Starts a throwaway PostgreSQL cluster for tests: `initdb` in a new temporary folder, then
 * `pg_ctl start` on a free port of 127.0.0.1 with trust authentication and no fsync (its data dies
 * with it). initdb refuses to run as root, so as root (CI, sessions) both run as the `postgres`
 * user that Debian's package creates, in a folder that user owns. `settings` (`name=value`) are
 * added to the server's. Missing programs are an error
 * that says how to install them, never a reason to skip the tests.
 */
export const startPostgresCluster = async (options: { readonly settings?: ReadonlyArray<string> } = {}): Promise<PostgresCluster> => {
  const bin = postgresBin()
  if (!existsSync(join(bin, "initdb")) || !existsSync(join(bin, "pg_ctl"))) {
    throw new Error(
      `PostgreSQL 15 is not installed (no ${join(bin, "initdb")}): npm test installs it on Debian (apt-get install -y postgresql-15); ` +
        "elsewhere install PostgreSQL 15 and set TRIPSEARCH_PG_BIN to the folder of its initdb and pg_ctl"
    )
  }
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-pg-"))
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  const run = (program: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, program), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, program), args, { stdio: "pipe" })
  const stop = () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
    } catch {
      // not running (it failed to start, or was stopped already)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    if (asRoot) execFileSync("chown", ["postgres:postgres", dir])
    run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
    for (let attempt = 1; ; attempt++) {
      const port = await freePort()
      const settings = [
        `-p ${port}`, `-k ${dir}`, "-c listen_addresses=127.0.0.1", "-c fsync=off", "-c synchronous_commit=off",
        "-c full_page_writes=off", "-c max_connections=200", "-c shared_buffers=32MB",
        // A later setting of the same name wins: a bench may give its own.
        ...(options.settings ?? []).map((setting) => `-c ${setting}`)
      ].join(" ")
      const start = () => run("pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", settings, "start"])
      try {
        start()
        const pause = () => void run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])
        return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, pause, resume: () => void start() }
      } catch (e) {
        // Another process may have taken the port between its test and the server's start.
        if (attempt >= 3) throw new Error(`the test PostgreSQL server did not start: ${existsSync(log) ? readFileSync(log, "utf8") : String(e)}`)
      }
    }
  } catch (e) {
    stop()
    throw e
  }
}


/**
 * A vitest `globalSetup`: one cluster for a test project's run, its URL provided as `postgresUrl`
 * (read with `freshDatabase`), stopped afterwards. A package's setup file is
 * `export { provideCluster as default } from "@tripsearch/store-tests/postgres-cluster"`.
 */
export const provideCluster = async (project: { provide: (key: "postgresUrl", value: string) => void }): Promise<() => void> => {
  const cluster = await startPostgresCluster()
  project.provide("postgresUrl", cluster.url)
  return cluster.stop
}
