import { once } from "node:events"
import { finished } from "node:stream/promises"
import type { Writable } from "node:stream"
import { type FeedRow, type FeedSource, type ImportOptions, type ImportResult, readFeed } from "@tripsearch/store-common"
import type { Sql } from "./connectPostgres.js"
import { activeMeetingPoints } from "./importMeetingPoints.js"

/** The channel every committed change is announced on, with the store's new change sequence number. */
export const CHANGES_CHANNEL = "tripsearch_changes"

/** Bytes of COPY data gathered before they are written to the connection. */
const COPY_CHUNK = 256 * 1024

/** COPY's text format: a backslash, tab, newline or carriage return in a value is escaped. */
const text = (s: string): string => (/[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r")) : s)
/** A bytea value in COPY's text format: `\x` and hex digits, its backslash escaped. */
const bytea = (b: Uint8Array): string => `\\\\x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex")}`

/** A column a feed's rows are copied into: its name, its type in a staging table, its value in COPY's text format. */
interface CopyColumn<R> {
  readonly name: string
  readonly type: string
  readonly value: (row: R) => string
  /** NULL allowed (COPY's `\N`). */
  readonly nullable?: boolean
}

const orNull = (x: string | number | null | undefined): string => (x === null || x === undefined ? "\\N" : typeof x === "string" ? text(x) : String(x))

/**
 * The trips table's columns as the feed fills them (all but `seq`), in one place: the staging
 * table, the COPY and the upsert are all written from it, so that a new column is one line here
 * (and one in a migration).
 */
const TRIP_COLUMNS: ReadonlyArray<CopyColumn<FeedRow>> = [
  { name: "id", type: 'text COLLATE "C"', value: (r) => text(r.id) },
  { name: "status", type: "text", value: (r) => r.status },
  { name: "departure_ms", type: "bigint", value: (r) => String(r.departure_ms) },
  { name: "currency", type: "text", value: (r) => text(r.currency) },
  { name: "seats", type: "integer", value: (r) => String(r.seats) },
  { name: "seats_left", type: "integer", value: (r) => String(r.seats_left) },
  { name: "booking_type", type: "text", value: (r) => text(r.booking_type) },
  { name: "flags", type: "integer", value: (r) => String(r.flags) },
  { name: "experience", type: "integer", value: (r) => String(r.experience) },
  { name: "comfort_stars", type: "integer", value: (r) => String(r.comfort_stars) },
  { name: "packed", type: "bytea", value: (r) => bytea(r.packed) },
  { name: "shown", type: "bytea", value: (r) => bytea(r.shown) },
  { name: "zone_offsets", type: "text", value: (r) => text(r.zone_offsets) },
  { name: "trip_json", type: "text", value: (r) => text(r.trip_json) },
  { name: "road_stops", type: "bytea", value: (r) => (r.road_stops === null ? "\\N" : bytea(r.road_stops)), nullable: true },
  { name: "road_min_lat", type: "double precision", value: (r) => orNull(r.road_box?.[0]), nullable: true },
  { name: "road_max_lat", type: "double precision", value: (r) => orNull(r.road_box?.[1]), nullable: true },
  { name: "road_min_lon", type: "double precision", value: (r) => orNull(r.road_box?.[2]), nullable: true },
  { name: "road_max_lon", type: "double precision", value: (r) => orNull(r.road_box?.[3]), nullable: true }
]
const TRIP_NAMES = TRIP_COLUMNS.map((c) => c.name)

/**
 * A `COPY table (columns) FROM STDIN` under way in `tx`: each row is prefixed with one number (the
 * feed's line, or the trip's change sequence number), gathered into chunks of `COPY_CHUNK`
 * characters, and written as the connection takes them.
 */
const openCopy = async <R>(tx: Sql, table: string, first: string, columns: ReadonlyArray<CopyColumn<R>>) => {
  const stream = (await tx.unsafe(`COPY ${table} (${first}, ${columns.map((c) => c.name).join(", ")}) FROM STDIN`).writable()) as Writable
  let chunk = ""
  const flush = async () => {
    const data = chunk
    chunk = ""
    if (!stream.write(data)) await once(stream, "drain")
  }
  return {
    /** Adds one row; a promise when the chunk was full and is being written (wait for it). */
    add: (prefix: number, row: R): Promise<void> | undefined => {
      let line = String(prefix)
      for (const c of columns) line += `\t${c.value(row)}`
      chunk += `${line}\n`
      return chunk.length >= COPY_CHUNK ? flush() : undefined
    },
    /** Ends the COPY: the rows are in the table. */
    end: async () => {
      if (chunk.length > 0) await flush()
      stream.end()
      await finished(stream)
    },
    /** Sends CopyFail: the server leaves COPY, and the transaction is rolled back. */
    fail: async (e: unknown) => {
      stream.destroy(e instanceof Error ? e : new Error(String(e)))
      await finished(stream).catch(() => {})
    }
  }
}

/** Thrown inside the transaction to roll it back when the feed has a bad line. */
class Rejected {
  constructor(readonly errors: ReadonlyArray<string>) {}
}

/**
 * Imports one NDJSON trip feed into the PostgreSQL store, with the SQLite store's rules and messages
 * (store-common's `readFeed`): all or nothing, every bad line reported as `line N: field: reason`.
 * In one transaction: the store's change sequence row is locked (imports take their turns, and
 * their numbers in commit order), then the rows are copied as the feed is read:
 * - into a store with no trips yet (a new deployment's first import, a rebuild), straight into
 *   `trips` through COPY, each trip numbered by its line: every trip is new, hence changed;
 * - else into a temporary table, from which the trips that differ from their stored row (same test
 *   as SQLite's: the decoded trip, its zone offsets, its packed record) are upserted with the next
 *   sequence numbers in feed order.
 * An import that changes a trip bumps `data_version` and `last_import_at` and sends a NOTIFY on
 * `tripsearch_changes` with the new sequence number, delivered at commit; one that changes none
 * leaves every row, number and meta value as they were.
 */
export const importFeed = async (sql: Sql, source: FeedSource, options: ImportOptions = {}): Promise<ImportResult> => {
  try {
    return await sql.begin(async (tx) => {
      const t = tx as unknown as Sql
      const [locked] = await tx<Array<{ seq: number }>>`SELECT seq FROM change_seq FOR UPDATE`
      const base = locked!.seq
      // The upsert's join and its numbering sort a whole feed: in memory rather than in batches on disk.
      await tx`SET LOCAL work_mem = '256MB'`
      const [{ empty } = { empty: false }] = await tx<Array<{ empty: boolean }>>`SELECT NOT EXISTS (SELECT 1 FROM trips) AS empty`
      if (!empty) {
        await tx.unsafe(`
          CREATE TEMPORARY TABLE import_rows (
            line integer NOT NULL, ${TRIP_COLUMNS.map((c) => `${c.name} ${c.type}${c.nullable === true ? "" : " NOT NULL"}`).join(", ")}
          ) ON COMMIT DROP`)
      }
      // Each trip's stops along the road, from the store's active meeting points (docs/FEED.md),
      // worked out where its line is decoded.
      const meetingPoints = await activeMeetingPoints(t)
      // Into an empty store each line is a new trip: its number is known as it is read.
      const copy = empty ? await openCopy(t, "trips", "seq", TRIP_COLUMNS) : await openCopy(t, "import_rows", "line", TRIP_COLUMNS)
      let line = 0
      let read: Awaited<ReturnType<typeof readFeed>>
      try {
        read = await readFeed(source, options, meetingPoints, (row) => copy.add(empty ? base + ++line : ++line, row))
      } catch (e) {
        await copy.fail(e)
        throw e
      }
      await copy.end()
      if (!read.ok) throw new Rejected(read.errors)
      const changed = empty
        ? line
        : (
            await tx.unsafe(
              `
        INSERT INTO trips (${TRIP_NAMES.join(", ")}, seq)
        SELECT ${TRIP_NAMES.map((c) => `s.${c}`).join(", ")}, $1::bigint + row_number() OVER (ORDER BY s.line)
        FROM import_rows s LEFT JOIN trips t ON t.id = s.id
        WHERE t.id IS NULL OR t.trip_json <> s.trip_json OR t.zone_offsets <> s.zone_offsets OR t.packed <> s.packed
           OR t.road_stops IS DISTINCT FROM s.road_stops
        ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, ${TRIP_NAMES.filter((c) => c !== "id").map((c) => `${c} = excluded.${c}`).join(", ")}`,
              [base]
            )
          ).count
      const seq = base + changed
      if (changed > 0) {
        await tx`UPDATE change_seq SET seq = ${seq}`
        await tx`
          INSERT INTO meta (key, value) VALUES ('data_version', '1')
          ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`
        await tx`
          INSERT INTO meta (key, value) VALUES ('last_import_at', ${new Date().toISOString()})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`
        await tx`SELECT pg_notify(${CHANGES_CHANNEL}, ${String(seq)})`
      }
      return { ok: true as const, imported: read.trips, unchanged: read.trips - changed, seq }
    })
  } catch (e) {
    if (e instanceof Rejected) return { ok: false, errors: e.errors }
    throw e
  }
}
