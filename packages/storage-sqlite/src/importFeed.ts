import { availableParallelism } from "node:os"
import { decodeFeedLines, type DecodedLine } from "./decodeFeedLines.js"
import { FeedDecodePool } from "./FeedDecodePool.js"
import { getMeta, setMeta, type SqliteDatabase } from "./openDatabase.js"
import { readLines, type FeedSource } from "./readLines.js"

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
  /**
   * Worker threads that decode lines while this thread writes (default: the machine's cores, at
   * most 4; 0 decodes here). They start only once `decodeThreadsAfter` lines (default 20,000)
   * have been decoded here: a small feed does not wait for threads to load.
   */
  readonly decodeThreads?: number
  readonly decodeThreadsAfter?: number
}

/** Lines per batch handed to a worker, and batches in flight per worker. */
const BATCH_LINES = 500
const IN_FLIGHT_PER_THREAD = 4

/** A batch's lines as read: each non-blank line with its number, or the error of a line that is not UTF-8. */
interface Batch {
  readonly n: Array<number>
  readonly texts: Array<string>
  readonly errors: Array<string | undefined>
}

const UPSERT = `
  INSERT INTO trips (id, status, seq, departure_ms, currency, seats, seats_left, booking_type, flags, experience,
                     comfort_stars, packed, shown, zone_offsets, trip_json)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
    status = excluded.status, seq = excluded.seq, departure_ms = excluded.departure_ms, currency = excluded.currency,
    seats = excluded.seats, seats_left = excluded.seats_left, booking_type = excluded.booking_type,
    flags = excluded.flags, experience = excluded.experience, comfort_stars = excluded.comfort_stars,
    packed = excluded.packed, shown = excluded.shown, zone_offsets = excluded.zone_offsets, trip_json = excluded.trip_json
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
  const threads = Math.max(0, options.decodeThreads ?? Math.min(4, availableParallelism()))
  const threadsAfter = options.decodeThreadsAfter ?? 20_000
  const errors: Array<string> = []
  const seenOn = new Map<string, number>()
  let imported = 0
  let changed = 0
  let decodedHere = 0
  let pool: FeedDecodePool | undefined
  /** Decoded batches not yet written, in the order of the feed. */
  const inFlight: Array<{ batch: Batch; decoded: Promise<Array<DecodedLine>> }> = []
  const cacheSize = db.pragma("cache_size", { simple: true }) as number
  db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`)
  db.exec("BEGIN IMMEDIATE")
  let seq = currentSeq(db)

  const write = (batch: Batch, decoded: ReadonlyArray<DecodedLine>) => {
    for (let k = 0; k < batch.n.length; k++) {
      const n = batch.n[k]!
      const error = batch.errors[k]
      if (error !== undefined) {
        errors.push(error)
        continue
      }
      const d = decoded[k]!
      if (d.row === undefined) {
        for (const { field, reason } of d.issues) errors.push(`line ${n}: ${field}: ${reason}`)
        continue
      }
      const row = d.row
      const first = seenOn.get(row.id)
      if (first !== undefined) {
        errors.push(`line ${n}: id: duplicate id "${row.id}", already on line ${first}`)
        continue
      }
      seenOn.set(row.id, n)
      if (errors.length > 0) continue // the file is rejected: keep validating, stop writing
      const written = upsert.run(
        row.id, row.status, seq + 1, row.departure_ms, row.currency, row.seats, row.seats_left, row.booking_type,
        row.flags, row.experience, row.comfort_stars, row.packed, row.shown, row.zone_offsets, row.trip_json
      )
      if (written.changes > 0) {
        seq++
        changed++
      }
      imported++
    }
  }

  const dispatch = async (batch: Batch) => {
    if (pool === undefined && threads > 0 && decodedHere >= threadsAfter) pool = new FeedDecodePool(threads)
    if (pool === undefined) {
      decodedHere += batch.texts.length
      write(batch, decodeFeedLines(batch.texts))
      return
    }
    const decoded = pool.decode(batch.texts)
    decoded.catch(() => {}) // awaited in turn below; a failed pool must not also be an unhandled rejection
    inFlight.push({ batch, decoded })
    if (inFlight.length >= threads * IN_FLIGHT_PER_THREAD) {
      const next = inFlight.shift()!
      write(next.batch, await next.decoded)
    }
  }

  try {
    let batch: Batch = { n: [], texts: [], errors: [] }
    for await (const line of readLines(source)) {
      const n = line.n
      if (options.onProgress && n % progressEvery === 0) options.onProgress(n)
      if (line.invalidUtf8 !== undefined) {
        const { byte, lineOffset, sourceOffset } = line.invalidUtf8
        batch.n.push(n)
        batch.texts.push("")
        batch.errors.push(`line ${n}: (line): must be valid UTF-8, got byte ${hex(byte)} at offset ${lineOffset} of the line (offset ${sourceOffset} of the feed)`)
      } else if (line.text.trim() !== "") {
        batch.n.push(n)
        batch.texts.push(line.text)
        batch.errors.push(undefined)
      }
      if (batch.n.length >= BATCH_LINES) {
        await dispatch(batch)
        batch = { n: [], texts: [], errors: [] }
      }
    }
    if (batch.n.length > 0) await dispatch(batch)
    while (inFlight.length > 0) {
      const next = inFlight.shift()!
      write(next.batch, await next.decoded)
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
    await pool?.close()
  }
}
