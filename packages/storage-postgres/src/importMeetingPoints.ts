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
 * Meeting points, or trips, read and written per statement: a round trip per line or per trip
 * made an import touching every trip of a large store take hundreds of thousands of them.
 */
export const MEETING_POINT_BATCH = 2_000

/** `xs` in slices of `n`, in order. */
function* slices<A>(xs: ReadonlyArray<A>, n: number): Generator<ReadonlyArray<A>> {
  for (let i = 0; i < xs.length; i += n) yield xs.slice(i, i + n)
}

/**
 * Imports a meeting point feed, all or nothing, and in the same transaction works out again the
 * stops along the road of every trip whose road may pass a meeting point that changed; the trips
 * whose stops changed take new change sequence numbers and are announced (as the SQLite store's
 * `importMeetingPoints` describes). Rows are read and written `batch` at a time, with the results
 * of doing it line by line and trip by trip (a feed gives each id once).
 */
export const importMeetingPoints = async (sql: Sql, source: FeedSource, batch = MEETING_POINT_BATCH): Promise<MeetingPointImportResult> => {
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
    for (const points of slices(read.meetingPoints, batch)) {
      const stored = await tx<Array<{ id: number; status: string; lat: number; lon: number; mp_json: string }>>`
        SELECT id, status, lat, lon, mp_json FROM meeting_points WHERE id = ANY(${tx.array(points.map((mp) => mp.id))}::integer[])`
      const before = new Map(stored.map((r) => [r.id, r]))
      const changed: Array<readonly [StoredMeetingPoint, string]> = []
      for (const mp of points) {
        const json = JSON.stringify(mp)
        const old = before.get(mp.id)
        if (old !== undefined && old.mp_json === json) {
          unchanged++
          continue
        }
        if (old !== undefined && old.status === "active") places.push([old.lat, old.lon])
        if (mp.status === "active") places.push([mp.lat, mp.lon])
        changed.push([mp, json])
      }
      if (changed.length === 0) continue
      // One statement for the batch: a column per array, unnested side by side.
      await tx`
        INSERT INTO meeting_points (id, status, lat, lon, mp_json, version)
        SELECT v.*, ${version}::bigint FROM unnest(
          ${tx.array(changed.map(([mp]) => mp.id))}::integer[], ${tx.array(changed.map(([mp]) => mp.status))}::text[],
          ${tx.array(changed.map(([mp]) => mp.lat))}::double precision[], ${tx.array(changed.map(([mp]) => mp.lon))}::double precision[],
          ${tx.array(changed.map(([, json]) => json))}::text[]) AS v
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
      // Numbered in the order JavaScript sorts the ids, as the SQLite store numbers them: each
      // slice is read by its ids and gone through in that order.
      for (const ids of slices([...candidates].sort(), batch)) {
        const rows = await tx<Array<{ id: string; trip_json: string; road_stops: Buffer | null }>>`
          SELECT id, trip_json, road_stops FROM trips WHERE id = ANY(${tx.array([...ids])}::text[])`
        const byId = new Map(rows.map((r) => [r.id, r]))
        const set: Array<string> = []
        const hex: Array<string | null> = []
        const seqs: Array<number> = []
        for (const id of ids) {
          const row = byId.get(id)!
          const next = roads.columnsOf(row.trip_json).road_stops
          if (sameRoadStops(next, row.road_stops)) continue
          set.push(id)
          hex.push(next === null ? null : next.toString("hex"))
          seqs.push(++seq)
        }
        if (set.length === 0) continue
        // The stops go as hex text that the server decodes, as the road_stops migration sends
        // them: an array of Buffers and nulls would need its element type spelt out.
        // The new numbers are above every stored one, so the unique index on seq never meets
        // two rows with one number while the statement runs.
        await tx`
          UPDATE trips SET road_stops = decode(v.hex, 'hex'), seq = v.seq
          FROM unnest(${tx.array(set)}::text[], ${tx.array(hex)}::text[], ${tx.array(seqs)}::bigint[]) AS v(id, hex, seq)
          WHERE trips.id = v.id`
        trips += set.length
      }
      if (trips > 0) await tx`UPDATE change_seq SET seq = ${seq}`
    }
    if (unchanged < read.meetingPoints.length) {
      await tx`SELECT pg_notify(${CHANGES_CHANNEL}, ${String(seq)})`
    }
    return { ok: true as const, imported: read.meetingPoints.length, unchanged, trips, seq }
  }) as Promise<MeetingPointImportResult>
}
