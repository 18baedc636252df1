import { Either } from "effect"
import { decodeFeedLineFast } from "./decodeFeedLineFast.js"
import { getMeta, setMeta, type SqliteDatabase } from "./openDatabase.js"
import { toTripRow } from "./packTrip.js"
import { readLines, type FeedSource } from "./readLines.js"
import { zoneOffsetsOf } from "./zoneOffsets.js"

export type ImportResult =
  | {
      readonly ok: true
      /** Trips of the file (its non-blank lines). */
      readonly imported: number
      /** Those of them stored already exactly as the file gives them: they keep their row and `seq`. */
      readonly unchanged: number
      /** The store's change sequence number after the import. */
      readonly seq: number
    }
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
    packed = excluded.packed, zone_offsets = excluded.zone_offsets, trip_json = excluded.trip_json
  WHERE trips.trip_json IS NOT excluded.trip_json OR trips.zone_offsets IS NOT excluded.zone_offsets OR trips.packed IS NOT excluded.packed`

/**
 * Page cache of the import's connection while it runs, in KiB: a bulk load's B-tree pages stay in
 * memory instead of being written out and read back before the commit (measured in
 * docs/PERFORMANCE.md, Import). The connection's own size is restored afterwards.
 */
const IMPORT_CACHE_KIB = 256 * 1024

const hex = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** The last change sequence number committed to the store (0 when empty). */
export const currentSeq = (db: SqliteDatabase): number => db.prepare("SELECT coalesce(max(seq), 0) FROM trips").pluck().get() as number

/**
 * Imports one NDJSON trip feed (the feed format, `FeedTrip`), all or nothing: every line is decoded
 * once (`decodeFeedLineFast`, the same verdict and messages as core's `decodeFeedLine`) and written,
 * as it is read, inside one write transaction; blank lines are skipped, and so is a UTF-8
 * byte-order mark at the very start. If any line is bad (bytes that are not UTF-8, bad JSON, a bad
 * field, or an id repeated within the file) the transaction is rolled back, the store is left
 * exactly as it was, and every bad line is returned as `line N: field: reason`.
 *
 * A re-imported id whose row would be the same (same decoded trip, zone offsets and packed record)
 * is not a change: it keeps its row and `seq`. Any other re-imported id replaces the trip and
 * takes a new change sequence number; a cancelled trip keeps its row with `status = cancelled`.
 * Only an import that changes at least one trip moves the store's `data_version` and
 * `last_import_at`: an empty file, or one whose trips are all stored as given, leaves the store
 * exactly as it was.
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
  let changed = 0
  const cacheSize = db.pragma("cache_size", { simple: true }) as number
  db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`)
  db.exec("BEGIN IMMEDIATE")
  try {
    let seq = currentSeq(db)
    for await (const line of readLines(source)) {
      const n = line.n
      if (options.onProgress && n % progressEvery === 0) options.onProgress(n)
      if (line.invalidUtf8 !== undefined) {
        const { byte, lineOffset, sourceOffset } = line.invalidUtf8
        errors.push(`line ${n}: (line): must be valid UTF-8, got byte ${hex(byte)} at offset ${lineOffset} of the line (offset ${sourceOffset} of the feed)`)
        continue
      }
      const text = line.text
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
      const written = upsert.run(
        row.id, row.status, seq + 1, row.departure_ms, row.currency, row.seats, row.seats_left, row.booking_type,
        row.flags, row.experience, row.comfort_stars, row.packed, row.zone_offsets, row.trip_json
      )
      if (written.changes > 0) {
        seq++
        changed++
      }
      imported++
    }
    if (errors.length > 0) {
      db.exec("ROLLBACK")
      return { ok: false, errors }
    }
    if (changed > 0) {
      setMeta(db, "data_version", String(Number(getMeta(db, "data_version") ?? "0") + 1))
      setMeta(db, "last_import_at", new Date().toISOString())
    }
    db.exec("COMMIT")
    return { ok: true, imported, unchanged: imported - changed, seq }
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw e
  } finally {
    db.pragma(`cache_size = ${cacheSize}`)
  }
}
