import { applyMeetingPointChanges, type IndexImage, type RateTable, type StoredMeetingPoint, type TripIndex, type TripStore } from "@tripsearch/core"
import { Effect } from "effect"
import { BroadcastChannel, threadId } from "node:worker_threads"
import { writeSnapshot } from "./IndexSnapshot.js"
import { type IndexLoad, loadIndex, placeName, saveSnapshot, shelfPlace, type SnapshotPlace, snapshotPlace } from "./loadIndex.js"

/** What the writer and the pool's workers say to each other on the pool's broadcast channel. */
export type IndexMessage =
  /** The index's arrays to search from now on (at start, then after each replacement). */
  | { readonly _tag: "IndexImage"; readonly image: IndexImage }
  /** The store's currency rates (at start, then whenever a refresh finds them changed). */
  | { readonly _tag: "Rates"; readonly rates: RateTable }
  /**
   * The store's meeting points, which answers name: all the active ones (`full`, at start and to a
   * worker that asks), then those an import changed, removed ones included.
   */
  | { readonly _tag: "MeetingPoints"; readonly meetingPoints: ReadonlyArray<StoredMeetingPoint>; readonly full: boolean }
  /** A worker that just started asks for the current image. */
  | { readonly _tag: "ImageWanted" }

interface MeetingPointsHeld {
  version: string
  readonly byId: Map<number, StoredMeetingPoint>
}

/** The store's active meeting points with the version they were read at (read before the points: a change in between is read again). */
const readMeetingPoints = async (store: TripStore["Type"]): Promise<MeetingPointsHeld> => {
  const version = await Effect.runPromise(store.meetingPointsVersion)
  const all = await Effect.runPromise(store.meetingPoints())
  return { version, byId: new Map(all) }
}

/** How often a store that wakes its followers (`TripStore.watchChanges`) is polled all the same. */
export const WATCHED_REFRESH_MS = 1_000

/** The slots of `IndexWriter.stats`, a Float64Array in shared memory that workers read for `Stats`. */
export const STATS = { trips: 0, seq: 1, buildMs: 2, refreshes: 3, refreshFailures: 4, lastRefreshAt: 5 } as const
export const STATS_LENGTH = 6

export interface IndexWriterOptions {
  readonly channelName: string
  readonly refreshMs: number
  /**
   * Where to keep a snapshot of the index: read at start instead of scanning the store when it was
   * taken from the same store (`TripStore.identity`) at a sequence the store has not gone back
   * from, then brought up to date with `changesSince`; written after a full scan and on `close`.
   */
  readonly snapshotPath?: string
  /**
   * Without `snapshotPath`, start from the snapshot the store keeps for every server over it
   * (`TripStore.snapshots`, PostgreSQL's), checked as a file's is; after a full scan, leave one
   * there (in the background: the server does not wait for it). It is not written on `close`: the
   * store tool brings it up to date after each import, and N servers stopping must not upload it
   * N times.
   */
  readonly sharedSnapshot?: boolean
  /**
   * The shared figures workers read (`newWriterStats`), when they must exist before the writer: a
   * pool starts its workers while the index loads.
   */
  readonly stats?: Float64Array
}

/** An empty `IndexWriter.stats`, in shared memory. */
export const newWriterStats = (): Float64Array => new Float64Array(new SharedArrayBuffer(8 * STATS_LENGTH))

/**
 * The process's one `TripIndex` and its one writer: it loads every active trip from the store
 * (the `TripStore` port, whichever adapter is configured), then follows the store's change
 * sequence in the thread that started it: every `refreshMs`, or, for a store that wakes its
 * followers (`watchChanges`, PostgreSQL's LISTEN/NOTIFY), at each wake-up and every second at least. The pool's workers never touch the
 * store: they search the index's shared arrays (`TripSearcher.over`), whose images the writer
 * broadcasts on `channelName` when an array is replaced and to any worker asking for one, with the
 * store's currency rates. A refresh that fails leaves the index as it was and is retried at the
 * next tick.
 */
export class IndexWriter {
  /** trips, seq, buildMs, refreshes, refreshFailures, lastRefreshAt (see `STATS`), for every thread. */
  readonly stats: Float64Array
  private readonly channel: BroadcastChannel
  private readonly timer: ReturnType<typeof setInterval>
  private running: Promise<void> | undefined
  /** A wake-up came while a refresh ran, which may have read the store before that change. */
  private again = false
  private unwatch: (() => Promise<void>) | undefined
  private closed = false

  private constructor(
    private readonly store: TripStore["Type"],
    private readonly index: TripIndex,
    private seq: number,
    readonly load: IndexLoad,
    readonly channelName: string,
    refreshMs: number,
    private readonly snapshot: SnapshotPlace | undefined,
    private snapshotSeq: number,
    private rates: RateTable,
    stats: Float64Array | undefined,
    private meetingPoints: MeetingPointsHeld
  ) {
    this.stats = stats ?? newWriterStats()
    this.stats[STATS.buildMs] = load.ms
    this.stats[STATS.lastRefreshAt] = Date.now()
    this.record()
    this.channel = new BroadcastChannel(channelName)
    // A broadcast channel would keep the process alive on its own; the pool's workers do that.
    this.channel.unref()
    this.channel.onmessage = (event) => {
      const message = (event as MessageEvent).data as IndexMessage | undefined
      if (message?._tag === "ImageWanted") {
        this.postMeetingPoints()
        this.postRates()
        this.post(index.image())
      }
    }
    index.onImage((image) => this.post(image))
    // Workers started while the index loaded asked for it before this channel existed: tell them now.
    this.postMeetingPoints()
    this.postRates()
    this.post(index.image())
    // A store that wakes its followers is polled only as a safety net, once a second at most.
    this.timer = setInterval(() => void this.refresh(), store.watchChanges === undefined ? refreshMs : Math.max(refreshMs, WATCHED_REFRESH_MS))
    this.timer.unref()
  }

  /** Refreshes at each of the store's wake-ups (stores that have them), from now until `close`. */
  private async watch(): Promise<void> {
    if (this.store.watchChanges === undefined) return
    this.unwatch = await Effect.runPromise(this.store.watchChanges(() => this.wake()))
  }

  /** A change may have been committed: refresh now, or again right after the refresh under way. */
  private wake(): void {
    if (this.running !== undefined) this.again = true
    else void this.refresh()
  }

  /**
   * Loads the index in this thread (from its snapshot when it is usable, else by scanning the whole
   * store) and starts following the store's changes.
   */
  static async start(store: TripStore["Type"], options: IndexWriterOptions): Promise<IndexWriter> {
    const snapshot =
      options.snapshotPath !== undefined ? await snapshotPlace(store, options.snapshotPath) : options.sharedSnapshot === true ? await shelfPlace(store) : undefined
    const { index, seq, load, snapshotSeq } = await loadIndex(store, snapshot)
    const rates = await Effect.runPromise(store.rates)
    const meetingPoints = await readMeetingPoints(store)
    const writer = new IndexWriter(store, index, seq, load, options.channelName, options.refreshMs, snapshot, snapshotSeq, rates, options.stats, meetingPoints)
    // After a scan, the next start reads the snapshot instead.
    if (load.from === "store") {
      if (snapshot?.shelf !== undefined) writer.kept = writer.keepInStore(snapshot)
      else writer.saveSnapshot()
    }
    await writer.watch()
    return writer
  }

  /**
   * The upload of the snapshot to the store's shelf after a scan, settled once it is kept, refused
   * (the store keeps a later one) or failed: true only when kept.
   */
  kept: Promise<boolean> = Promise.resolve(false)

  private async keepInStore(place: SnapshotPlace): Promise<boolean> {
    const t0 = performance.now()
    try {
      const kept = await saveSnapshot(place, this.index, this.seq)
      if (kept) console.warn(`geo-pool: index snapshot kept in ${placeName(place)} at change ${this.seq} in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
      return kept
    } catch (e) {
      // The next start scans the store too: slower, as correct.
      console.warn(`geo-pool: the index snapshot could not be kept in ${placeName(place)}:`, e)
      return false
    }
  }

  /** Writes the snapshot (when the writer keeps one in a file) if the index moved since the last one. */
  saveSnapshot(): void {
    if (this.snapshot === undefined || this.snapshot.shelf !== undefined || this.snapshotSeq === this.seq) return
    try {
      writeSnapshot(this.snapshot.path, this.index, this.snapshot.storeId, this.seq)
      this.snapshotSeq = this.seq
    } catch (e) {
      // The next start scans the store instead: slower, as correct.
      console.warn(`geo-pool: the index snapshot could not be written to ${this.snapshot.path}:`, e)
    }
  }

  /** Active trips in the index. */
  get trips(): number {
    return this.index.size
  }

  /** The store's change sequence number the index is consistent with. */
  get appliedSeq(): number {
    return this.seq
  }

  /** Pulls the store's committed changes now; a refresh already running is waited for instead. */
  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.running ??= this.pull().finally(() => {
      this.running = undefined
      if (this.again) {
        this.again = false
        void this.refresh()
      }
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
      // Rates are a dozen numbers read with the changes: the workers hear of them only when they move.
      const rates = await Effect.runPromise(this.store.rates)
      if (this.closed) return
      if (JSON.stringify(rates) !== JSON.stringify(this.rates)) {
        this.rates = rates
        this.postRates()
      }
      // The meeting points that answers name: only those an import changed are read and sent.
      const version = await Effect.runPromise(this.store.meetingPointsVersion)
      if (this.closed) return
      if (version !== this.meetingPoints.version) {
        const changed = await Effect.runPromise(this.store.meetingPointsSince(this.meetingPoints.version))
        if (this.closed) return
        applyMeetingPointChanges(this.meetingPoints.byId, changed)
        this.meetingPoints.version = version
        if (!this.closed) this.channel.postMessage({ _tag: "MeetingPoints", meetingPoints: changed, full: false } satisfies IndexMessage)
      }
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

  private postMeetingPoints(): void {
    if (!this.closed) this.channel.postMessage({ _tag: "MeetingPoints", meetingPoints: [...this.meetingPoints.byId.values()], full: true } satisfies IndexMessage)
  }

  private postRates(): void {
    if (!this.closed) this.channel.postMessage({ _tag: "Rates", rates: this.rates } satisfies IndexMessage)
  }

  /**
   * Stops following the store (after the refresh under way, if any) and writes the snapshot; the
   * index stays searchable where it is referenced.
   */
  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.unwatch?.().catch(() => {})
    await this.running
    await this.kept
    this.closed = true
    this.channel.close()
    this.saveSnapshot()
  }

  /** The thread the writer runs in. */
  readonly threadId = threadId
}
