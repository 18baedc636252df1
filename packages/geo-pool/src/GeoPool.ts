import type { TripStore } from "@tripsearch/core"
import { makeSqliteTripStore, openDatabase, type SqliteDatabase } from "@tripsearch/storage-sqlite"
import { Piscina } from "piscina"
import { randomUUID } from "node:crypto"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { isGeoWorkerEvent, isNotRun, type GeoTask, type GeoTaskResult, type GeoWorkerData, type WorkerStats } from "./GeoTask.js"
import { IndexWriter, newWriterStats, STATS } from "./IndexWriter.js"
import type { IndexLoad } from "./loadIndex.js"
import { AdmissionQueue, Cancelled, QueueFull, type RefusalReason } from "./Admission.js"

export interface GeoPoolOptions {
  /** The SQLite store file the index's writer follows when no `store` is given (then not `:memory:`). */
  readonly dbPath: string
  /**
   * The store the index's writer follows (default: a read-only connection to `dbPath`, opened and
   * closed by the pool).
   */
  readonly store?: TripStore["Type"]
  /** Worker threads, all searching the one shared index (default: the machine's parallelism). */
  readonly threads?: number
  /**
   * Tasks allowed to wait for a worker. When that many wait, `run` rejects at once with
   * `QueueFull` (the matcher answers `ServiceOverloaded`) instead of building a backlog.
   */
  readonly maxQueue: number
  /**
   * With a value, what a task may wait is bounded by time too: tasks wait in an `AdmissionQueue`
   * (per-key round-robin, refused at arrival when they would wait longer than this many
   * milliseconds, never started once their signal aborted), and each worker is handed at most
   * about 20 ms of work ahead (`WORK_AHEAD_MS`; a quarter of this bound when that is less).
   * Without (the default), tasks wait in piscina's queue, bounded by `maxQueue` only.
   */
  readonly maxWaitMs?: number
  /** How often the index's writer pulls the store's changes (default 200 ms). */
  readonly refreshMs?: number
  /** Where the writer keeps a snapshot of the index, for a fast start (see `IndexWriter`); default none. */
  readonly snapshotPath?: string
  /** Without `snapshotPath`, the snapshot the store keeps for every server over it (see `IndexWriter`); default false. */
  readonly sharedSnapshot?: boolean
  /** Each worker also loads the gazetteer and runs whole searches (`Search` tasks); default false. */
  readonly search?: boolean
  /** Accept the `Busy` and `Crash` tasks (tests only; default false). */
  readonly testTasks?: boolean
  /** Give up if the workers are not all ready by then, the index loaded (default 10 minutes). */
  readonly startTimeoutMs?: number
  /** The worker entry (default: `worker.js` next to this module, in `dist/`). */
  readonly workerFile?: string
}


/** A task was lost with its worker (the thread exited or threw outside the handler). */
export class WorkerFailed extends Error {
  readonly _tag = "WorkerFailed"
  constructor(readonly task: GeoTask["_tag"], cause: unknown) {
    super(`geo-pool: ${task} task failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
  }
}

// piscina's own errors carry no code: recognise the queue-limit ones by their message.
const QUEUE_LIMIT_MESSAGES = new Set(["Task queue is at limit", "No task queue available and all Workers are busy"])

export const DEFAULT_REFRESH_MS = 200

/**
 * The work (ms, at the workers' recent task time) each worker is handed ahead of the task it runs,
 * when the admission queue is on. Under overload the server's thread, which hands the tasks out,
 * is busy for 10-50 ms at a time (1,024 requests read in one turn of its event loop); with one
 * task ahead, workers sat idle through that and served a seventh of what they could
 * (docs/PERFORMANCE.md, Overload).
 */
const WORK_AHEAD_MS = 20

/** The most tasks handed to one worker at a time (its running one included). */
const MAX_TASKS_PER_WORKER = 64

/**
 * The recent mean time of a task in the workers (ms), from their shared `work` counters: a moving
 * average over batches of at least 8 tasks; undefined until the first batch.
 */
const taskTimeIn = (work: BigInt64Array): (() => number | undefined) => {
  let micros = 0n
  let tasks = 0n
  let mean: number | undefined
  return () => {
    const m = Atomics.load(work, 0)
    const t = Atomics.load(work, 1)
    if (t - tasks >= 8n) {
      const batch = Number(m - micros) / Number(t - tasks) / 1000
      mean = mean === undefined ? batch : mean + 0.25 * (batch - mean)
      micros = m
      tasks = t
    }
    return mean
  }
}

export interface RunOptions {
  /** Whose task it is (an API key): the admission queue shares the workers fairly between keys. */
  readonly key?: string
  /** Aborted when the task's caller has gone: a task still waiting then never runs. */
  readonly signal?: AbortSignal
}

/** A read-only connection for the index's writer when the caller gives no store. */
const openWriterStore = (dbPath: string): { store: TripStore["Type"]; db: SqliteDatabase } => {
  const db = openDatabase(dbPath, { readonly: true })
  // The writer reads every row once at start, then only changes: a small page cache.
  db.pragma("cache_size = -8192")
  return { store: makeSqliteTripStore(db), db }
}

/**
 * A piscina pool of geo-matching workers over one index: the `IndexWriter`, in the thread that
 * starts the pool, loads it from the store and keeps it fresh, and every worker searches its
 * shared arrays. `start` resolves once the index is loaded and every worker is ready; `close`
 * destroys the pool and stops the writer.
 */
export class GeoPool {
  private closed = false
  /** Tasks piscina's own queue refused (full): without the admission queue, the count bound. */
  private piscinaQueueFull = 0
  /** Tasks a worker did not run because their caller had gone (their flag in `cancel` set). */
  private notRun = 0
  /** The `cancel` flags not held by a task handed to a worker. */
  private readonly freeCancelSlots: Array<number>

  private constructor(
    private readonly piscina: Piscina,
    private readonly writer: IndexWriter,
    private readonly ownDb: SqliteDatabase | undefined,
    readonly threads: number,
    readonly maxQueue: number,
    /** The time-bounded queue in front of piscina's (with `maxWaitMs`). */
    readonly admission: AdmissionQueue | undefined,
    private readonly ready: Map<number, WorkerStats>,
    private readonly cancel: Int32Array
  ) {
    this.freeCancelSlots = Array.from({ length: cancel.length }, (_, slot) => slot)
  }

  /** Starts the workers and loads the index, and waits until every worker is ready. */
  static async start(options: GeoPoolOptions): Promise<GeoPool> {
    if (options.store === undefined) {
      if (options.dbPath === ":memory:" || options.dbPath === "") {
        throw new Error("geo-pool: the pool opens its own connection to the store: give a store file, not an in-memory database")
      }
      // Creates the file if needed and brings its schema up to date before the read-only connection opens it.
      openDatabase(options.dbPath).close()
    }
    const threads = Math.max(1, options.threads ?? availableParallelism())
    if (!(Number.isInteger(options.maxQueue) && options.maxQueue >= 1)) throw new Error("geo-pool: maxQueue must be an integer >= 1")
    if (options.maxWaitMs !== undefined && !(options.maxWaitMs > 0)) throw new Error("geo-pool: maxWaitMs must be > 0")
    // With the admission queue, piscina hands each worker tasks beyond the one it runs (in the
    // worker's own queue: see concurrentTasksPerWorker): at least one, and as many as make
    // WORK_AHEAD_MS of its recent task time, enough to keep it fed while this thread is busy with
    // requests, short enough that the wait is decided here (and a key's fair share kept).
    const work = new BigInt64Array(new SharedArrayBuffer(2 * BigInt64Array.BYTES_PER_ELEMENT))
    const admission =
      options.maxWaitMs === undefined
        ? undefined
        : new AdmissionQueue({
            slots: 2 * threads,
            // A task's wait in a worker's own queue is not seen by the time bound: a quarter of it at most.
            aheadMs: Math.min(WORK_AHEAD_MS, options.maxWaitMs / 4),
            maxSlots: MAX_TASKS_PER_WORKER * threads,
            workers: threads,
            maxQueue: options.maxQueue,
            maxWaitMs: options.maxWaitMs,
            serviceMs: taskTimeIn(work)
          })
    // Opened before any worker starts: a store that cannot be opened leaves nothing to stop.
    const own = options.store === undefined ? openWriterStore(options.dbPath) : undefined
    // The workers start first, so that loading their modules overlaps the index's load in this
    // thread; each waits for the writer's first image on the pool's channel.
    const channelName = `tripsearch-index-${randomUUID()}`
    const stats = newWriterStats()
    // One flag for each task that can be in the workers' hands at once (see `dispatch`).
    const cancelSlots = admission === undefined ? 0 : MAX_TASKS_PER_WORKER * threads
    const cancel = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * cancelSlots))
    const workerData: GeoWorkerData = {
      work,
      cancel,
      channelName,
      stats,
      testTasks: options.testTasks ?? false,
      search: options.search ?? false
    }
    const piscina = new Piscina({
      filename: options.workerFile ?? fileURLToPath(new URL("./worker.js", import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: admission === undefined ? options.maxQueue : threads,
      // With the admission queue, each worker is handed its next tasks while it runs one: they
      // wait in the worker's own message queue, so the worker goes on to them without waiting for
      // this thread (busy with requests under overload) to see the first one end.
      concurrentTasksPerWorker: admission === undefined ? 1 : MAX_TASKS_PER_WORKER,
      // 'sync' would park idle workers in Atomics.wait, which also stops their refresh timer.
      atomics: "async",
      workerData
    })
    // Listened to from the start: a worker may report ready while the writer is still starting.
    const ready = new Map<number, WorkerStats>()
    let timer: ReturnType<typeof setTimeout> | undefined
    const startup = new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`geo-pool: workers not ready after ${options.startTimeoutMs ?? 600_000} ms (${ready.size}/${threads})`))
      }, options.startTimeoutMs ?? 600_000)
      const done = (error?: Error) => {
        clearTimeout(timer)
        piscina.off("error", onError)
        if (error === undefined) resolve()
        else reject(error)
      }
      const onError = (e: unknown) => done(e instanceof Error ? e : new Error(String(e)))
      piscina.on("message", (message: unknown) => {
        if (!isGeoWorkerEvent(message)) return
        ready.set(message.stats.threadId, message.stats)
        if (ready.size >= threads) done()
      })
      piscina.on("error", onError)
    })
    // Until the pool exists, a failed start must not leave an unhandled rejection behind.
    startup.catch(() => {})
    let writer: IndexWriter
    try {
      writer = await IndexWriter.start(options.store ?? own!.store, {
        channelName,
        stats,
        refreshMs: options.refreshMs ?? DEFAULT_REFRESH_MS,
        ...(options.snapshotPath !== undefined ? { snapshotPath: options.snapshotPath } : {}),
        ...(options.sharedSnapshot === true ? { sharedSnapshot: true } : {})
      })
    } catch (e) {
      clearTimeout(timer)
      await piscina.destroy()
      own?.db.close()
      throw e
    }
    const pool = new GeoPool(piscina, writer, own?.db, threads, options.maxQueue, admission, ready, cancel)
    try {
      await startup
    } catch (e) {
      await pool.close()
      throw e
    }
    // After start-up an 'error' event (a worker failing outside a task) must not crash the process:
    // piscina replaces the worker; say so.
    piscina.on("error", (e: unknown) => console.warn("geo-pool: worker error:", e))
    return pool
  }

  /**
   * Runs one task on a worker. Rejects with `QueueFull`, `Cancelled` (`signal` aborted while the
   * task waited in the admission queue or in a worker's own queue: it never ran) or `WorkerFailed`.
   * `key` is whose task it is, for the admission queue's fair share (default: one shared key).
   */
  run<T extends GeoTask>(task: T, options?: RunOptions): Promise<GeoTaskResult[T["_tag"]]> {
    // piscina would start fresh workers for a task submitted after destroy(): refuse instead.
    if (this.closed) return Promise.reject(new WorkerFailed(task._tag, new Error("the pool is closed")))
    if (task._tag === "Refresh") return this.writer.refresh().then(() => this.indexState as GeoTaskResult[T["_tag"]])
    if (this.admission === undefined) return this.dispatch(task)
    return this.admission.submit(options?.key ?? "", () => this.dispatch(task, options?.signal), options?.signal)
  }

  /** Whether a task of `key` would be admitted now (always, without an admission queue). */
  admits(key: string): boolean {
    return this.admission === undefined || this.admission.admits(key)
  }

  /**
   * Whether a task of `key` is to be refused now, the refusal counted in `refusals` (never without
   * an admission queue: piscina's own queue then decides at `run`).
   */
  shed(key: string): boolean {
    return this.admission !== undefined && this.admission.shed(key)
  }

  /** Tasks refused or never started so far, by reason: `shed`, `run` rejecting `QueueFull` or `Cancelled`. */
  get refusals(): Readonly<Record<RefusalReason, number>> {
    const own = this.admission?.refusedFor
    return {
      queueTime: own?.queueTime ?? 0,
      queueCount: (own?.queueCount ?? 0) + this.piscinaQueueFull,
      clientGone: (own?.clientGone ?? 0) + this.notRun
    }
  }

  /**
   * Hands `task` to piscina. With a `signal`, the task takes a flag of `cancel` that the signal's
   * abort sets, so that a worker that comes to it after its caller has gone does not run it (tasks
   * wait in the workers' own queues, where piscina could only abort them by ending the worker).
   */
  private dispatch<T extends GeoTask>(task: T, signal?: AbortSignal): Promise<GeoTaskResult[T["_tag"]]> {
    const slot = signal === undefined ? undefined : this.freeCancelSlots.pop()
    const onAbort = slot === undefined ? undefined : () => Atomics.store(this.cancel, slot, 1)
    if (slot !== undefined) {
      Atomics.store(this.cancel, slot, signal!.aborted ? 1 : 0)
      signal!.addEventListener("abort", onAbort!, { once: true })
    }
    const ran = this.piscina.run(slot === undefined ? task : { ...task, cancelSlot: slot }).then(
      (result) => {
        if (isNotRun(result)) {
          this.notRun++
          throw new Cancelled()
        }
        return result as GeoTaskResult[T["_tag"]]
      },
      (e: unknown) => {
        if (e instanceof Error && QUEUE_LIMIT_MESSAGES.has(e.message)) {
          this.piscinaQueueFull++
          throw new QueueFull()
        }
        throw new WorkerFailed(task._tag, e)
      }
    )
    if (slot === undefined) return ran
    return ran.finally(() => {
      signal!.removeEventListener("abort", onAbort!)
      this.freeCancelSlots.push(slot)
    })
  }

  /** Tasks waiting for a worker (in the admission queue and piscina's). */
  get queueSize(): number {
    return this.piscina.queueSize + (this.admission?.size ?? 0)
  }

  /** Workers running a task now (a replacement worker still loading its index counts as busy). */
  get busyWorkers(): number {
    return this.piscina.threads.length - this.piscina.idleThreads
  }

  /** How the index was loaded at start: from its snapshot or from the store, and how long it took. */
  get indexLoad(): IndexLoad {
    return this.writer.load
  }

  /** The shared index's state, as its writer keeps it: trips and the store sequence it has applied. */
  get indexState(): WorkerStats {
    const s = this.writer.stats
    return {
      threadId: this.writer.threadId,
      trips: s[STATS.trips]!,
      seq: s[STATS.seq]!,
      buildMs: s[STATS.buildMs]!,
      refreshes: s[STATS.refreshes]!,
      refreshFailures: s[STATS.refreshFailures]!,
      lastRefreshAt: s[STATS.lastRefreshAt]!
    }
  }

  /** Tasks completed by the pool so far. */
  get completed(): number {
    return this.piscina.completed
  }

  /** The `GeoWorkerReady` report of each worker started so far (replacements included), by thread id. */
  get readyWorkers(): ReadonlyMap<number, WorkerStats> {
    return this.ready
  }

  /** Ids of the live worker threads. */
  get threadIds(): ReadonlyArray<number> {
    return this.piscina.threads.map((t) => t.threadId)
  }

  /** Terminates every worker and stops the writer; pending tasks are rejected, later ones refused. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.piscina.destroy()
    await this.writer.close()
    this.ownDb?.close()
  }
}
