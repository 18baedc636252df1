import {
  applyMeetingPointChanges,
  CURRENCIES,
  DEFAULT_RATES,
  type CurrencyCode,
  encodeShown,
  type FeedTrip,
  type IndexRecord,
  type RateTable,
  type StoredMeetingPoint,
  type StoredTrip,
  TripStore
} from "@tripsearch/core"
import { Effect, Layer, Option } from "effect"
import { openDatabase, type SqliteDatabase } from "./openDatabase.js"
import { INDEX_COLUMNS, readRoadStops, unpackRecord } from "@tripsearch/store-common"

const storedFrom = (tripJson: string, zoneOffsets: string, roadStops: Buffer | null): StoredTrip => {
  const stops = readRoadStops(roadStops)
  return {
    trip: JSON.parse(tripJson) as FeedTrip,
    zoneOffsets: JSON.parse(zoneOffsets) as Array<number>,
    ...(stops !== undefined ? { roadStops: stops } : {})
  }
}

/**
 * An index record from a raw row of INDEX_COLUMNS then `shown`, with what a search shows of the
 * trip: its `shown` column, or for a row imported before that column, encoded from its trip_json.
 */
const shownRecord = (row: ReadonlyArray<unknown>, tripJson: (id: string) => string): IndexRecord => {
  const shown = row[2] as Uint8Array | null
  const id = row[0] as string
  const record = unpackRecord(id, row[1] as Uint8Array, shown ?? encodeShown(JSON.parse(tripJson(id)) as FeedTrip))
  const road = readRoadStops(row[3] as Buffer | null)
  return road === undefined ? record : { ...record, road }
}

/** The TripStore service over an open database (the caller owns the connection). */
export const makeSqliteTripStore = (db: SqliteDatabase): TripStore["Type"] => {
  const getOne = db.prepare("SELECT trip_json, zone_offsets, road_stops FROM trips WHERE id = ?").raw()
  const getMany = db.prepare("SELECT id, trip_json, zone_offsets, road_stops FROM trips WHERE id IN (SELECT value FROM json_each(?))").raw()
  // What a search shows of a trip goes into the index too, from the covering index `trips_scan`.
  const scanActive = db.prepare(`SELECT ${INDEX_COLUMNS}, shown, road_stops FROM trips WHERE status = 'active'`).raw()
  const changed = db.prepare(`SELECT status, ${INDEX_COLUMNS}, shown, road_stops FROM trips WHERE seq > ? ORDER BY seq`).raw()
  const allMeetingPoints = db.prepare("SELECT mp_json FROM meeting_points WHERE status = 'active' ORDER BY id").pluck()
  const activeMeetingPoints = (): Map<number, StoredMeetingPoint> => {
    const byId = new Map<number, StoredMeetingPoint>()
    for (const json of allMeetingPoints.all() as Array<string>) {
      const mp = JSON.parse(json) as StoredMeetingPoint
      byId.set(mp.id, mp)
    }
    return byId
  }
  const mpVersion = db.prepare("SELECT value FROM meta WHERE key = 'meeting_points_version'").pluck()
  // The meeting points that searches name, all of them, as of `version` (see `meetingPoints`).
  let heldMeetingPoints: { version: string; readonly byId: Map<number, StoredMeetingPoint> } | undefined
  const meetingPointsAfter = db.prepare("SELECT mp_json FROM meeting_points WHERE version > ? ORDER BY id").pluck()
  /** The meeting point rows imports changed after `version`, any status. */
  const meetingPointsChangedAfter = (version: string): Array<StoredMeetingPoint> =>
    (meetingPointsAfter.all(Number(version)) as Array<string>).map((json) => JSON.parse(json) as StoredMeetingPoint)
  const tripJsonOf = db.prepare("SELECT trip_json FROM trips WHERE id = ?").pluck()
  const tripJson = (id: string): string => tripJsonOf.get(id) as string
  const maxSeq = db.prepare("SELECT coalesce(max(seq), 0) FROM trips").pluck()
  const rateRows = db.prepare("SELECT currency, per_eur FROM rates").raw()
  const storeId = db.prepare("SELECT value FROM meta WHERE key = 'store_id'").pluck()

  const scan = db.transaction((onRecord: (record: IndexRecord) => void): number => {
    const seq = maxSeq.get() as number
    for (const row of scanActive.iterate() as IterableIterator<Array<unknown>>) onRecord(shownRecord(row, tripJson))
    return seq
  })

  const changesSince = db.transaction((since: number) => {
    const upserts: Array<IndexRecord> = []
    const removed: Array<string> = []
    for (const row of changed.iterate(since) as IterableIterator<Array<unknown>>) {
      if (row[0] === "active") upserts.push(shownRecord(row.slice(1), tripJson))
      else removed.push(row[1] as string)
    }
    return { seq: maxSeq.get() as number, upserts, removed }
  })

  return {
    getTrip: (id) =>
      Effect.sync(() => {
        const row = getOne.get(id) as [string, string, Buffer | null] | undefined
        return row === undefined ? Option.none() : Option.some(storedFrom(row[0], row[1], row[2]))
      }),
    getTrips: (ids) =>
      Effect.sync(() => {
        const out = new Map<string, StoredTrip>()
        if (ids.length === 0) return out
        for (const [id, json, zones, stops] of getMany.all(JSON.stringify(ids)) as Array<[string, string, string, Buffer | null]>) {
          out.set(id, storedFrom(json, zones, stops))
        }
        return out
      }),
    meetingPoints: (ids) =>
      Effect.sync(() => {
        const out = new Map<number, StoredMeetingPoint>()
        if (ids !== undefined && ids.length === 0) return out
        if (ids === undefined) return activeMeetingPoints()
        // A search that shows stops along the road names their meeting points: all are kept parsed,
        // read whole once (0.2 s for 34,000) and then brought up to date from the rows imports
        // changed since, as the pool's writer does; one indexed read a search while the version
        // stays. Read when first named instead, each such read was a cold one (~0.1 ms a search on
        // the heavy mix, docs/PERFORMANCE.md).
        const version = (mpVersion.get() as string | undefined) ?? "0"
        if (heldMeetingPoints === undefined || Number(version) < Number(heldMeetingPoints.version)) {
          heldMeetingPoints = { version, byId: activeMeetingPoints() }
        } else if (heldMeetingPoints.version !== version) {
          // Rows an import commits between the two reads are applied now and again next time.
          applyMeetingPointChanges(heldMeetingPoints.byId, meetingPointsChangedAfter(heldMeetingPoints.version))
          heldMeetingPoints.version = version
        }
        const { byId } = heldMeetingPoints
        for (const id of ids) {
          const mp = byId.get(id)
          if (mp !== undefined) out.set(id, mp)
        }
        return out
      }),
    scanIndex: (onRecord) => Effect.sync(() => scan.deferred(onRecord)),
    changesSince: (seq) => Effect.sync(() => changesSince.deferred(seq)),
    identity: Effect.sync(() => `sqlite:${storeId.get() as string}`),
    meetingPointsVersion: Effect.sync(() => (mpVersion.get() as string | undefined) ?? "0"),
    meetingPointsSince: (version) => Effect.sync(() => meetingPointsChangedAfter(version)),
    rates: Effect.sync(() => {
      const rates: Record<CurrencyCode, number> = { ...DEFAULT_RATES }
      for (const [currency, perEur] of rateRows.all() as Array<[string, number]>) {
        if ((CURRENCIES as ReadonlyArray<string>).includes(currency)) rates[currency as CurrencyCode] = perEur
      }
      return rates as RateTable
    })
  }
}

/** Sets (or, with `undefined`, removes) the store's own rate of a currency, in units per EUR. */
export const setRate = (db: SqliteDatabase, currency: CurrencyCode, perEur: number | undefined): void => {
  if (perEur === undefined) db.prepare("DELETE FROM rates WHERE currency = ?").run(currency)
  else {
    if (!(perEur > 0) || !Number.isFinite(perEur)) throw new Error(`rate of ${currency} must be a positive number`)
    db.prepare("INSERT INTO rates (currency, per_eur) VALUES (?, ?) ON CONFLICT (currency) DO UPDATE SET per_eur = excluded.per_eur").run(currency, perEur)
  }
}

const scopedDatabase = (path: string) =>
  Effect.acquireRelease(
    Effect.sync(() => openDatabase(path)),
    (db) => Effect.sync(() => db.close())
  )

/** SQLite adapter of the TripStore port. */
export class SqliteTripStore {
  /** Opens the store at `path` (migrating it) for the layer's lifetime; closes it on release. */
  static layer = (path: string): Layer.Layer<TripStore> =>
    Layer.scoped(TripStore, Effect.map(scopedDatabase(path), makeSqliteTripStore))

  /** The store over a connection the caller owns (and closes). */
  static layerDatabase = (db: SqliteDatabase): Layer.Layer<TripStore> => Layer.succeed(TripStore, makeSqliteTripStore(db))

  /** A fresh, empty in-memory store. */
  static layerTest: Layer.Layer<TripStore> = SqliteTripStore.layer(":memory:")
}
