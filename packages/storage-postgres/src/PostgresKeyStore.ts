import { type ApiKey, isStoreUnavailable, KeyStore, StoreUnavailable } from "@tripsearch/core"
import { hashKey, KEY_COLUMNS, keyInfoOf, type KeyRow } from "@tripsearch/store-common"
import { Effect, Layer, Option, Schedule } from "effect"
import type { Sql } from "./connectPostgres.js"
import { scopedPostgres } from "./PostgresTripStore.js"
import { isUnreachable, READ_DEADLINE_MS } from "./unavailable.js"

export interface PostgresKeyStoreOptions {
  /** How long a key looked up is taken as it was: a revocation reaches this replica within it (default 1 s). */
  readonly keyCacheMs?: number
  /** Keys held at most (known and unknown ones); past it the cache starts afresh (default 10,000). */
  readonly keyCacheSize?: number
}

export interface PostgresKeyStoreService {
  readonly service: KeyStore["Type"]
  /**
   * Adds the counts held in memory to `key_usage` (one statement), then reads back the shared
   * counts of the keys used lately, every replica's counts included.
   */
  readonly flush: () => Promise<void>
  /** Counts not yet written. */
  readonly pending: () => number
}

type Counts = Map<string, number>
/** The key of a (key id, day) pair in the maps below: ids never hold a space. */
const pairOf = (keyId: string, day: string): string => `${keyId} ${day}`

/** How long a (key, day) count read from the database is refreshed after its last use. */
const KNOWN_FOR_MS = 60_000

/** How long the reads for requests skip a database found unreachable. */
const UNREACHABLE_FOR_MS = 1_000

/**
 * The KeyStore over a pool the caller owns, for any number of replicas sharing one database. No
 * request waits on a write: `count` bumps an in-memory counter, which `flush` adds to the shared
 * count (`count = count + n`). `usage` = the shared count as last read (by the flush, or once at a
 * key's first request of the day on this replica) + the counts not yet written. A key looked up is
 * kept `keyCacheMs`; if the database cannot answer when it is due, the last answer stands.
 */
export const makePostgresKeyStore = (sql: Sql, options: PostgresKeyStoreOptions = {}): PostgresKeyStoreService => {
  const keyCacheMs = options.keyCacheMs ?? 1_000
  const keyCacheSize = options.keyCacheSize ?? 10_000
  const keys = new Map<string, { readonly key: Option.Option<ApiKey>; readonly at: number }>()
  /** (key, day) -> the shared count as last read, and when this replica last asked for it. */
  const known = new Map<string, { count: number; usedAt: number }>()
  let unflushed: Counts = new Map()
  /** Counts being written: still this replica's own until the shared count read back includes them. */
  let flushing: Counts = new Map()

  /**
   * Until when the database is taken as unreachable: after a read for a request found it so, the
   * next ones for `UNREACHABLE_FOR_MS` fail at once rather than each wait for a connection.
   */
  let unreachableUntil = 0
  /** A read made for a request: within `READ_DEADLINE_MS`, a database unreachable as `StoreUnavailable`. */
  const requestRead = async <A>(query: () => Promise<A>): Promise<A> => {
    if (Date.now() < unreachableUntil) throw new StoreUnavailable({ message: "PostgreSQL could not be reached a moment ago" })
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      return await Promise.race([
        query(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new StoreUnavailable({ message: `PostgreSQL did not answer within ${READ_DEADLINE_MS} ms` })), READ_DEADLINE_MS)
        })
      ])
    } catch (e) {
      if (isStoreUnavailable(e) || isUnreachable(e)) {
        unreachableUntil = Date.now() + UNREACHABLE_FOR_MS
        throw isStoreUnavailable(e) ? e : new StoreUnavailable({ message: `PostgreSQL cannot be reached: ${(e as Error).message}` })
      }
      throw e
    } finally {
      clearTimeout(timer)
    }
  }

  const lookUp = async (hash: string): Promise<Option.Option<ApiKey>> => {
    const [row] = await sql.unsafe<Array<KeyRow>>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [hash])
    if (row === undefined) return Option.none()
    const { id, name, tier, dailyLimit, revoked } = keyInfoOf(row)
    return Option.some({ id, name, tier, dailyLimit, revoked })
  }

  const find = async (plainKey: string): Promise<Option.Option<ApiKey>> => {
    const hash = hashKey(plainKey)
    const cached = keys.get(hash)
    const now = Date.now()
    if (cached !== undefined && now - cached.at < keyCacheMs) return cached.key
    let key: Option.Option<ApiKey>
    try {
      key = await requestRead(() => lookUp(hash))
    } catch (e) {
      // The database cannot say: the last answer stands, however old (a key never looked up
      // here has none, and its request is answered 503).
      if (cached !== undefined) return cached.key
      throw e
    }
    if (keys.size >= keyCacheSize) keys.clear()
    keys.set(hash, { key, at: now })
    return key
  }

  const own = (pair: string): number => (unflushed.get(pair) ?? 0) + (flushing.get(pair) ?? 0)

  const usage = async (keyId: string, day: string): Promise<number> => {
    const pair = pairOf(keyId, day)
    let entry = known.get(pair)
    if (entry === undefined) {
      let row: { count: number } | undefined
      try {
        ;[row] = await requestRead(() => sql<Array<{ count: number }>>`SELECT count FROM key_usage WHERE key_id = ${keyId} AND day = ${day}`)
      } catch (e) {
        // The database cannot say: this replica's own counts stand alone until it can (read again
        // at the next request).
        if (isStoreUnavailable(e)) return own(pair)
        throw e
      }
      entry = known.get(pair) ?? { count: row?.count ?? 0, usedAt: 0 }
      known.set(pair, entry)
    }
    entry.usedAt = Date.now()
    return entry.count + own(pair)
  }

  const flushNow = async (): Promise<void> => {
    flushing = unflushed
    unflushed = new Map()
    const written = [...flushing]
    try {
      if (written.length > 0) {
        const ids = written.map(([pair]) => pair.slice(0, pair.indexOf(" ")))
        const days = written.map(([pair]) => pair.slice(pair.indexOf(" ") + 1))
        const rows = await sql<Array<{ key_id: string; day: string; count: number }>>`
          INSERT INTO key_usage (key_id, day, count)
          SELECT * FROM unnest(${sql.array(ids)}::text[], ${sql.array(days)}::text[], ${sql.array(written.map(([, n]) => n))}::bigint[])
          ON CONFLICT (key_id, day) DO UPDATE SET count = key_usage.count + excluded.count
          RETURNING key_id, day, count`
        for (const row of rows) {
          const entry = known.get(pairOf(row.key_id, row.day))
          if (entry !== undefined) entry.count = row.count
        }
      }
    } catch (e) {
      // Kept for the next flush rather than lost.
      for (const [pair, n] of flushing) unflushed.set(pair, (unflushed.get(pair) ?? 0) + n)
      throw e
    } finally {
      flushing = new Map()
    }
    const now = Date.now()
    const readBack = new Set(written.map(([pair]) => pair))
    const refresh: Array<string> = []
    for (const [pair, entry] of known) {
      if (now - entry.usedAt > KNOWN_FOR_MS) known.delete(pair)
      else if (!readBack.has(pair)) refresh.push(pair)
    }
    if (refresh.length === 0) return
    const rows = await sql<Array<{ key_id: string; day: string; count: number }>>`
      SELECT key_id, day, count FROM key_usage
      WHERE (key_id, day) IN (SELECT * FROM unnest(${sql.array(refresh.map((p) => p.slice(0, p.indexOf(" "))))}::text[],
                                                    ${sql.array(refresh.map((p) => p.slice(p.indexOf(" ") + 1)))}::text[]))`
    for (const row of rows) {
      const entry = known.get(pairOf(row.key_id, row.day))
      if (entry !== undefined) entry.count = row.count
    }
  }

  // One flush at a time, in turn: the periodic one and the last one on release may meet.
  let last: Promise<void> = Promise.resolve()
  const flush = (): Promise<void> => (last = last.then(flushNow, flushNow))

  const service: KeyStore["Type"] = {
    find: (plainKey) => Effect.promise(() => find(plainKey)),
    usage: (keyId, day) => Effect.promise(() => usage(keyId, day)),
    count: (keyId, day) =>
      Effect.sync(() => {
        const pair = pairOf(keyId, day)
        unflushed.set(pair, (unflushed.get(pair) ?? 0) + 1)
      })
  }
  const pending = () => {
    let total = 0
    for (const n of unflushed.values()) total += n
    return total
  }
  return { service, flush, pending }
}

type FlushInterval = Parameters<typeof Schedule.spaced>[0]

/** Builds the service in the current scope: periodic flush while it lives, a last one on release. */
const scopedKeyStore = (sql: Sql, flushEvery: FlushInterval, options: PostgresKeyStoreOptions) =>
  Effect.gen(function* () {
    const store = makePostgresKeyStore(sql, options)
    yield* Effect.addFinalizer(() =>
      Effect.promise(store.flush).pipe(Effect.catchAllDefect((defect) => Effect.logWarning("key usage: the last flush failed; its counts are lost", defect)))
    )
    // While the database is down a flush fails every second: the first failure of a run is
    // logged, then one a minute.
    let failures = 0
    yield* Effect.promise(store.flush).pipe(
      Effect.tap(() => Effect.sync(() => void (failures = 0))),
      Effect.catchAllDefect((defect) =>
        failures++ % 60 === 0 ? Effect.logWarning(`key usage flush failed (${failures} in a row); the counts are kept for the next one`, defect) : Effect.void
      ),
      Effect.repeat(Schedule.spaced(flushEvery)),
      Effect.forkScoped
    )
    return store.service
  })

/** PostgreSQL adapter of the KeyStore port. */
export class PostgresKeyStore {
  /**
   * The KeyStore over a pool the caller owns: counts are flushed every `flushEvery` (default
   * 1 second) while the layer lives, and once more on release.
   */
  static layerSql = (sql: Sql, flushEvery: FlushInterval = "1 second", options: PostgresKeyStoreOptions = {}): Layer.Layer<KeyStore> =>
    Layer.scoped(KeyStore, scopedKeyStore(sql, flushEvery, options))

  /** Connects to `url` for the layer's lifetime; flushes the counts, then disconnects, on release. */
  static layer = (url: string, flushEvery: FlushInterval = "1 second", options: PostgresKeyStoreOptions = {}): Layer.Layer<KeyStore> =>
    Layer.scoped(KeyStore, Effect.flatMap(scopedPostgres(url), (sql) => scopedKeyStore(sql, flushEvery, options)))
}
