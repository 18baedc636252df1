#!/usr/bin/env node
import { realpathSync } from "node:fs"
import { resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { TripStore } from "@tripsearch/core"
import { refreshSnapshot } from "@tripsearch/geo-pool"
import type { ImportResult } from "@tripsearch/store-common"
import { ManagedRuntime } from "effect"
import { openStoreAdmin, type StoreAdmin } from "./storeAdmin.js"
import { isPostgresUrl, tripStoreLayer } from "./storeLayers.js"

const USAGE = `Usage:
  tripsearch-store import --db PATH|URL [--meeting-points FILE] [--snapshot PATH|off] [FILE...]
  tripsearch-store keys create --db PATH|URL --name NAME [--tier basic|production] [--daily-limit N]
  tripsearch-store keys list --db PATH|URL
  tripsearch-store keys revoke --db PATH|URL ID

--db is a SQLite file's PATH or a PostgreSQL URL (postgres://user@host:port/database).
import creates the SQLite store at PATH if there is none; the keys commands need an existing one.
A PostgreSQL database must exist; its tables are created on first use.
Each FILE is imported whole or not at all; a file that changes no trip leaves the store as it was.
--meeting-points FILE is a meeting point feed, imported first, whole or not at all: the trips whose
stops along the road change with it are changed too.
After an import, the server's index snapshot is brought up to the store's last change, so that the
next server start reads it instead of scanning the store: --snapshot is its path (default, for a
SQLite store, the store's path + .index, where the server looks by default; for PostgreSQL, the
database itself, where every replica looks by default), or off.`

/** "1 error", "3 errors"; "1 trip", "2 trips". */
const counted = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`
const errorCount = (n: number): string => counted(n, "error", "errors")
const tripCount = (n: number): string => counted(n, "trip", "trips")

class UsageError extends Error {}

const parse = (args: ReadonlyArray<string>) => {
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        db: { type: "string" },
        name: { type: "string" },
        tier: { type: "string" },
        "daily-limit": { type: "string" },
        snapshot: { type: "string" },
        "meeting-points": { type: "string" },
        help: { type: "boolean", short: "h" }
      }
    })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

const requireDb = (db: string | undefined): string => {
  if (db === undefined || db === "") throw new UsageError("--db PATH|URL is required")
  return db
}

/** Runs `f` over the store `db` names, closed afterwards. */
const withStore = async <A>(db: string, mustExist: boolean, f: (store: StoreAdmin) => Promise<A>): Promise<A> => {
  const store = await openStoreAdmin(db, { mustExist })
  try {
    return await f(store)
  } finally {
    await store.close()
  }
}

/** The store's own snapshot (PostgreSQL keeps it in the database), as opposed to a file's path. */
const IN_STORE = Symbol("in the store")

/**
 * Where the import leaves the index snapshot: `--snapshot`, else where the server looks by default:
 * beside a SQLite store, in a PostgreSQL database.
 */
const snapshotPathOf = (db: string, option: string | undefined): string | typeof IN_STORE | undefined => {
  if (option === "") throw new UsageError("--snapshot needs a PATH, or off")
  if (option?.toLowerCase() === "off") return undefined
  if (option !== undefined) return resolve(option)
  return isPostgresUrl(db) ? IN_STORE : `${resolve(db)}.index`
}

/** The index of the store `db` names, loaded from the snapshot at `path` or scanned, written there if it moved: one line saying which. */
const snapshotLine = async (db: string, path: string | typeof IN_STORE): Promise<string> => {
  const runtime = ManagedRuntime.make(tripStoreLayer(db))
  try {
    const t0 = performance.now()
    const { index, seq, load, written, where } = await refreshSnapshot(await runtime.runPromise(TripStore), path === IN_STORE ? undefined : path)
    const label = path === IN_STORE ? `in ${where}` : path
    if (!written) return `index snapshot ${label}: up to date (seq ${seq})`
    const how = load.from === "snapshot" ? `the previous snapshot and ${load.changes} change(s)` : "the store"
    // The database's copy also takes its upload: said, since an operator waits for it.
    const all = path === IN_STORE ? `; ${((performance.now() - t0) / 1000).toFixed(1)} s with its upload` : ""
    return `index snapshot ${label}: written at seq ${seq} (${tripCount(index.size)}, from ${how} in ${(load.ms / 1000).toFixed(1)} s${all})`
  } finally {
    await runtime.dispose()
  }
}

/** What an import did, in the words of one line. */
const importSummary = ({ imported, unchanged, seq }: { imported: number; unchanged: number; seq: number }): string =>
  imported === unchanged
    ? `nothing changed (${imported === 0 ? "no trips" : `${tripCount(imported)}, each stored already as given`}; seq ${seq})`
    : unchanged === 0
      ? `imported ${tripCount(imported)} (seq ${seq})`
      : `imported ${tripCount(imported)}, ${unchanged} of them unchanged (seq ${seq})`

const noExtra = (positionals: ReadonlyArray<string>, expected: number) => {
  if (positionals.length > expected) throw new UsageError(`unexpected argument: ${positionals[expected]}`)
}

export const main = async (argv: ReadonlyArray<string>, out = process.stdout, err = process.stderr): Promise<number> => {
  try {
    const { values, positionals } = parse(argv)
    if (values.help) {
      out.write(`${USAGE}\n`)
      return 0
    }
    const [command, sub, ...rest] = positionals
    if (command === "import") {
      const files = positionals.slice(1)
      const meetingPoints = values["meeting-points"]
      if (files.length === 0 && meetingPoints === undefined) throw new UsageError("import needs at least one FILE or --meeting-points FILE")
      const db = requireDb(values.db)
      const snapshotPath = snapshotPathOf(db, values.snapshot)
      let failed = false
      let imported = false
      // The trips' stops along the road depend on the meeting points: without them, no trip file is read.
      const skipped = (files: ReadonlyArray<string>) => {
        for (const file of files) err.write(`${file}: not imported, since the meeting points were not\n`)
      }
      await withStore(db, false, async (store) => {
        if (meetingPoints !== undefined) {
          try {
            const result = await store.importMeetingPoints(meetingPoints)
            if (result.ok) {
              imported = true
              out.write(`${meetingPoints}: ${counted(result.imported, "meeting point", "meeting points")} (${result.unchanged} unchanged), stops along the road changed on ${tripCount(result.trips)}\n`)
            } else {
              failed = true
              err.write(`${meetingPoints}: rejected, nothing imported (${errorCount(result.errors.length)})\n`)
              for (const e of result.errors) err.write(`${meetingPoints}: ${e}\n`)
              skipped(files)
              return
            }
          } catch (e) {
            failed = true
            err.write(`${meetingPoints}: not imported: ${(e as Error).message}\n`)
            skipped(files)
            return
          }
        }
        for (const file of files) {
          let result: ImportResult
          try {
            result = await store.importFeed(file)
          } catch (e) {
            failed = true
            err.write(`${file}: not imported: ${(e as Error).message}\n`)
            continue
          }
          if (result.ok) {
            imported = true
            out.write(`${file}: ${importSummary(result)}\n`)
          } else {
            failed = true
            err.write(`${file}: rejected, nothing imported (${errorCount(result.errors.length)})\n`)
            for (const e of result.errors) err.write(`${file}: ${e}\n`)
          }
        }
      })
      if (imported && snapshotPath !== undefined) {
        try {
          out.write(`${await snapshotLine(db, snapshotPath)}\n`)
        } catch (e) {
          // The store is imported either way: the next server start scans it instead.
          failed = true
          err.write(`index snapshot in ${snapshotPath === IN_STORE ? "the database" : snapshotPath}: not written: ${(e as Error).message}\n`)
        }
      }
      return failed ? 1 : 0
    }
    if (command === "keys") {
      if (sub === "create") {
        noExtra(rest, 0)
        if (values.name === undefined || values.name.trim() === "") throw new UsageError("keys create needs --name NAME")
        const tier = values.tier ?? "basic"
        if (tier !== "basic" && tier !== "production") throw new UsageError(`--tier must be basic or production, got ${tier}`)
        let dailyLimit: number | undefined
        if (values["daily-limit"] !== undefined) {
          if (!/^[1-9]\d*$/.test(values["daily-limit"])) throw new UsageError(`--daily-limit must be a positive integer, got ${values["daily-limit"]}`)
          if (tier === "basic") throw new UsageError("--daily-limit is only for --tier production (basic keys get 10000 a day)")
          dailyLimit = Number(values["daily-limit"])
        }
        const input = { name: values.name, tier, ...(dailyLimit === undefined ? {} : { dailyLimit }) } as const
        const { id, key } = await withStore(requireDb(values.db), true, (store) => store.createKey(input))
        out.write(`id:  ${id}\nkey: ${key}\n(the key is shown only this once; only its hash is stored)\n`)
        return 0
      }
      if (sub === "list") {
        noExtra(rest, 0)
        const keys = await withStore(requireDb(values.db), true, (store) => store.listKeys())
        if (keys.length === 0) out.write("no keys\n")
        for (const k of keys) {
          out.write(`${k.id}\t${k.tier}\t${k.dailyLimit}/day\t${k.revoked ? `revoked ${k.revokedAt}` : "active"}\tcreated ${k.createdAt}\t${k.name}\n`)
        }
        return 0
      }
      if (sub === "revoke") {
        if (rest.length !== 1) throw new UsageError("keys revoke needs exactly one ID")
        if (!(await withStore(requireDb(values.db), true, (store) => store.revokeKey(rest[0]!)))) {
          err.write(`no active key with id ${rest[0]}\n`)
          return 1
        }
        out.write(`revoked ${rest[0]}\n`)
        return 0
      }
      throw new UsageError(sub === undefined ? "keys needs a subcommand: create, list or revoke" : `unknown keys subcommand: ${sub}`)
    }
    throw new UsageError(command === undefined ? "missing command" : `unknown command: ${command}`)
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`tripsearch-store: ${e.message}\n${USAGE}\n`)
      return 2
    }
    err.write(`tripsearch-store: ${(e as Error).message}\n`)
    return 1
  }
}

const isEntry = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
})()
if (isEntry) {
  // A reader that stops early (`| head`) is not a reason to stop an import halfway to its
  // snapshot: what cannot be written to it is dropped, and the command finishes its work.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") return
    process.stderr.write(`tripsearch-store: cannot write to standard output: ${e.message}\n`)
    process.exitCode = 1
  })
  const code = await main(process.argv.slice(2))
  if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = code
}
