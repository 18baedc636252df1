/**
 * The admission queue in front of the pool's workers: what a task may wait is bounded by time, not
 * only by count, and a key that floods cannot take the others' places.
 *
 * - At most `slots` tasks are handed on (`start`) at a time, or with `aheadMs` as many as give each
 *   worker that much work ahead at the workers' recent task time (up to `maxSlots`); the others
 *   wait here, one FIFO queue per key, the keys served round-robin, so that while the pool is
 *   saturated each key waiting gets an equal share of the starts whatever it sent.
 * - A task is refused at arrival (`QueueFull`, answered 503 at once, before it cost anything) when
 *   the wait it would have, estimated from the queue's length and the recent time between two
 *   tasks ending (from the workers' own task times when given, else as seen here), is over
 *   `maxWaitMs`; when the task waiting longest has waited longer than that, and the queue's
 *   longest wait has stayed over it for `SOJOURN_INTERVAL_MS` (the queue's sojourn, as CoDel reads
 *   it: the estimate, an average of the workers' times, does not see a busy HTTP thread or a burst
 *   of slow searches, the oldest task's wait does; and as in CoDel only a wait that persists
 *   counts, so that a pause of this thread, a garbage collection say, does not turn the requests
 *   it delayed into refusals once it ends); or when `maxQueue` already wait.
 *   Then, if another key with tasks waiting has more tasks than the arriving one's key, counting
 *   those waiting and those started, that key's newest waiting task is refused instead and the
 *   arrival takes its place: the flooding key pays for the overload.
 * - A task admitted is started at its turn, however long it waited: every refusal is decided at
 *   the door, where it costs nothing and is answered at once. Refusing a task at its turn would
 *   answer a 503 after the whole wait, the slowest answer there is; the rules above stop admitting
 *   once the queue's wait is over the bound, so what was admitted before is a bounded backlog.
 * - A task whose `signal` aborts while it waits (its client has gone) leaves the queue at once,
 *   rejected with `Cancelled`, and is never started.
 */

/** Why a task was not run: the time bound, the count bound, or its caller gone before its start. */
export type RefusalReason = "queueTime" | "queueCount" | "clientGone"

/** Refused: the queue is full by count or by the time a new task would wait. */
export class QueueFull extends Error {
  readonly _tag = "QueueFull"
  constructor(readonly reason: "count" | "wait" = "count") {
    super(reason === "count" ? "geo-pool: task queue is full" : "geo-pool: task would wait too long")
  }
}

/** The task's signal aborted before it was started: it never ran. */
export class Cancelled extends Error {
  readonly _tag = "Cancelled"
  constructor() {
    super("geo-pool: task cancelled before it started")
  }
}

export interface AdmissionOptions {
  /** Tasks started and not settled at most (the workers, plus a short queue keeping them fed). */
  readonly slots: number
  /**
   * With `maxSlots`: more tasks started than `slots` when the workers' tasks are short, as many as
   * give each worker this much work (ms) ahead of it. A worker only gets its next task when this
   * thread sees one end, and under overload this thread is busy for tens of milliseconds at a
   * time: a short queue of short tasks would leave the workers idle meanwhile.
   */
  readonly aheadMs?: number
  /** The most tasks started at a time with `aheadMs`. */
  readonly maxSlots?: number
  /** Tasks that run at once among those started (the pool's workers). */
  readonly workers: number
  /** Tasks waiting here at most. */
  readonly maxQueue: number
  /** The longest a task should wait for a start, in milliseconds. */
  readonly maxWaitMs: number
  /**
   * The recent mean time of a task in a worker (ms), as the workers measure it, when known: the
   * interval between two tasks ending is then this over `workers`. A busy HTTP thread sees tasks
   * end late, in bursts; the workers' own time is not skewed by that.
   */
  readonly serviceMs?: () => number | undefined
  /** The clock (tests); default `performance.now`. */
  readonly now?: () => number
}

interface Entry {
  readonly key: string
  readonly start: () => Promise<unknown>
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
  readonly enqueuedAt: number
  readonly signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
  /** Out of the queue (started, refused or cancelled). */
  gone: boolean
}

/** Weight of the newest task in the moving average of the interval between two tasks ending. */
const EWMA_WEIGHT = 1 / 16

/**
 * How long the queue's longest wait must stay over `maxWaitMs` before arrivals are refused for it
 * (CoDel's interval). Longer than this thread's pauses under load (garbage collections, the CPU
 * shared with the workers: 13-42 ms at most when the interval was chosen, 9ab1f2c), short against a
 * sustained overload.
 */
export const SOJOURN_INTERVAL_MS = 100

export class AdmissionQueue {
  private readonly queues = new Map<string, Array<Entry>>()
  /**
   * Every task queued, in the order they came (so by `enqueuedAt`), those gone skipped from the
   * front as it is read: the one waiting longest is the first not gone, whatever the keys.
   */
  private arrivals: Array<Entry> = []
  private arrivalsHead = 0
  /** Keys with tasks waiting, in round-robin order: the next start is `ring[0]`'s. */
  private ring: Array<string> = []
  private waiting = 0
  private running = 0
  /** Tasks started and not settled, by key (only keys with some). */
  private readonly runningOf = new Map<string, number>()
  /**
   * Moving average of the time between two tasks ending while tasks wait, ms (0 until one settled).
   * While the queue is not empty it is measured as it is: the time since the previous task ended,
   * as this thread sees it (a busy event loop that sees the endings late slows the queue down, and
   * that is counted). Otherwise it is a task's duration (start to settle) over the tasks sharing
   * the workers with it when it started, and at least the workers' count (below that, each ran
   * alone on its worker).
   */
  private intervalMs = 0
  /** When the previous task ended while tasks waited (undefined: it ended with none waiting). */
  private lastSaturatedEnd: number | undefined
  /**
   * Since when the queue's longest wait has been over `maxWaitMs` without a break, as last seen
   * (undefined: it was not when last looked at). Looked at on arrivals, starts and cancellations:
   * the task waiting longest only changes then, and its wait only grows in between.
   */
  private overBoundSince: number | undefined
  private readonly now: () => number
  /**
   * Refusals so far, by where they were decided: by `shed` before the task was submitted, at its
   * arrival, pushed out by another key's task, its signal aborted.
   */
  readonly refused = { shed: 0, arrival: 0, pushedOut: 0, cancelled: 0 }
  /** The same refusals by reason. */
  readonly refusedFor: Record<RefusalReason, number> = { queueTime: 0, queueCount: 0, clientGone: 0 }

  /** The longest a task should wait for a start (ms), as configured. */
  get maxWaitMs(): number {
    return this.options.maxWaitMs
  }

  constructor(private readonly options: AdmissionOptions) {
    if (!(Number.isInteger(options.slots) && options.slots >= 1)) throw new Error("admission: slots must be an integer >= 1")
    if (!(Number.isInteger(options.workers) && options.workers >= 1)) throw new Error("admission: workers must be an integer >= 1")
    if (!(options.maxWaitMs > 0)) throw new Error("admission: maxWaitMs must be > 0")
    this.now = options.now ?? (() => performance.now())
  }

  /** Tasks waiting for a start. */
  get size(): number {
    return this.waiting
  }

  /** Tasks started and not yet settled. */
  get inFlight(): number {
    return this.running
  }

  /** The wait a task arriving now would have, estimated (ms). */
  get estimatedWaitMs(): number {
    const service = this.options.serviceMs?.()
    return (this.waiting + 1) * (service === undefined ? this.intervalMs : service / this.options.workers)
  }

  /**
   * Whether a task of `key` arriving now would be admitted (started or queued): a cheap check a
   * caller makes before preparing the task, so that a refusal costs nothing.
   */
  admits(key: string): boolean {
    if (this.running < this.slotsNow() && this.waiting === 0) return true
    if (!this.overloaded()) return true
    return this.longestOtherThan(key) !== undefined
  }

  /**
   * `!admits(key)`, the refusal counted (in `refused.shed` and by reason): for a caller that
   * refuses the task itself, before it prepares and submits it.
   */
  shed(key: string): boolean {
    if (this.admits(key)) return false
    this.refused.shed++
    this.refusedFor[this.boundReached()]++
    return true
  }

  /** Runs `start` when a slot is free and its turn comes; rejects with `QueueFull` or `Cancelled`. */
  submit<R>(key: string, start: () => Promise<R>, signal?: AbortSignal): Promise<R> {
    if (signal?.aborted === true) {
      this.refused.cancelled++
      this.refusedFor.clientGone++
      return Promise.reject(new Cancelled())
    }
    if (this.running < this.slotsNow() && this.waiting === 0) return this.begin(key, start) as Promise<R>
    if (this.overloaded()) {
      const bound = this.boundReached()
      this.refusedFor[bound]++
      const victim = this.longestOtherThan(key)
      if (victim === undefined) {
        this.refused.arrival++
        return Promise.reject(new QueueFull(bound === "queueCount" ? "count" : "wait"))
      }
      // The newest task of the key with most waiting makes room for this one.
      const queue = this.queues.get(victim)!
      const pushed = queue.pop()!
      this.forget(pushed, queue)
      this.refused.pushedOut++
      pushed.reject(new QueueFull(bound === "queueCount" ? "count" : "wait"))
    }
    return new Promise<R>((resolve, reject) => {
      const entry: Entry = {
        key,
        start,
        resolve: resolve as (value: unknown) => void,
        reject,
        enqueuedAt: this.now(),
        signal,
        onAbort: undefined,
        gone: false
      }
      if (signal !== undefined) {
        entry.onAbort = () => {
          const queue = this.queues.get(key)
          const at = queue?.indexOf(entry) ?? -1
          if (at < 0) return
          queue!.splice(at, 1)
          this.forget(entry, queue!)
          // It may have been the task waiting longest.
          this.sojournOverBound()
          this.refused.cancelled++
          this.refusedFor.clientGone++
          reject(new Cancelled())
        }
        signal.addEventListener("abort", entry.onAbort, { once: true })
      }
      let queue = this.queues.get(key)
      if (queue === undefined) {
        queue = []
        this.queues.set(key, queue)
        this.ring.push(key)
      }
      queue.push(entry)
      this.arrivals.push(entry)
      this.waiting++
    })
  }

  /** Tasks that may be started and not settled now (see `aheadMs`). */
  slotsNow(): number {
    const { slots, aheadMs, maxSlots, workers } = this.options
    if (aheadMs === undefined || maxSlots === undefined) return slots
    const service = this.options.serviceMs?.()
    if (service === undefined || !(service > 0)) return slots
    return Math.min(maxSlots, Math.max(slots, workers * Math.ceil(aheadMs / service)))
  }

  /** How long the task that has waited longest has waited so far (ms), 0 with none waiting. */
  get oldestWaitMs(): number {
    const oldest = this.oldestEnqueuedAt()
    return oldest === undefined ? 0 : this.now() - oldest
  }

  private oldestEnqueuedAt(): number | undefined {
    const arrivals = this.arrivals
    while (this.arrivalsHead < arrivals.length && arrivals[this.arrivalsHead]!.gone) this.arrivalsHead++
    if (this.arrivalsHead === arrivals.length) {
      this.arrivals = []
      this.arrivalsHead = 0
      return undefined
    }
    // The front already read is dropped once it is most of the array.
    if (this.arrivalsHead > 1024 && this.arrivalsHead * 2 > arrivals.length) {
      this.arrivals = arrivals.slice(this.arrivalsHead)
      this.arrivalsHead = 0
    }
    return this.arrivals[this.arrivalsHead]!.enqueuedAt
  }

  /** Whether the queue's longest wait has been over `maxWaitMs` for `SOJOURN_INTERVAL_MS` now. */
  private sojournOverBound(): boolean {
    const oldest = this.oldestEnqueuedAt()
    const now = this.now()
    if (oldest === undefined || now - oldest <= this.options.maxWaitMs) {
      this.overBoundSince = undefined
      return false
    }
    // Over since the task waiting longest passed the bound, unless an earlier one already was.
    this.overBoundSince ??= oldest + this.options.maxWaitMs
    return now - this.overBoundSince >= SOJOURN_INTERVAL_MS
  }

  /** By count, by the estimated wait of one more task, or by the wait the queue's oldest tasks have had. */
  private overloaded(): boolean {
    const { maxQueue, maxWaitMs } = this.options
    return this.waiting >= maxQueue || this.estimatedWaitMs > maxWaitMs || this.sojournOverBound()
  }

  /** Which bound an overloaded queue is over: the count's first, since it holds whatever the estimate. */
  private boundReached(): "queueTime" | "queueCount" {
    return this.waiting >= this.options.maxQueue ? "queueCount" : "queueTime"
  }

  /**
   * The key with tasks waiting that has the most tasks in all (waiting, and started not settled),
   * if it has more than `key` would have with one more. The tasks already handed to the workers
   * count: a flood whose tasks are mostly started, one or none left waiting here, still has more
   * than a key that sends one search at a time, and its waiting task makes room for that key's.
   */
  private longestOtherThan(key: string): string | undefined {
    const own = (this.queues.get(key)?.length ?? 0) + (this.runningOf.get(key) ?? 0) + 1
    let longest: string | undefined
    let most = own
    for (const [k, queue] of this.queues) {
      const all = queue.length + (this.runningOf.get(k) ?? 0)
      if (k !== key && all > most) {
        longest = k
        most = all
      }
    }
    return longest
  }

  /** Takes `entry` (already removed from `queue`) out of the books. */
  private forget(entry: Entry, queue: Array<Entry>): void {
    this.waiting--
    entry.gone = true
    if (entry.onAbort !== undefined) entry.signal!.removeEventListener("abort", entry.onAbort)
    if (queue.length === 0) {
      this.queues.delete(entry.key)
      this.ring = this.ring.filter((k) => k !== entry.key)
    }
  }

  private begin(key: string, start: () => Promise<unknown>): Promise<unknown> {
    this.running++
    this.runningOf.set(key, (this.runningOf.get(key) ?? 0) + 1)
    const sharing = Math.max(this.running, this.options.workers)
    const startedAt = this.now()
    let settled: Promise<unknown>
    try {
      settled = start()
    } catch (e) {
      settled = Promise.reject(e)
    }
    const done = () => {
      const now = this.now()
      const interval = this.waiting > 0 && this.lastSaturatedEnd !== undefined ? now - this.lastSaturatedEnd : (now - startedAt) / sharing
      this.lastSaturatedEnd = this.waiting > 0 ? now : undefined
      this.intervalMs = this.intervalMs === 0 ? interval : this.intervalMs + EWMA_WEIGHT * (interval - this.intervalMs)
      this.running--
      const left = this.runningOf.get(key)! - 1
      if (left === 0) this.runningOf.delete(key)
      else this.runningOf.set(key, left)
      this.next()
    }
    return settled.finally(done)
  }

  /** Starts waiting tasks, round-robin over the keys, while slots are free. */
  private next(): void {
    const slots = this.slotsNow()
    while (this.running < slots && this.ring.length > 0) {
      const key = this.ring.shift()!
      const queue = this.queues.get(key)!
      const entry = queue.shift()!
      // The key goes to the back of the ring if it still has tasks waiting.
      if (queue.length > 0) this.ring.push(key)
      this.forget(entry, queue)
      this.begin(entry.key, entry.start).then(entry.resolve, entry.reject)
    }
    // The task waiting longest may have changed: a new one under the bound ends the spell over it.
    this.sojournOverBound()
  }
}
