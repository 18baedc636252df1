import { CURRENCIES, type CurrencyCode, DEFAULT_RATES, type FeedTrip, type IndexRecord, type RateTable, type StoredMeetingPoint, type StoredTrip, StoreUnavailable, TripStore } from "@tripsearch/core"
import { readRoadStops, unpackRecord } from "@tripsearch/store-common"
import { Effect, Layer, Option } from "effect"
import { connectPostgres, type Sql } from "./connectPostgres.js"
import { listenForChanges } from "./listenForChanges.js"
import { migrate } from "./migrations.js"
import { makePostgresSnapshotShelf } from "./PostgresSnapshotShelf.js"
import { isUnreachable, storeRead } from "./unavailable.js"

const storedFrom = (tripJson: string, zoneOffsets: string, roadStops: Buffer | null): StoredTrip => {
  const stops = readRoadStops(roadStops)
  return {
    trip: JSON.parse(tripJson) as FeedTrip,
    zoneOffsets: JSON.parse(zoneOffsets) as Array<number>,
    ...(stops !== undefined ? { roadStops: stops } : {})
  }
}

/** Rows the index scan reads per round trip. */
const SCAN_BATCH = 2_000

/** A trip's index record from its `id, packed, shown` columns. */
const recordOf = (row: { id: string; packed: Buffer; shown: Buffer; road_stops: Buffer | null }): IndexRecord => {
  const record = unpackRecord(row.id, row.packed, row.shown)
  const road = readRoadStops(row.road_stops)
  return road === undefined ? record : { ...record, road }
}

/** The last change sequence number committed (0 when no trip was ever stored). */
export const currentSeq = async (sql: Sql): Promise<number> => {
  const [row] = await sql<Array<{ seq: number }>>`SELECT seq FROM change_seq`
  return row?.seq ?? 0
}

/**
 * The TripStore service over a connection pool (the caller owns it). A read that finds the database
 * unreachable dies with `StoreUnavailable`; the reads made for a request (a trip, a page's trips)
 * are given up after `READ_DEADLINE_MS`, the index's (the scan, the changes) are not. The scan and the changes are
 * each read in one REPEATABLE READ transaction, so the sequence number they return is that of the
 * rows they read. The scan goes in id order, as the SQLite store's does, so that both stores load
 * an index in the same order.
 */
export const makePostgresTripStore = (sql: Sql): TripStore["Type"] => ({
  getTrip: (id) =>
    storeRead(async () => {
      const [row] = await sql<Array<{ trip_json: string; zone_offsets: string; road_stops: Buffer | null }>>`
        SELECT trip_json, zone_offsets, road_stops FROM trips WHERE id = ${id}`
      return row === undefined ? Option.none() : Option.some(storedFrom(row.trip_json, row.zone_offsets, row.road_stops))
    }),
  getTrips: (ids) =>
    storeRead(async () => {
      const out = new Map<string, StoredTrip>()
      if (ids.length === 0) return out
      const rows = await sql<Array<{ id: string; trip_json: string; zone_offsets: string; road_stops: Buffer | null }>>`
        SELECT id, trip_json, zone_offsets, road_stops FROM trips WHERE id = ANY(${sql.array([...ids])}::text[])`
      for (const row of rows) out.set(row.id, storedFrom(row.trip_json, row.zone_offsets, row.road_stops))
      return out
    }),
  meetingPoints: (ids) =>
    storeRead(async () => {
      const out = new Map<number, StoredMeetingPoint>()
      if (ids !== undefined && ids.length === 0) return out
      const rows =
        ids === undefined
          ? await sql<Array<{ mp_json: string }>>`SELECT mp_json FROM meeting_points WHERE status = 'active' ORDER BY id`
          : await sql<Array<{ mp_json: string }>>`
              SELECT mp_json FROM meeting_points WHERE status = 'active' AND id = ANY(${sql.array([...ids])}::integer[])`
      for (const row of rows) {
        const mp = JSON.parse(row.mp_json) as StoredMeetingPoint
        out.set(mp.id, mp)
      }
      return out
    }),
  scanIndex: (onRecord) =>
    storeRead(
      () =>
        sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
          const seq = await currentSeq(tx as unknown as Sql)
          await tx<Array<{ id: string; packed: Buffer; shown: Buffer; road_stops: Buffer | null }>>`
            SELECT id, packed, shown, road_stops FROM trips WHERE status = 'active' ORDER BY id`.cursor(SCAN_BATCH, (rows) => {
            for (const row of rows) onRecord(recordOf(row))
          })
          return seq
        }),
      false
    ),
  changesSince: (since) =>
    storeRead(() =>
      sql.begin("ISOLATION LEVEL REPEATABLE READ READ ONLY", async (tx) => {
        const seq = await currentSeq(tx as unknown as Sql)
        const upserts: Array<IndexRecord> = []
        const removed: Array<string> = []
        if (seq > since) {
          const rows = await tx<Array<{ status: string; id: string; packed: Buffer; shown: Buffer; road_stops: Buffer | null }>>`
            SELECT status, id, packed, shown, road_stops FROM trips WHERE seq > ${since} ORDER BY seq`
          for (const row of rows) {
            if (row.status === "active") upserts.push(recordOf(row))
            else removed.push(row.id)
          }
        }
        return { seq, upserts, removed }
      }),
      false
    ),
  meetingPointsSince: (version) =>
    storeRead(async () =>
      (await sql<Array<{ mp_json: string }>>`SELECT mp_json FROM meeting_points WHERE version > ${Number(version)} ORDER BY id`).map(
        (row) => JSON.parse(row.mp_json) as StoredMeetingPoint
      )
    ),
  meetingPointsVersion: storeRead(async () => {
    const [row] = await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'meeting_points_version'`
    return row?.value ?? "0"
  }),
  identity: storeRead(async () => {
    const [row] = await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'store_id'`
    return `postgres:${row!.value}`
  }),
  rates: storeRead(async () => {
    const rates: Record<CurrencyCode, number> = { ...DEFAULT_RATES }
    for (const { currency, per_eur } of await sql<Array<{ currency: string; per_eur: number }>>`SELECT currency, per_eur FROM rates`) {
      if ((CURRENCIES as ReadonlyArray<string>).includes(currency)) rates[currency as CurrencyCode] = per_eur
    }
    return rates as RateTable
  }),
  watchChanges: (onChange) =>
    Effect.promise(async () => {
      const listener = await listenForChanges(sql, () => onChange())
      return listener.close
    }),
  snapshots: makePostgresSnapshotShelf(sql)
})

/** Sets (or, with `undefined`, removes) the store's own rate of a currency, in units per EUR. */
export const setRate = async (sql: Sql, currency: CurrencyCode, perEur: number | undefined): Promise<void> => {
  if (perEur === undefined) await sql`DELETE FROM rates WHERE currency = ${currency}`
  else {
    if (!(perEur > 0) || !Number.isFinite(perEur)) throw new Error(`rate of ${currency} must be a positive number`)
    await sql`INSERT INTO rates (currency, per_eur) VALUES (${currency}, ${perEur}) ON CONFLICT (currency) DO UPDATE SET per_eur = excluded.per_eur`
  }
}

/** `url` without its user and password, to name the database in a message. */
const whereIs = (url: string): string => {
  try {
    const { host, pathname } = new URL(url)
    return `${host}${pathname}`
  } catch {
    return "(an unreadable URL)"
  }
}

/**
 * A connection pool to `url`, its schema brought up to date, closed when the scope closes. A
 * database that cannot be reached fails it at once with `StoreUnavailable` (it is not waited for).
 */
export const scopedPostgres = (url: string, max?: number) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const sql = connectPostgres(url, max === undefined ? {} : { max })
      try {
        await migrate(sql)
      } catch (e) {
        await sql.end({ timeout: 1 })
        if (isUnreachable(e)) throw new StoreUnavailable({ message: `PostgreSQL at ${whereIs(url)} cannot be reached: ${(e as Error).message}` })
        throw e
      }
      return sql
    }),
    (sql) => Effect.promise(() => sql.end({ timeout: 5 }))
  )

/** PostgreSQL adapter of the TripStore port. */
export class PostgresTripStore {
  /** Connects to `url` (migrating the database) for the layer's lifetime; disconnects on release. */
  static layer = (url: string): Layer.Layer<TripStore> => Layer.scoped(TripStore, Effect.map(scopedPostgres(url), makePostgresTripStore))

  /** The store over a pool the caller owns (and ends). */
  static layerSql = (sql: Sql): Layer.Layer<TripStore> => Layer.succeed(TripStore, makePostgresTripStore(sql))
}
