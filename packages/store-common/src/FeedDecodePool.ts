import { Worker } from "node:worker_threads"
import type { DecodedLine } from "./decodeFeedLines.js"
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

interface Waiting {
  readonly resolve: (decoded: Array<DecodedLine>) => void
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
      worker.on("message", (m: { id: number; decoded?: Array<DecodedLine>; failure?: string }) => {
        const w = this.waiting.get(m.id)
        if (w === undefined) return
        this.waiting.delete(m.id)
        if (m.decoded === undefined) w.reject(new Error(`feed decode worker: ${m.failure}`))
        else {
          // Buffers arrive as plain Uint8Arrays; the stores write Buffers (better-sqlite3 binds them as BLOBs).
          for (const d of m.decoded) {
            if (d.row === undefined) continue
            const row = d.row as { packed: Buffer; shown: Buffer; road_stops: Buffer | null }
            row.packed = Buffer.from(d.row.packed.buffer, d.row.packed.byteOffset, d.row.packed.byteLength)
            row.shown = Buffer.from(d.row.shown.buffer, d.row.shown.byteOffset, d.row.shown.byteLength)
            const stops = d.row.road_stops
            if (stops !== null) row.road_stops = Buffer.from(stops.buffer, stops.byteOffset, stops.byteLength)
          }
          w.resolve(m.decoded)
        }
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

  /** The batch's lines decoded, in order. */
  decode(lines: ReadonlyArray<string>): Promise<Array<DecodedLine>> {
    if (this.failure !== undefined) return Promise.reject(this.failure)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.workers[id % this.workers.length]!.postMessage({ id, lines })
    })
  }

  async close(): Promise<void> {
    this.failure ??= new Error("feed decode pool closed")
    await Promise.all(this.workers.map((w) => w.terminate()))
  }
}
