import { Either } from "effect"
import { decodeFeedLineFast } from "./decodeFeedLineFast.js"
import { getMeta, setMeta, type SqliteDatabase } from "./openDatabase.js"
import { toTripRow } from "./packTrip.js"
import { readLines, type FeedSource } from "./readLines.js"
import { zoneOffsetsOf } from "./zoneOffsets.js"

export type ImportResult =
  | { readonly ok: true; readonly imported: number; readonly seq: number }
  | { readonly ok: false; readonly errors: ReadonlyArray<string> }

export interface ImportOptions {
  /** Called every `progressEvery` lines (default 10,000) with the number of lines read so far. */
  readonly onProgress?: (linesRead: number) => void
  readonly progressEvery?: number
}

const UPSERT = `
  INSERT INTO trips (id, status, seq, departure_ms, currency, seats, seats_left, booking_type, flags, experience,
                     comfort_stars, packed, zone_offsets, trip_json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
    status = excluded.status, seq = excluded.seq, departure_ms = excluded.departure_ms, currency = excluded.currency,
    seats = excluded.seats, seats_left = excluded.seats_left, booking_type = excluded.booking_type,
    flags = excluded.flags, experience = excluded.experience, comfort_stars = excluded.comfort_stars,
    packed = excluded.packed, zone_offsets = excluded.zone_offsets, trip_json = excluded.trip_json`

/** The last change sequence number committed to the store (0 when empty). */
export const currentSeq = (db: SqliteDatabase): number => db.prepare("SELECT coalesce(max(seq), 0) FROM trips").pluck().get() as number

/**
 * Imports one NDJSON trip feed (the feed format, `FeedTrip`), all or nothing: every line is decoded with core's
 * `decodeFeedLine` and written, as it is read, inside one write transaction; blank lines are
 * skipped. If any line is bad (or an id repeats within the file) the transaction is rolled back,
 * the store is left exactly as it was, and every bad line is returned as `line N: field: reason`.
 * A re-imported id replaces the trip and takes a new change sequence number (`seq`); a cancelled
 * trip keeps its row with `status = cancelled`.
 *
 * The transaction stays open across the reads of `source`: give the import a connection of its
 * own (other users of the same connection would see its uncommitted writes).
 */
export const importFeed = async (db: SqliteDatabase, source: FeedSource, options: ImportOptions = {}): Promise<ImportResult> => {
  if (db.inTransaction) throw new Error("importFeed: the connection is already in a transaction")
  const upsert = db.prepare(UPSERT)
  const progressEvery = options.progressEvery ?? 10_000
  const errors: Array<string> = []
  const seenOn = new Map<string, number>()
  let imported = 0
  db.exec("BEGIN IMMEDIATE")
  try {
    let seq = currentSeq(db)
    for await (const { n, text } of readLines(source)) {
      if (options.onProgress && n % progressEvery === 0) options.onProgress(n)
      if (text.trim() === "") continue
      const decoded = decodeFeedLineFast(text)
      if (Either.isLeft(decoded)) {
        for (const { field, reason } of decoded.left) errors.push(`line ${n}: ${field}: ${reason}`)
        continue
      }
      const trip = decoded.right
      const first = seenOn.get(trip.id)
      if (first !== undefined) {
        errors.push(`line ${n}: id: duplicate id "${trip.id}", already on line ${first}`)
        continue
      }
      seenOn.set(trip.id, n)
      if (errors.length > 0) continue // the file is rejected: keep validating, stop writing
      const row = toTripRow({ trip, zoneOffsets: zoneOffsetsOf(trip) })
      upsert.run(
        row.id, row.status, ++seq, row.departure_ms, row.currency, row.seats, row.seats_left, row.booking_type,
        row.flags, row.experience, row.comfort_stars, row.packed, row.zone_offsets, row.trip_json
      )
      imported++
    }
    if (errors.length > 0) {
      db.exec("ROLLBACK")
      return { ok: false, errors }
    }
    setMeta(db, "data_version", String(Number(getMeta(db, "data_version") ?? "0") + 1))
    setMeta(db, "last_import_at", new Date().toISOString())
    db.exec("COMMIT")
    return { ok: true, imported, seq }
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw e
  }
}
