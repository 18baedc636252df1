import type { KeyStore, TripStore } from "@tripsearch/core"
import { isPostgresUrl, PostgresKeyStore, PostgresTripStore } from "@tripsearch/storage-postgres"
import { SqliteKeyStore, SqliteTripStore } from "@tripsearch/storage-sqlite"
import type { Layer } from "effect"

export { isPostgresUrl } from "@tripsearch/storage-postgres"

/** The TripStore of the store `db` names: a `postgres://` URL, or else the path of a SQLite file. */
export const tripStoreLayer = (db: string): Layer.Layer<TripStore> => (isPostgresUrl(db) ? PostgresTripStore.layer(db) : SqliteTripStore.layer(db))

/** The KeyStore of the store `db` names (counts flushed every second and on release). */
export const keyStoreLayer = (db: string): Layer.Layer<KeyStore> => (isPostgresUrl(db) ? PostgresKeyStore.layer(db) : SqliteKeyStore.layer(db))

/** How a `postgres://` URL is shown: without its password. */
export const displayDb = (db: string): string => {
  if (!isPostgresUrl(db)) return db
  try {
    const url = new URL(db)
    if (url.password !== "") url.password = "****"
    return url.href
  } catch {
    return "postgres://…"
  }
}
