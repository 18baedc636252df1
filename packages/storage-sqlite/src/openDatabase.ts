import Database from "better-sqlite3"
import { MIGRATIONS } from "./migrations.js"

export type SqliteDatabase = Database.Database

/** Applies the pending migrations, each step in its own transaction. Returns the schema version. */
export const migrate = (db: SqliteDatabase): number => {
  const current = db.pragma("user_version", { simple: true }) as number
  if (current > MIGRATIONS.length) {
    throw new Error(`database schema version ${current} is newer than this build knows (${MIGRATIONS.length})`)
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      const step = MIGRATIONS[version]!
      if (typeof step === "string") db.exec(step)
      else step(db)
      db.pragma(`user_version = ${version + 1}`)
    }).immediate()
  }
  return MIGRATIONS.length
}

/**
 * Opens (creating if needed) the store at `path`, or an in-memory one for `:memory:`: WAL journal,
 * `synchronous = NORMAL`, foreign keys on, a busy timeout for concurrent writers, then migrations.
 */
export const openDatabase = (path: string, options: { readonly readonly?: boolean } = {}): SqliteDatabase => {
  const db = new Database(path, { readonly: options.readonly ?? false })
  try {
    db.pragma("busy_timeout = 5000")
    if (!options.readonly) {
      if (path !== ":memory:" && path !== "") db.pragma("journal_mode = WAL")
      db.pragma("synchronous = NORMAL")
    }
    db.pragma("foreign_keys = ON")
    db.pragma("temp_store = MEMORY")
    db.pragma("cache_size = -65536") // 64 MiB
    // No memory map: every mapped page a scan touches counts in the process's RSS (1.1 GB more
    // after the index's first load at 1M trips), and the scan is no faster with one (17.2 s
    // without, 18.1 s with, measured on the same store).
    db.pragma("mmap_size = 0")
    if (!options.readonly) migrate(db)
    else if ((db.pragma("user_version", { simple: true }) as number) !== MIGRATIONS.length) {
      throw new Error(`database ${path} is not at schema version ${MIGRATIONS.length}`)
    }
    return db
  } catch (e) {
    db.close()
    throw e
  }
}

/** Reads a `meta` value. */
export const getMeta = (db: SqliteDatabase, key: string): string | undefined =>
  (db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(key) as string | undefined) ?? undefined

/** Writes a `meta` value. */
export const setMeta = (db: SqliteDatabase, key: string, value: string): void => {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value)
}
