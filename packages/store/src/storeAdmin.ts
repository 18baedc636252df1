import { existsSync } from "node:fs"
import { importMeetingPoints as importPgMeetingPoints } from "@tripsearch/storage-postgres"
import { importMeetingPoints as importSqliteMeetingPoints } from "@tripsearch/storage-sqlite"
import { connectPostgres, createKey as createPgKey, importFeed as importIntoPostgres, listKeys as listPgKeys, migrate, revokeKey as revokePgKey } from "@tripsearch/storage-postgres"
import { createKey as createSqliteKey, importFeed as importIntoSqlite, listKeys as listSqliteKeys, openDatabase, revokeKey as revokeSqliteKey } from "@tripsearch/storage-sqlite"
import type { CreateKeyInput, FeedSource, ImportResult, KeyInfo } from "@tripsearch/store-common"
import { isPostgresUrl } from "./storeLayers.js"

/** What the store command does to a store, whichever kind. */
export interface StoreAdmin {
  readonly importFeed: (source: FeedSource) => Promise<ImportResult>
  /** Imports a meeting point feed (the trips whose stops along the road change are changed with it). */
  readonly importMeetingPoints: (source: FeedSource) => Promise<{ readonly ok: true; readonly imported: number; readonly unchanged: number; readonly trips: number } | { readonly ok: false; readonly errors: ReadonlyArray<string> }>
  readonly createKey: (input: CreateKeyInput) => Promise<{ readonly id: string; readonly key: string }>
  readonly listKeys: () => Promise<ReadonlyArray<KeyInfo>>
  readonly revokeKey: (id: string) => Promise<boolean>
  readonly close: () => Promise<void>
}

/** A SQLite path that is not there: keys commands refuse it instead of creating an empty store. */
export class NoStore extends Error {}

/**
 * Opens the store `db` names (a `postgres://` URL or a SQLite file path), its schema brought up to
 * date. With `mustExist`, a SQLite path with no file is refused (`NoStore`); a database that does
 * not exist fails to connect anyway.
 */
export const openStoreAdmin = async (db: string, options: { readonly mustExist?: boolean } = {}): Promise<StoreAdmin> => {
  if (isPostgresUrl(db)) {
    const sql = connectPostgres(db, { max: 1 })
    try {
      await migrate(sql)
    } catch (e) {
      await sql.end({ timeout: 1 })
      throw e
    }
    return {
      importFeed: (source) => importIntoPostgres(sql, source),
      importMeetingPoints: (source) => importPgMeetingPoints(sql, source),
      createKey: (input) => createPgKey(sql, input),
      listKeys: () => listPgKeys(sql),
      revokeKey: (id) => revokePgKey(sql, id),
      close: () => sql.end({ timeout: 5 })
    }
  }
  if (options.mustExist && !existsSync(db)) throw new NoStore(`no store at ${db}: give the path of an existing store (npm start creates data/tripsearch.db; import creates one)`)
  const sqlite = openDatabase(db)
  return {
    importFeed: (source) => importIntoSqlite(sqlite, source),
    importMeetingPoints: (source) => importSqliteMeetingPoints(sqlite, source),
    createKey: async (input) => createSqliteKey(sqlite, input),
    listKeys: async () => listSqliteKeys(sqlite),
    revokeKey: async (id) => revokeSqliteKey(sqlite, id),
    close: async () => void sqlite.close()
  }
}
