import { type StoredMeetingPoint } from "@tripsearch/core"
import { type FeedSource, passBox, readMeetingPoints, RoadStopper, sameRoadStops } from "@tripsearch/store-common"
import { getMeta, setMeta, type SqliteDatabase } from "./openDatabase.js"
import { currentSeq } from "./importFeed.js"

export type MeetingPointImportResult =
  | {
      readonly ok: true
      /** Meeting points of the file. */
      readonly imported: number
      /** Those stored already exactly as the file gives them. */
      readonly unchanged: number
      /** Trips whose stops along the road changed (each took a new change sequence number). */
      readonly trips: number
      readonly seq: number
    }
  | { readonly ok: false; readonly errors: ReadonlyArray<string> }

/** The store's active meeting points, as the stops along the road are worked out from them. */
export const activeMeetingPoints = (db: SqliteDatabase): Array<Pick<StoredMeetingPoint, "id" | "lat" | "lon" | "status">> =>
  db.prepare("SELECT id, lat, lon, status FROM meeting_points WHERE status = 'active'").all() as Array<Pick<StoredMeetingPoint, "id" | "lat" | "lon" | "status">>

/** Past this many moved, added or removed meeting points, every trip with a road is looked at again. */
const LOOK_AT_ALL_AFTER = 64

/**
 * Imports a meeting point feed (docs/FEED.md), all or nothing: every bad line reported, nothing
 * written then. A meeting point is replaced by its id. In the same transaction, every trip whose
 * road may pass a meeting point added, moved, changed or removed (its old and new places) has its
 * stops along the road worked out again, and those that changed take a new change sequence number,
 * so that servers following the store see them within a second, like any trip change.
 */
export const importMeetingPoints = async (db: SqliteDatabase, source: FeedSource): Promise<MeetingPointImportResult> => {
  if (db.inTransaction) throw new Error("importMeetingPoints: the connection is already in a transaction")
  const read = await readMeetingPoints(source)
  if (!read.ok) return read
  const old = db.prepare("SELECT status, lat, lon, mp_json FROM meeting_points WHERE id = ?").raw()
  const upsert = db.prepare(
    "INSERT INTO meeting_points (id, status, lat, lon, mp_json, version) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status, lat = excluded.lat, lon = excluded.lon, mp_json = excluded.mp_json, version = excluded.version"
  )
  const inBox = db
    .prepare(
      "SELECT id FROM trips WHERE road_min_lat IS NOT NULL AND road_min_lat <= ? AND road_max_lat >= ? AND road_min_lon <= ? AND road_max_lon >= ? AND status = 'active'"
    )
    .pluck()
  const withRoad = db.prepare("SELECT id FROM trips WHERE road_min_lat IS NOT NULL AND status = 'active'").pluck()
  const tripOf = db.prepare("SELECT trip_json, road_stops FROM trips WHERE id = ?").raw()
  const setStops = db.prepare("UPDATE trips SET road_stops = ?, seq = ? WHERE id = ?")
  db.exec("BEGIN IMMEDIATE")
  try {
    let unchanged = 0
    const places: Array<readonly [number, number]> = []
    const version = Number(getMeta(db, "meeting_points_version") ?? "0") + 1
    for (const mp of read.meetingPoints) {
      const json = JSON.stringify(mp)
      const before = old.get(mp.id) as [string, number, number, string] | undefined
      if (before !== undefined && before[3] === json) {
        unchanged++
        continue
      }
      if (before !== undefined && before[0] === "active") places.push([before[1], before[2]])
      if (mp.status === "active") places.push([mp.lat, mp.lon])
      upsert.run(mp.id, mp.status, mp.lat, mp.lon, json, version)
    }
    let seq = currentSeq(db)
    let trips = 0
    // A meeting point changed in place (a new name) moves no stop, but its followers must read it again.
    if (unchanged < read.meetingPoints.length) setMeta(db, "meeting_points_version", String(version))
    if (places.length > 0) {
      const candidates = new Set<string>()
      if (places.length > LOOK_AT_ALL_AFTER) for (const id of withRoad.iterate() as IterableIterator<string>) candidates.add(id)
      else {
        for (const [lat, lon] of places) {
          const [minLat, maxLat, minLon, maxLon] = passBox(lat, lon)
          for (const id of inBox.iterate(maxLat, minLat, maxLon, minLon) as IterableIterator<string>) candidates.add(id)
        }
      }
      const roads = new RoadStopper(activeMeetingPoints(db))
      for (const id of [...candidates].sort()) {
        const [tripJson, stops] = tripOf.get(id) as [string, Buffer | null]
        const next = roads.columnsOf(tripJson).road_stops
        if (sameRoadStops(next, stops)) continue
        setStops.run(next, ++seq, id)
        trips++
      }
      setMeta(db, "data_version", String(Number(getMeta(db, "data_version") ?? "0") + 1))
    }
    db.exec("COMMIT")
    return { ok: true, imported: read.meetingPoints.length, unchanged, trips, seq }
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw e
  }
}
