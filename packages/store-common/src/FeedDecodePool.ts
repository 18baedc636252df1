import { Worker } from "node:worker_threads"
import type { DecodedLine, LineResult } from "./decodeFeedLines.js"
import type { LineBytes, NumberedLine } from "./readLines.js"
import type { RoadMeetingPoint } from "./roadStopColumns.js"

// Run from the TypeScript sources (the tests), the worker is the built one: a worker thread cannot
// load a .ts file.
const workerUrl = import.meta.url.endsWith(".ts") ? new URL("../dist/feedDecodeWorker.js", import.meta.url) : new URL("./feedDecodeWorker.js", import.meta.url)

/**
 * Each worker's young generation, MB. A batch's rows stay alive until it is posted, so that each
 * scavenge copies them and moves many to the old generation; with Node's default the workers
 * spent a tenth of their time in garbage collection. An import of 50,000 trips with roads took
 * about 5% less CPU with 64 MB (and with 128 MB no less than with 64; with 32 MB as much as with
 * the default).
 */
const YOUNG_MB = 64

/** A decoded line as a worker posts it: its row's BLOB columns are lengths, their bytes in the batch's buffer. */
type WireLine = { row?: Record<"packed" | "shown" | "road_stops", number | Uint8Array | null>; issues?: unknown } | string | null

/**
 * The worker's side: the batch's BLOB columns (`packed`, `shown`, `road_stops`, about 1 KB a row)
 * moved into one buffer, in row order, which is transferred, and each replaced by its length.
 * Posted as they were, each was an ArrayBuffer of its own (or a pool's 8 KB slab) that the import's
 * thread allocated and copied again, three times a row, and then collected.
 */
export const packBatch = (decoded: Array<LineResult>): ArrayBuffer => {
  let size = 0
  for (const d of decoded) {
    if (d === null || typeof d === "string" || d.row === undefined) continue
    size += d.row.packed.byteLength + d.row.shown.byteLength + (d.row.road_stops?.byteLength ?? 0)
  }
  const bytes = new Uint8Array(size)
  let o = 0
  for (const d of decoded as Array<WireLine>) {
    if (d === null || typeof d === "string") continue
    const row = d.row
    if (row === undefined) continue
    for (const column of ["packed", "shown", "road_stops"] as const) {
      const value = row[column] as Uint8Array | null
      if (value === null) continue
      bytes.set(value, o)
      o += value.byteLength
      row[column] = value.byteLength
    }
  }
  return bytes.buffer
}

/** The import's side of `packBatch`: each BLOB column a Buffer over the batch's bytes (better-sqlite3 binds it as a BLOB). */
const unpackBatch = (decoded: Array<WireLine>, buffer: ArrayBuffer): Array<LineResult> => {
  let o = 0
  for (const d of decoded) {
    if (d === null || typeof d === "string") continue
    const row = d.row
    if (row === undefined) continue
    for (const column of ["packed", "shown", "road_stops"] as const) {
      const length = row[column] as number | null
      if (length === null) continue
      row[column] = Buffer.from(buffer, o, length)
      o += length
    }
  }
  return decoded as Array<LineResult>
}

interface Waiting {
  readonly resolve: (decoded: Array<LineResult>) => void
  readonly reject: (e: Error) => void
}

/**
 * Worker threads decoding batches of feed lines, each batch answered in a promise. Each worker
 * works out the stops along the road from the meeting points it is started with (the store's
 * active ones when the import began).
 */
export class FeedDecodePool {
  private readonly workers: Array<Worker>
  private readonly waiting = new Map<number, Waiting>()
  private nextId = 0
  private failure: Error | undefined

  constructor(threads: number, meetingPoints: ReadonlyArray<RoadMeetingPoint>) {
    this.workers = Array.from({ length: threads }, () => {
      const worker = new Worker(workerUrl, { workerData: { meetingPoints }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } })
      worker.on("message", (m: { id: number; decoded?: Array<DecodedLine>; bytes?: ArrayBuffer; failure?: string }) => {
        const w = this.waiting.get(m.id)
        if (w === undefined) return
        this.waiting.delete(m.id)
        if (m.decoded === undefined || m.bytes === undefined) w.reject(new Error(`feed decode worker: ${m.failure}`))
        else w.resolve(unpackBatch(m.decoded as Array<WireLine>, m.bytes))
      })
      worker.on("error", (e) => this.fail(e))
      worker.on("exit", (code) => {
        if (code !== 0) this.fail(new Error(`feed decode worker exited with code ${code}`))
      })
      return worker
    })
  }

  private fail(e: Error): void {
    this.failure ??= e
    for (const w of this.waiting.values()) w.reject(e)
    this.waiting.clear()
  }

  /** The batch's lines decoded, in order (`decodeNumberedLines`); a batch's bytes are transferred. */
  decode(batch: LineBytes | Array<NumberedLine>): Promise<Array<LineResult>> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.workers[id % this.workers.length]!.postMessage({ id, batch }, Array.isArray(batch) ? [] : [batch.bytes.buffer as ArrayBuffer])
    })
  }

  async close(): Promise<void> {
    this.failure ??= new Error("feed decode pool closed")
    await Promise.all(this.workers.map((w) => w.terminate()))
  }
}
