import { type IndexImage, TripIndex, type TripStore } from "@tripsearch/core"
import { Effect } from "effect"
import { BroadcastChannel, threadId } from "node:worker_threads"

/** What the writer and the pool's workers say to each other on the pool's broadcast channel. */
export type IndexMessage =
  /** The index's arrays to search from now on (at start, then after each replacement). */
  | { readonly _tag: "IndexImage"; readonly image: IndexImage }
  /** A worker that just started asks for the current image. */
  | { readonly _tag: "ImageWanted" }

/** The slots of `IndexWriter.stats`, a Float64Array in shared memory that workers read for `Stats`. */
export const STATS = { trips: 0, seq: 1, buildMs: 2, refreshes: 3, refreshFailures: 4, lastRefreshAt: 5 } as const
export const STATS_LENGTH = 6

/**
 * The process's one `TripIndex` and its one writer: it loads every active trip from the store
 * (the `TripStore` port, whichever adapter is configured), then follows the store's change
 * sequence every `refreshMs` in the thread that started it. The pool's workers never touch the
 * store for matching: they search the index's shared arrays (`TripSearcher.over`), whose images
 * the writer broadcasts on `channelName` when an array is replaced and to any worker asking for
 * one. A refresh that fails leaves the index as it was and is retried at the next tick.
 */
export class IndexWriter {
  /** trips, seq, buildMs, refreshes, refreshFailures, lastRefreshAt (see `STATS`), for every thread. */
  readonly stats = new Float64Array(new SharedArrayBuffer(8 * STATS_LENGTH))
  private readonly channel: BroadcastChannel
  private readonly timer: ReturnType<typeof setInterval>
  private running: Promise<void> | undefined
  private closed = false

  private constructor(
    private readonly store: TripStore["Type"],
    private readonly index: TripIndex,
    private seq: number,
    buildMs: number,
    readonly channelName: string,
    refreshMs: number
  ) {
    this.stats[STATS.buildMs] = buildMs
    this.stats[STATS.lastRefreshAt] = Date.now()
    this.record()
    this.channel = new BroadcastChannel(channelName)
    // A broadcast channel would keep the process alive on its own; the pool's workers do that.
    this.channel.unref()
    this.channel.onmessage = (event) => {
      const message = (event as MessageEvent).data as IndexMessage | undefined
      if (message?._tag === "ImageWanted") this.post(index.image())
    }
    index.onImage((image) => this.post(image))
    this.timer = setInterval(() => void this.refresh(), refreshMs)
    this.timer.unref()
  }

  /** Loads the whole store into a new index (in this thread) and starts following its changes. */
  static async start(store: TripStore["Type"], options: { readonly channelName: string; readonly refreshMs: number }): Promise<IndexWriter> {
    const t0 = performance.now()
    const index = new TripIndex()
    index.beginLoad()
    const seq = await Effect.runPromise(store.scanIndex((r) => index.upsert(r)))
    index.endLoad()
    return new IndexWriter(store, index, seq, performance.now() - t0, options.channelName, options.refreshMs)
  }

  /** Active trips in the index. */
  get trips(): number {
    return this.index.size
  }

  /** The store's change sequence number the index is consistent with. */
  get appliedSeq(): number {
    return this.seq
  }

  /** Searches in this thread (the writer's own view: every change it has applied). */
  get searchable(): Pick<TripIndex, "search"> {
    return this.index
  }

  /** Pulls the store's committed changes now; a refresh already running is waited for instead. */
  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.running ??= this.pull().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  private async pull(): Promise<void> {
    this.stats[STATS.refreshes]!++
    try {
      const changes = await Effect.runPromise(this.store.changesSince(this.seq))
      if (this.closed) return
      if (changes.upserts.length > 0 || changes.removed.length > 0) this.index.apply(changes.upserts, changes.removed)
      this.seq = changes.seq
      this.stats[STATS.lastRefreshAt] = Date.now()
    } catch (e) {
      // A busy or briefly unreachable store: keep serving the index as it is and retry at the next tick.
      const failures = ++this.stats[STATS.refreshFailures]!
      if (failures === 1 || failures % 100 === 0) console.warn(`geo-pool: index refresh failed (${failures} so far):`, e)
    }
    this.record()
  }

  private record(): void {
    this.stats[STATS.trips] = this.index.size
    this.stats[STATS.seq] = this.seq
  }

  private post(image: IndexImage): void {
    if (!this.closed) this.channel.postMessage({ _tag: "IndexImage", image } satisfies IndexMessage)
  }

  /** Stops following the store; the index stays searchable where it is referenced. */
  close(): void {
    this.closed = true
    clearInterval(this.timer)
    this.channel.close()
  }

  /** The thread the writer runs in. */
  readonly threadId = threadId
}
