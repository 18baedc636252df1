import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { feedLines, GENERATOR_VERSION } from "@tripsearch/dataset"
import { createKey, importFeed, openDatabase } from "@tripsearch/storage-sqlite"
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
}

export interface EnsuredDataset {
  /** Whether this call generated and imported the data set. */
  readonly created: boolean
  /** The demo key, when its file exists. */
  readonly demoKey: DemoKey | undefined
  /** Set when this call replaced a default data set built by an older generator. */
  readonly replaced?: true
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

/**
 * First start: when the database file does not exist, generates the default data set (fixed seed,
 * `nowMs` as now), imports it into `{dbPath}.partial`, creates a basic demo key, writes its file,
 * then moves the database into place (a crash midway leaves no half-built store behind). Later
 * starts change nothing and return the demo key of the file, unless that file says an older
 * generator built the store: then the default data set is built again, as on a first start. A
 * store without a demo key file was not built here and is never replaced.
 */
export const ensureDataset = async (options: EnsureDatasetOptions): Promise<EnsuredDataset> => {
  let replaced = false
  if (existsSync(options.dbPath)) {
    const existing = readDemoKey(options.demoKeyPath)
    if (existing === undefined || existing.generator === GENERATOR_VERSION) return { created: false, demoKey: existing }
    replaced = true
  }

  mkdirSync(dirname(options.dbPath), { recursive: true })
  mkdirSync(dirname(options.demoKeyPath), { recursive: true })
  const partial = `${options.dbPath}.partial`
  removeDatabaseFiles(partial)
  const db = openDatabase(partial)
  let demoKey: DemoKey
  try {
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
    const created = createKey(db, { name: "demo", tier: "basic" })
    demoKey = { id: created.id, key: created.key, createdAt: new Date(options.nowMs).toISOString(), generator: GENERATOR_VERSION }
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
  if (replaced) removeDatabaseFiles(options.dbPath)
  writeFileSync(options.demoKeyPath, `${JSON.stringify(demoKey, null, 2)}\n`, { mode: 0o600 })
  chmodSync(options.demoKeyPath, 0o600)
  renameSync(partial, options.dbPath)
  removeDatabaseFiles(partial)
  return replaced ? { created: true, demoKey, replaced: true } : { created: true, demoKey }
}
