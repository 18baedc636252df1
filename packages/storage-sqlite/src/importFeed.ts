import { type ImportOptions, type ImportResult, readFeed, type FeedSource } from "@tripsearch/store-common"
import { activeMeetingPoints } from "./importMeetingPoints.js"
import { TRIPS_SCAN_INDEX } from "./migrations.js"
import { getMeta, setMeta, type SqliteDatabase } from "./openDatabase.js"

export type { ImportOptions, ImportResult } from "@tripsearch/store-common"

const UPSERT = `
  INSERT INTO trips (id, status, seq, departure_ms, currency, seats, seats_left, booking_type, flags, experience,
                     comfort_stars, packed, shown, zone_offsets, trip_json, road_stops, road_min_lat, road_max_lat, road_min_lon, road_max_lon)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (id) DO UPDATE SET
    status = excluded.status, seq = excluded.seq, departure_ms = excluded.departure_ms, currency = excluded.currency,
    seats = excluded.seats, seats_left = excluded.seats_left, booking_type = excluded.booking_type,
    flags = excluded.flags, experience = excluded.experience, comfort_stars = excluded.comfort_stars,
    packed = excluded.packed, shown = excluded.shown, zone_offsets = excluded.zone_offsets, trip_json = excluded.trip_json,
    road_stops = excluded.road_stops, road_min_lat = excluded.road_min_lat, road_max_lat = excluded.road_max_lat,
    road_min_lon = excluded.road_min_lon, road_max_lon = excluded.road_max_lon
  WHERE trips.trip_json IS NOT excluded.trip_json OR trips.zone_offsets IS NOT excluded.zone_offsets OR trips.packed IS NOT excluded.packed
     OR trips.road_stops IS NOT excluded.road_stops`

/**
 * Page cache of the import's connection while it runs, in KiB: a bulk load's B-tree pages stay in
 * memory instead of being written out and read back before the commit (measured in
 * docs/PERFORMANCE.md, Import). The connection's own size is restored afterwards.
 */
const IMPORT_CACHE_KIB = 256 * 1024

/**
 * Rows an import writes, beyond the store's own count, before it drops the covering index
 * `trips_scan` and builds it again before its commit: past the page cache, inserting into that
 * index in id order costs a random page each, where building it sorts once. Below this, the
 * rebuild would cost more than the inserts it saves.
 */
const BULK_ROWS = 50_000

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
 * An import that writes more rows than the store held (and at least `BULK_ROWS`) builds the covering
 * index of the index scan once, at its end, instead of inserting into it row by row.
 *
 * The transaction stays open across the reads of `source`: give the import a connection of its
 * own (other users of the same connection would see its uncommitted writes).
 */
export const importFeed = async (
  db: SqliteDatabase,
  source: FeedSource,
  options: ImportOptions & {
    /** `BULK_ROWS`, for tests of the bulk path on small feeds. */
    readonly bulkRows?: number
  } = {}
): Promise<ImportResult> => {
  if (db.inTransaction) throw new Error("importFeed: the connection is already in a transaction")
  const upsert = db.prepare(UPSERT)
  const meetingPoints = activeMeetingPoints(db)
  const cacheSize = db.pragma("cache_size", { simple: true }) as number
  db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`)
  const stored = db.prepare("SELECT count(*) FROM trips").pluck().get() as number
  const journal = stored === 0 ? intoRollbackJournal(db) : undefined
  db.exec("BEGIN IMMEDIATE")
  let seq = currentSeq(db)
  let changed = 0
  // Readers see the index as it was until the commit (WAL; a new store's first import has the
  // store to itself, see intoRollbackJournal), and a rollback restores it.
  const bulkAfter = Math.max(options.bulkRows ?? BULK_ROWS, stored)
  let bulk = false
  try {
    // The stops along the road come worked out with each row, from the decode threads.
    const read = await readFeed(source, options, meetingPoints, (row) => {
      const box = row.road_box
      const written = upsert.run(
        row.id, row.status, seq + 1, row.departure_ms, row.currency, row.seats, row.seats_left, row.booking_type,
        row.flags, row.experience, row.comfort_stars, row.packed, row.shown, row.zone_offsets, row.trip_json,
        row.road_stops, box?.[0] ?? null, box?.[1] ?? null, box?.[2] ?? null, box?.[3] ?? null
      )
      if (written.changes > 0) {
        seq++
        changed++
        if (changed === bulkAfter && !bulk) {
          db.exec("DROP INDEX trips_scan")
          bulk = true
        }
      }
    })
    if (!read.ok) {
      db.exec("ROLLBACK")
      return read
    }
    if (bulk) db.exec(TRIPS_SCAN_INDEX)
    if (changed > 0) {
      setMeta(db, "data_version", String(Number(getMeta(db, "data_version") ?? "0") + 1))
      setMeta(db, "last_import_at", new Date().toISOString())
    }
    db.exec("COMMIT")
    return { ok: true, imported: read.trips, unchanged: read.trips - changed, seq }
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK")
    throw e
  } finally {
    db.pragma(`cache_size = ${cacheSize}`)
    if (journal !== undefined) backToWal(db, journal)
  }
}

/** What `intoRollbackJournal` changed, for `backToWal`. */
interface JournalSwitch {
  readonly synchronous: number
}

/**
 * An import into a store without trips runs in a rollback journal rather than the WAL, when no
 * other connection has the store open (leaving WAL mode needs the store alone; otherwise the
 * import stays in WAL, as any other). In WAL mode every page of the new rows is written to the
 * WAL, read back at the commit and written again into the store at the checkpoint: at 1,000,000
 * trips with roads, a 7 GB store, that took about a quarter of the import
 * (docs/PERFORMANCE.md, Import). A rollback journal keeps only the pages the store had before,
 * and a store without trips has few: the new pages are written once, into the store file. The
 * import stays all or nothing (a bad line rolls back through the journal) and, with
 * `synchronous = FULL` meanwhile, safe from a crash as the WAL is. The import then has the store
 * to itself: a connection that opens it meanwhile may read it as it was (until the page cache
 * spills) but cannot write, nor set WAL mode, so `openDatabase` fails with "database is locked"
 * (a server started on the new store before the import ends; docs/PERFORMANCE.md, Import).
 */
const intoRollbackJournal = (db: SqliteDatabase): JournalSwitch | undefined => {
  if (db.memory || (db.pragma("journal_mode", { simple: true }) as string) !== "wal") return undefined
  const synchronous = db.pragma("synchronous", { simple: true }) as number
  const busyTimeout = db.pragma("busy_timeout", { simple: true }) as number
  let mode: unknown
  // Another connection holds the store: not worth waiting for, the import stays in WAL.
  db.pragma("busy_timeout = 0")
  try {
    mode = db.pragma("journal_mode = DELETE", { simple: true })
  } catch {
    mode = undefined
  } finally {
    db.pragma(`busy_timeout = ${busyTimeout}`)
  }
  if (mode !== "delete") return undefined
  db.pragma("synchronous = FULL")
  return { synchronous }
}

/**
 * The store back in WAL mode after `intoRollbackJournal`, with its `synchronous` setting. Never
 * throws: the import's outcome is settled by now, and a store that another connection keeps from
 * going back (after the busy timeout) is in WAL mode again at its next opening (`openDatabase`).
 */
const backToWal = (db: SqliteDatabase, journal: JournalSwitch): void => {
  db.pragma(`synchronous = ${journal.synchronous}`)
  try {
    db.pragma("journal_mode = WAL")
  } catch {
    // Left in the rollback journal until the next opening.
  }
}
