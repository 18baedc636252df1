import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { feedLines, GENERATOR_VERSION, meetingPointLines } from "@tripsearch/dataset"
import { createKey, importFeed, importMeetingPoints, openDatabase } from "@tripsearch/storage-sqlite"
import { DATASET_SEED } from "./config.js"

/** The demo key of the default data set, kept (plain) in a small file beside the database. */
export interface DemoKey {
  readonly id: string
  readonly key: string
  readonly createdAt: string
  /** The dataset generator's version that built the store (files written before it have none: 1). */
  readonly generator: number
}

export interface EnsureDatasetOptions {
  readonly dbPath: string
  readonly demoKeyPath: string
  /** Trips to generate when the database does not exist. */
  readonly trips: number
  /** "Now" of the generated trips (the server's start time). */
  readonly nowMs: number
  readonly seed?: number
  /** Progress of the import: lines read so far, out of `trips`. */
  readonly onProgress?: (linesRead: number, total: number) => void
  /**
   * Told, before anything is generated, why a default data set in place is being built again
   * (`RenewReason`): the caller says so to the person who ran it.
   */
  readonly onRenew?: (reason: RenewReason) => void
}

/**
 * Why a default data set in place is built again: an older generator built it (a new demo key),
 * or its trips are running out (`lastDepartureMs` fewer than `RENEW_BELOW_MS` after now; the demo
 * key, and every other key of the store, kept).
 */
export type RenewReason =
  | { readonly _tag: "OlderGenerator"; readonly generator: number }
  | { readonly _tag: "RunningOut"; readonly lastDepartureMs: number | undefined }

/**
 * A default data set whose last trip leaves sooner than this is built again: its trips cover 30
 * days from the day it was made, and a week before they run out a visitor still finds trips in
 * every search on the main axes (fewer every day), instead of an empty demo a month on.
 */
export const RENEW_BELOW_MS = 7 * 24 * 3600 * 1000

export interface EnsuredDataset {
  /** Whether this call generated and imported the data set. */
  readonly created: boolean
  /** The demo key, when its file exists. */
  readonly demoKey: DemoKey | undefined
  /** Set when this call replaced a default data set in place (`onRenew` said why). */
  readonly replaced?: true
  /** Why it was replaced, when it was. */
  readonly reason?: RenewReason
}

/** The one line `npm start` prints before it builds a default data set in place again. */
export const renewNotice = (reason: RenewReason, trips: number, dbPath: string): string => {
  const building = `generating a new one of ${trips.toLocaleString("en")} trips into ${dbPath}`
  if (reason._tag === "OlderGenerator") return `the default data set was built by an older generator: ${building}, with a new demo key`
  const left =
    reason.lastDepartureMs === undefined
      ? "has no trips left"
      : `runs out on ${new Date(reason.lastDepartureMs).toISOString().slice(0, 10)} (fewer than 7 days of trips left)`
  return `the default data set ${left}: ${building}; the demo key stays the same`
}

const readDemoKey = (path: string): DemoKey | undefined => {
  if (!existsSync(path)) return undefined
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as Partial<DemoKey>
    return typeof parsed.key === "string" && typeof parsed.id === "string"
      ? { id: parsed.id, key: parsed.key, createdAt: String(parsed.createdAt ?? ""), generator: Number(parsed.generator ?? 1) }
      : undefined
  } catch {
    return undefined
  }
}

const removeDatabaseFiles = (path: string): void => {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${path}${suffix}`, { force: true })
}

/** The departure of the store's last active trip (epoch ms), or undefined when it has none. */
const lastDepartureMs = (dbPath: string): number | undefined => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    const row = db.prepare("SELECT MAX(departure_ms) AS last FROM trips WHERE status = 'active'").get() as { last: number | null }
    return row.last ?? undefined
  } finally {
    db.close()
  }
}

/**
 * Copies every key of the store being replaced, with its usage, into the new one: the demo key
 * printed at every start (and any key made with `npm run store -- keys create`) keeps working,
 * with today's quota where it was.
 */
const copyKeys = (db: ReturnType<typeof openDatabase>, fromPath: string): void => {
  db.prepare("ATTACH DATABASE ? AS old").run(fromPath)
  try {
    db.transaction(() => {
      db.exec("INSERT INTO main.api_keys (id, name, tier, daily_limit, key_hash, created_at, revoked_at) SELECT id, name, tier, daily_limit, key_hash, created_at, revoked_at FROM old.api_keys")
      db.exec("INSERT INTO main.key_usage (key_id, day, count) SELECT key_id, day, count FROM old.key_usage")
    })()
  } finally {
    db.exec("DETACH DATABASE old")
  }
}

/**
 * First start: when the database file does not exist, generates the default data set (fixed seed,
 * `nowMs` as now), imports it into `{dbPath}.partial`, creates a basic demo key, writes its file,
 * then moves the database into place (a crash midway leaves no half-built store behind). Later
 * starts change nothing and return the demo key of the file, unless the store must be built
 * again (`RenewReason`): an older generator built it (the new store gets a new demo key), or its
 * last trip leaves fewer than `RENEW_BELOW_MS` after `nowMs` (the new store, its trips from
 * `nowMs`, keeps the old one's keys: the same demo key works). A store without a demo key file
 * was not built here (the user imported it) and is never looked into nor replaced.
 */
export const ensureDataset = async (options: EnsureDatasetOptions): Promise<EnsuredDataset> => {
  let reason: RenewReason | undefined
  let kept: DemoKey | undefined
  if (existsSync(options.dbPath)) {
    const existing = readDemoKey(options.demoKeyPath)
    if (existing === undefined) return { created: false, demoKey: existing }
    if (existing.generator !== GENERATOR_VERSION) reason = { _tag: "OlderGenerator", generator: existing.generator }
    else {
      const last = lastDepartureMs(options.dbPath)
      if (last !== undefined && last - options.nowMs >= RENEW_BELOW_MS) return { created: false, demoKey: existing }
      reason = { _tag: "RunningOut", lastDepartureMs: last }
      kept = existing
    }
    options.onRenew?.(reason)
  }

  mkdirSync(dirname(options.dbPath), { recursive: true })
  mkdirSync(dirname(options.demoKeyPath), { recursive: true })
  const partial = `${options.dbPath}.partial`
  removeDatabaseFiles(partial)
  const db = openDatabase(partial)
  let demoKey: DemoKey
  try {
    // The meeting points first: each trip's stops along the road are worked out as it is imported.
    const points = await importMeetingPoints(db, meetingPointLines({ trips: options.trips, seed: options.seed ?? DATASET_SEED, nowMs: options.nowMs }))
    if (!points.ok) throw new Error(`the generated meeting points were refused by the import:\n  ${points.errors.slice(0, 10).join("\n  ")}`)
    const feed = feedLines({ trips: options.trips, seed: options.seed ?? DATASET_SEED, nowMs: options.nowMs })
    const progress = options.onProgress
    const result = await importFeed(db, feed, {
      progressEvery: Math.max(1, Math.min(5_000, Math.ceil(options.trips / 20))),
      ...(progress ? { onProgress: (n: number) => progress(n, options.trips) } : {})
    })
    if (!result.ok) {
      const shown = result.errors.slice(0, 10).join("\n  ")
      throw new Error(`the generated data set was refused by the import (${result.errors.length} errors):\n  ${shown}`)
    }
    progress?.(options.trips, options.trips)
    if (kept !== undefined) {
      copyKeys(db, options.dbPath)
      demoKey = kept
    } else {
      const created = createKey(db, { name: "demo", tier: "basic" })
      demoKey = { id: created.id, key: created.key, createdAt: new Date(options.nowMs).toISOString(), generator: GENERATOR_VERSION }
    }
    // Fold the WAL into the main file so that the one file moved into place is the whole store.
    db.pragma("journal_mode = DELETE")
  } catch (error) {
    db.close()
    removeDatabaseFiles(partial)
    throw error
  }
  db.close()
  // The old store goes before the new key is written: a crash in between then leaves no store,
  // rebuilt on the next start, rather than the old store under a key it does not hold.
  if (reason !== undefined) removeDatabaseFiles(options.dbPath)
  writeFileSync(options.demoKeyPath, `${JSON.stringify(demoKey, null, 2)}\n`, { mode: 0o600 })
  chmodSync(options.demoKeyPath, 0o600)
  renameSync(partial, options.dbPath)
  removeDatabaseFiles(partial)
  return reason !== undefined ? { created: true, demoKey, replaced: true, reason } : { created: true, demoKey }
}
