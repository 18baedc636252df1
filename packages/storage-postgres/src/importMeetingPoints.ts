import type { StoredMeetingPoint } from "@tripsearch/core"
import { type FeedSource, passBox, readMeetingPoints, RoadStopper, sameRoadStops } from "@tripsearch/store-common"
import type { Sql } from "./connectPostgres.js"
import { CHANGES_CHANNEL } from "./importFeed.js"

export type MeetingPointImportResult =
  | { readonly ok: true; readonly imported: number; readonly unchanged: number; readonly trips: number; readonly seq: number }
  | { readonly ok: false; readonly errors: ReadonlyArray<string> }

type Place = Pick<StoredMeetingPoint, "id" | "lat" | "lon" | "status">

/** The store's active meeting points, as the stops along the road are worked out from them. */
export const activeMeetingPoints = async (sql: Sql): Promise<Array<Place>> =>
  (await sql<Array<Place>>`SELECT id, lat, lon, status FROM meeting_points WHERE status = 'active'`).map((r) => ({ ...r }))

const LOOK_AT_ALL_AFTER = 64

/**
 * Imports a meeting point feed, all or nothing, and in the same transaction works out again the
 * stops along the road of every trip whose road may pass a meeting point that changed; the trips
 * whose stops changed take new change sequence numbers and are announced (as the SQLite store's
 * `importMeetingPoints` describes).
 */
export const importMeetingPoints = async (sql: Sql, source: FeedSource): Promise<MeetingPointImportResult> => {
  const read = await readMeetingPoints(source)
  if (!read.ok) return read
  return sql.begin(async (tx0) => {
    const tx = tx0 as unknown as Sql
    const [locked] = await tx<Array<{ seq: number }>>`SELECT seq FROM change_seq FOR UPDATE`
    let seq = Number(locked!.seq)
    let unchanged = 0
    const places: Array<readonly [number, number]> = []
    const [known] = await tx<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'meeting_points_version'`
    const version = Number(known?.value ?? "0") + 1
    for (const mp of read.meetingPoints) {
      const json = JSON.stringify(mp)
      const [before] = await tx<Array<{ status: string; lat: number; lon: number; mp_json: string }>>`
        SELECT status, lat, lon, mp_json FROM meeting_points WHERE id = ${mp.id}`
      if (before !== undefined && before.mp_json === json) {
        unchanged++
        continue
      }
      if (before !== undefined && before.status === "active") places.push([before.lat, before.lon])
      if (mp.status === "active") places.push([mp.lat, mp.lon])
      await tx`
        INSERT INTO meeting_points (id, status, lat, lon, mp_json, version) VALUES (${mp.id}, ${mp.status}, ${mp.lat}, ${mp.lon}, ${json}, ${version})
        ON CONFLICT (id) DO UPDATE SET status = excluded.status, lat = excluded.lat, lon = excluded.lon, mp_json = excluded.mp_json, version = excluded.version`
    }
    let trips = 0
    if (unchanged < read.meetingPoints.length) {
      await tx`
        INSERT INTO meta (key, value) VALUES ('meeting_points_version', ${String(version)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`
    }
    if (places.length > 0) {
      const candidates = new Set<string>()
      if (places.length > LOOK_AT_ALL_AFTER) {
        for (const r of await tx<Array<{ id: string }>>`SELECT id FROM trips WHERE road_min_lat IS NOT NULL AND status = 'active'`) candidates.add(r.id)
      } else {
        for (const [lat, lon] of places) {
          const [minLat, maxLat, minLon, maxLon] = passBox(lat, lon)
          const rows = await tx<Array<{ id: string }>>`
            SELECT id FROM trips WHERE road_min_lat IS NOT NULL AND road_min_lat <= ${maxLat} AND road_max_lat >= ${minLat}
              AND road_min_lon <= ${maxLon} AND road_max_lon >= ${minLon} AND status = 'active'`
          for (const r of rows) candidates.add(r.id)
        }
      }
      const roads = new RoadStopper(await activeMeetingPoints(tx))
      for (const id of [...candidates].sort()) {
        const [row] = await tx<Array<{ trip_json: string; road_stops: Buffer | null }>>`SELECT trip_json, road_stops FROM trips WHERE id = ${id}`
        const next = roads.columnsOf(row!.trip_json).road_stops
        if (sameRoadStops(next, row!.road_stops)) continue
        seq++
        await tx`UPDATE trips SET road_stops = ${next}, seq = ${seq} WHERE id = ${id}`
        trips++
      }
      if (trips > 0) await tx`UPDATE change_seq SET seq = ${seq}`
    }
    if (unchanged < read.meetingPoints.length) {
      await tx`SELECT pg_notify(${CHANGES_CHANNEL}, ${String(seq)})`
    }
    return { ok: true as const, imported: read.meetingPoints.length, unchanged, trips, seq }
  }) as Promise<MeetingPointImportResult>
}
