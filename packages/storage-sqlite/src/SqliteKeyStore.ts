import { type ApiKey, KeyStore } from "@tripsearch/core"
import { Effect, Layer, Option, Schedule } from "effect"
import { hashKey, KEY_COLUMNS, keyInfoOf } from "@tripsearch/store-common"
import { openDatabase, type SqliteDatabase } from "./openDatabase.js"

export interface SqliteKeyStoreService {
  readonly service: KeyStore["Type"]
  /** Writes the counts held in memory to `key_usage` (one transaction). */
  readonly flush: () => void
  /** Counts not yet written. */
  readonly pending: () => number
}

/**
 * The KeyStore over an open database. `count` only bumps an in-memory counter; `flush` adds the
 * counters to `key_usage`. `usage` = stored + not yet flushed. Revoked keys are not found.
 */
export const makeSqliteKeyStore = (db: SqliteDatabase): SqliteKeyStoreService => {
  const byHash = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL`)
  const stored = db.prepare("SELECT count FROM key_usage WHERE key_id = ? AND day = ?").pluck()
  const add = db.prepare(
    "INSERT INTO key_usage (key_id, day, count) VALUES (?, ?, ?) ON CONFLICT (key_id, day) DO UPDATE SET count = count + excluded.count"
  )
  /** keyId -> day -> unflushed count */
  let unflushed = new Map<string, Map<string, number>>()
  const writeAll = db.transaction((batch: Map<string, Map<string, number>>) => {
    for (const [keyId, days] of batch) for (const [day, n] of days) add.run(keyId, day, n)
  })
  const flush = () => {
    if (unflushed.size === 0) return
    const batch = unflushed
    unflushed = new Map()
    try {
      writeAll(batch)
    } catch (e) {
      // keep the counts for the next flush rather than losing them
      for (const [keyId, days] of batch) for (const [day, n] of days) bump(keyId, day, n)
      throw e
    }
  }
  const bump = (keyId: string, day: string, n: number) => {
    let days = unflushed.get(keyId)
    if (days === undefined) unflushed.set(keyId, (days = new Map()))
    days.set(day, (days.get(day) ?? 0) + n)
  }
  const service: KeyStore["Type"] = {
    find: (plainKey) =>
      Effect.sync(() => {
        const row = byHash.get(hashKey(plainKey)) as Parameters<typeof keyInfoOf>[0] | undefined
        if (row === undefined) return Option.none()
        const { id, name, tier, dailyLimit, revoked } = keyInfoOf(row)
        return Option.some<ApiKey>({ id, name, tier, dailyLimit, revoked })
      }),
    usage: (keyId, day) =>
      Effect.sync(() => ((stored.get(keyId, day) as number | undefined) ?? 0) + (unflushed.get(keyId)?.get(day) ?? 0)),
    count: (keyId, day) => Effect.sync(() => bump(keyId, day, 1))
  }
  const pending = () => {
    let total = 0
    for (const days of unflushed.values()) for (const n of days.values()) total += n
    return total
  }
  return { service, flush, pending }
}

type FlushInterval = Parameters<typeof Schedule.spaced>[0]

/** Builds the service in the current scope: periodic flush while it lives, a last one on release. */
const scopedKeyStore = (db: SqliteDatabase, flushEvery: FlushInterval) =>
  Effect.gen(function* () {
    const store = makeSqliteKeyStore(db)
    yield* Effect.addFinalizer(() => Effect.sync(store.flush))
    yield* Effect.sync(store.flush).pipe(
      Effect.catchAllDefect((defect) => Effect.logWarning("key usage flush failed; the counts are kept for the next one", defect)),
      Effect.repeat(Schedule.spaced(flushEvery)),
      Effect.forkScoped
    )
    return store.service
  })

/** SQLite adapter of the KeyStore port. */
export class SqliteKeyStore {
  /**
   * The KeyStore over a connection the caller owns: counts are flushed every `flushEvery`
   * (default 1 second) while the layer lives, and once more on release.
   */
  static layerDatabase = (db: SqliteDatabase, flushEvery: FlushInterval = "1 second"): Layer.Layer<KeyStore> =>
    Layer.scoped(KeyStore, scopedKeyStore(db, flushEvery))

  /** Opens the store at `path` for the layer's lifetime; flushes the counts, then closes it, on release. */
  static layer = (path: string, flushEvery: FlushInterval = "1 second"): Layer.Layer<KeyStore> =>
    Layer.scoped(
      KeyStore,
      Effect.acquireRelease(
        Effect.sync(() => openDatabase(path)),
        (db) => Effect.sync(() => db.close())
      ).pipe(Effect.flatMap((db) => scopedKeyStore(db, flushEvery)))
    )

  /** A fresh, empty in-memory key store. */
  static layerTest: Layer.Layer<KeyStore> = SqliteKeyStore.layer(":memory:")
}
