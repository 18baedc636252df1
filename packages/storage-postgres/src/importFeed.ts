import { once } from "node:events"
import { finished } from "node:stream/promises"
import type { Writable } from "node:stream"
import { type FeedSource, type ImportOptions, type ImportResult, readFeed, type RoadColumns, RoadStopper, type TripRow } from "@tripsearch/store-common"
import { activeMeetingPoints } from "./importMeetingPoints.js"
import type { Sql } from "./connectPostgres.js"

/** The channel every committed change is announced on, with the store's new change sequence number. */
export const CHANGES_CHANNEL = "tripsearch_changes"

/** Bytes of COPY data gathered before they are written to the connection. */
const COPY_CHUNK = 256 * 1024

const COLUMNS =
  "id, status, departure_ms, currency, seats, seats_left, booking_type, flags, experience, comfort_stars, packed, shown, zone_offsets, trip_json, " +
  "road_stops, road_min_lat, road_max_lat, road_min_lon, road_max_lon"

/** COPY's text format: a backslash, tab, newline or carriage return in a value is escaped. */
const text = (s: string): string => (/[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : s)
/** A bytea value in COPY's text format: `\x` and hex digits, its backslash escaped. */
const bytea = (b: Uint8Array): string => `\\\\x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex")}`

const copyLine = (line: number, r: TripRow, road: RoadColumns): string =>
  `${line}\t${text(r.id)}\t${r.status}\t${r.departure_ms}\t${text(r.currency)}\t${r.seats}\t${r.seats_left}\t${text(r.booking_type)}\t` +
  `${r.flags}\t${r.experience}\t${r.comfort_stars}\t${bytea(r.packed)}\t${bytea(r.shown)}\t${text(r.zone_offsets)}\t${text(r.trip_json)}\t` +
  `${road.road_stops === null ? "\\N" : text(road.road_stops)}\t${road.road_box === null ? "\\N\t\\N\t\\N\t\\N" : road.road_box.join("\t")}\n`

/** Thrown inside the transaction to roll it back when the feed has a bad line. */
class Rejected {
  constructor(readonly errors: ReadonlyArray<string>) {}
}

/**
 * Imports one NDJSON trip feed into the PostgreSQL store, with the SQLite store's rules and messages
 * (store-common's `readFeed`): all or nothing, every bad line reported as `line N: field: reason`.
 * In one transaction: the store's change sequence row is locked (imports take their turns, and
 * their numbers in commit order), the rows are loaded through COPY into a temporary table as the
 * feed is read, then the trips that differ from their stored row (same test as SQLite's: the decoded
 * trip, its zone offsets, its packed record) are upserted with the next sequence numbers in feed
 * order. An import that changes a trip bumps `data_version` and `last_import_at` and sends a NOTIFY
 * on `tripsearch_changes` with the new sequence number, delivered at commit; one that changes none
 * leaves every row, number and meta value as they were.
 */
export const importFeed = async (sql: Sql, source: FeedSource, options: ImportOptions = {}): Promise<ImportResult> => {
  try {
    return await sql.begin(async (tx) => {
      const [locked] = await tx<Array<{ seq: number }>>`SELECT seq FROM change_seq FOR UPDATE`
      const base = locked!.seq
      await tx.unsafe(`
        CREATE TEMPORARY TABLE import_rows (
          line integer NOT NULL, id text COLLATE "C" NOT NULL, status text NOT NULL, departure_ms bigint NOT NULL,
          currency text NOT NULL, seats integer NOT NULL, seats_left integer NOT NULL, booking_type text NOT NULL,
          flags integer NOT NULL, experience integer NOT NULL, comfort_stars integer NOT NULL, packed bytea NOT NULL,
          shown bytea NOT NULL, zone_offsets text NOT NULL, trip_json text NOT NULL, road_stops text,
          road_min_lat double precision, road_max_lat double precision, road_min_lon double precision, road_max_lon double precision
        ) ON COMMIT DROP`)
      const roads = new RoadStopper(await activeMeetingPoints(tx as unknown as Sql))
      const copy = (await tx.unsafe(`COPY import_rows (line, ${COLUMNS}) FROM STDIN`).writable()) as Writable
      let line = 0
      let chunk = ""
      const flush = async () => {
        const data = chunk
        chunk = ""
        if (!copy.write(data)) await once(copy, "drain")
      }
      let read: Awaited<ReturnType<typeof readFeed>>
      try {
        read = await readFeed(source, options, (row) => {
          chunk += copyLine(++line, row, roads.columnsOf(row.trip_json))
          return chunk.length >= COPY_CHUNK ? flush() : undefined
        })
        if (read.ok && chunk.length > 0) await flush()
      } catch (e) {
        // Sends CopyFail: the server leaves COPY, and the transaction is rolled back.
        copy.destroy(e instanceof Error ? e : new Error(String(e)))
        await finished(copy).catch(() => {})
        throw e
      }
      copy.end()
      await finished(copy)
      if (!read.ok) throw new Rejected(read.errors)
      const changed = await tx.unsafe(`
        INSERT INTO trips (${COLUMNS}, seq)
        SELECT ${COLUMNS.split(", ").map((c) => `s.${c}`).join(", ")}, $1::bigint + row_number() OVER (ORDER BY s.line)
        FROM import_rows s LEFT JOIN trips t ON t.id = s.id
        WHERE t.id IS NULL OR t.trip_json <> s.trip_json OR t.zone_offsets <> s.zone_offsets OR t.packed <> s.packed
           OR t.road_stops IS DISTINCT FROM s.road_stops
        ON CONFLICT (id) DO UPDATE SET
          status = excluded.status, seq = excluded.seq, departure_ms = excluded.departure_ms, currency = excluded.currency,
          seats = excluded.seats, seats_left = excluded.seats_left, booking_type = excluded.booking_type,
          flags = excluded.flags, experience = excluded.experience, comfort_stars = excluded.comfort_stars,
          packed = excluded.packed, shown = excluded.shown, zone_offsets = excluded.zone_offsets, trip_json = excluded.trip_json,
          road_stops = excluded.road_stops, road_min_lat = excluded.road_min_lat, road_max_lat = excluded.road_max_lat,
          road_min_lon = excluded.road_min_lon, road_max_lon = excluded.road_max_lon`, [base])
      const seq = base + changed.count
      if (changed.count > 0) {
        await tx`UPDATE change_seq SET seq = ${seq}`
        await tx`
          INSERT INTO meta (key, value) VALUES ('data_version', '1')
          ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`
        await tx`
          INSERT INTO meta (key, value) VALUES ('last_import_at', ${new Date().toISOString()})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`
        await tx`SELECT pg_notify(${CHANGES_CHANNEL}, ${String(seq)})`
      }
      return { ok: true as const, imported: read.trips, unchanged: read.trips - changed.count, seq }
    })
  } catch (e) {
    if (e instanceof Rejected) return { ok: false, errors: e.errors }
    throw e
  }
}
