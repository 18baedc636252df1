import { availableParallelism } from "node:os"
import { decodeNumberedLines, type FeedRow, type LineResult } from "./decodeFeedLines.js"
import { FeedDecodePool } from "./FeedDecodePool.js"
import { type LineBytes, linesIn, type NumberedLine, readLineBatches, type FeedSource } from "./readLines.js"
import { type RoadMeetingPoint, RoadStopper } from "./roadStopColumns.js"

/** What an import of one feed file did, whichever store it went into. */
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
   * most 4; 0 decodes here). They start only once `decodeThreadsAfter` lines (default 20,000,
   * or 4,000 when the store has active meeting points) have been decoded here: a small feed does
   * not wait for threads to load.
   */
  readonly decodeThreads?: number
  readonly decodeThreadsAfter?: number
}

/** What reading a feed gave: the number of trips (all written), or every bad line's messages. */
export type FeedRead = { readonly ok: true; readonly trips: number } | { readonly ok: false; readonly errors: ReadonlyArray<string> }

/** Lines per batch handed to a worker, and batches in flight per worker. */
const BATCH_LINES = 500
const IN_FLIGHT_PER_THREAD = 4

/**
 * Reads one NDJSON trip feed (the feed format, `FeedTrip`) the way every store imports it: each
 * line is decoded once (`decodeFeedLineFast`, the same verdict and messages as core's
 * `decodeFeedLine`), blank lines are skipped, and so is a UTF-8 byte-order mark at the very start.
 * Each row comes with its road's columns, its stops along the road worked out from
 * `meetingPoints` (the store's active ones) where the line is decoded, in the decode threads.
 * Each good line's row goes to `write` in feed order, as it is read, until a line is bad (bytes
 * that are not UTF-8, bad JSON, a bad field, or an id repeated within the file): from then on the
 * rest is only checked, so that every bad line is reported as `line N: field: reason`, and the
 * caller is to roll back what it wrote. `write` may return a promise (a stream's backpressure),
 * which is awaited before the next row.
 */
export const readFeed = async (
  source: FeedSource,
  options: ImportOptions,
  meetingPoints: ReadonlyArray<RoadMeetingPoint>,
  write: (row: FeedRow) => void | Promise<void>
): Promise<FeedRead> => {
  const progressEvery = options.progressEvery ?? 10_000
  const threads = Math.max(0, options.decodeThreads ?? Math.min(4, availableParallelism()))
  // A line whose stops along the road are worked out costs about five times one without: the
  // threads pay for their start sooner.
  const threadsAfter = options.decodeThreadsAfter ?? (meetingPoints.length > 0 ? 4_000 : 20_000)
  const errors: Array<string> = []
  const seenOn = new Map<string, number>()
  let trips = 0
  let decodedHere = 0
  let pool: FeedDecodePool | undefined
  let roadsHere: RoadStopper | undefined
  /** Decoded batches not yet written, in the order of the feed. */
  const inFlight: Array<{ batch: LineBytes | Array<NumberedLine>; decoded: Promise<Array<LineResult>> }> = []

  const writeBatch = async (batch: LineBytes | Array<NumberedLine>, decoded: ReadonlyArray<LineResult>) => {
    for (let k = 0; k < decoded.length; k++) {
      const d = decoded[k]!
      if (d === null) continue // a blank line
      if (typeof d === "string") {
        errors.push(d)
        continue
      }
      const n = Array.isArray(batch) ? batch[k]!.n : batch.n0 + 1 + k
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
      trips++
      if (errors.length > 0) continue // the file is rejected: keep validating, stop writing
      const pending = write(row)
      if (pending !== undefined) await pending
    }
  }

  const dispatch = async (batch: LineBytes | Array<NumberedLine>) => {
    if (pool === undefined && threads > 0 && decodedHere >= threadsAfter) pool = new FeedDecodePool(threads, meetingPoints)
    if (pool === undefined) {
      const lines = Array.isArray(batch) ? batch : linesIn(Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength), batch.bytes.byteLength, batch.n0, batch.at)
      decodedHere += lines.length
      roadsHere ??= new RoadStopper(meetingPoints)
      await writeBatch(batch, decodeNumberedLines(lines, roadsHere))
      return
    }
    // A file's lines go to the workers as bytes (transferred): they decode the text, which this
    // thread would otherwise decode and then copy into each message.
    const decoded = pool.decode(batch)
    decoded.catch(() => {}) // awaited in turn below; a failed pool must not also be an unhandled rejection
    inFlight.push({ batch, decoded })
    if (inFlight.length >= threads * IN_FLIGHT_PER_THREAD) {
      const next = inFlight.shift()!
      await writeBatch(next.batch, await next.decoded)
    }
  }

  try {
    let linesRead = 0
    for await (const batch of readLineBatches(source, BATCH_LINES)) {
      const read = Array.isArray(batch) ? batch[batch.length - 1]!.n : batch.n0 + batch.count
      if (options.onProgress) {
        for (let n = (Math.floor(linesRead / progressEvery) + 1) * progressEvery; n <= read; n += progressEvery) options.onProgress(n)
      }
      linesRead = read
      await dispatch(batch)
    }
    while (inFlight.length > 0) {
      const next = inFlight.shift()!
      await writeBatch(next.batch, await next.decoded)
    }
  } finally {
    await pool?.close()
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, trips }
}
