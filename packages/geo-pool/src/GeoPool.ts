import { openDatabase } from "@tripsearch/storage-sqlite"
import { Piscina } from "piscina"
import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { isGeoWorkerEvent, type GeoTask, type GeoTaskResult, type GeoWorkerData, type WorkerStats } from "./GeoTask.js"

export interface GeoPoolOptions {
  /** The SQLite store file (not `:memory:`: each worker opens its own connection to it). */
  readonly dbPath: string
  /** Worker threads, each with its own index (default: the machine's parallelism). */
  readonly threads?: number
  /**
   * Tasks allowed to wait for a worker. When that many wait, `run` rejects at once with
   * `QueueFull` (the matcher answers `ServiceOverloaded`) instead of building a backlog.
   */
  readonly maxQueue: number
  /** How often each worker pulls the store's changes (default 200 ms). */
  readonly refreshMs?: number
  /** Each worker also loads the gazetteer and runs whole searches (`Search` tasks); default false. */
  readonly search?: boolean
  /** Accept the `Busy` and `Crash` tasks (tests only; default false). */
  readonly testTasks?: boolean
  /** Give up if the workers' indexes are not all loaded by then (default 10 minutes). */
  readonly startTimeoutMs?: number
  /** The worker entry (default: `worker.js` next to this module, in `dist/`). */
  readonly workerFile?: string
}

/** `run` was refused: `maxQueue` tasks are already waiting. */
export class QueueFull extends Error {
  readonly _tag = "QueueFull"
  constructor() {
    super("geo-pool: task queue is full")
  }
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
 * A piscina pool of geo-matching workers over one SQLite store: each worker loads its own
 * `TripIndex` from the store and keeps it fresh. `start` resolves once every worker has loaded
 * its index; `close` destroys the pool.
 */
export class GeoPool {
  private readonly ready = new Map<number, WorkerStats>()
  /** The latest index state each worker reported (at start, after each refresh, in task results). */
  private readonly latest = new Map<number, WorkerStats>()
  private closed = false

  private constructor(
    private readonly piscina: Piscina,
    readonly threads: number,
    readonly maxQueue: number
  ) {}

  /** Starts the pool and waits until every worker has its index loaded. */
  static async start(options: GeoPoolOptions): Promise<GeoPool> {
    if (options.dbPath === ":memory:" || options.dbPath === "") {
      throw new Error("geo-pool: workers need a store file shared between threads, not an in-memory database")
    }
    // Creates the file if needed and brings its schema up to date once, before any reader opens it.
    openDatabase(options.dbPath).close()
    const threads = Math.max(1, options.threads ?? availableParallelism())
    if (!(Number.isInteger(options.maxQueue) && options.maxQueue >= 1)) throw new Error("geo-pool: maxQueue must be an integer >= 1")
    const workerData: GeoWorkerData = {
      dbPath: options.dbPath,
      refreshMs: options.refreshMs ?? DEFAULT_REFRESH_MS,
      testTasks: options.testTasks ?? false,
      search: options.search ?? false
    }
    const piscina = new Piscina({
      filename: options.workerFile ?? fileURLToPath(new URL("./worker.js", import.meta.url)),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: options.maxQueue,
      concurrentTasksPerWorker: 1,
      // 'sync' would park idle workers in Atomics.wait, which also stops their refresh timer.
      atomics: "async",
      workerData
    })
    const pool = new GeoPool(piscina, threads, options.maxQueue)
    const startup = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`geo-pool: workers not ready after ${options.startTimeoutMs ?? 600_000} ms (${pool.ready.size}/${threads})`))
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
        if (message._tag === "GeoWorkerRefreshed") {
          pool.report(message.stats)
        } else if (message._tag === "GeoWorkerReady") {
          pool.ready.set(message.stats.threadId, message.stats)
          pool.report(message.stats)
          if (pool.ready.size >= threads) done()
        } else {
          done(new Error(`geo-pool: worker ${message.threadId} could not load the store: ${message.message}`))
        }
      })
      piscina.on("error", onError)
    })
    try {
      await startup
    } catch (e) {
      await piscina.destroy()
      throw e
    }
    // After start-up an 'error' event (a worker failing outside a task) must not crash the process:
    // piscina replaces the worker; say so.
    piscina.on("error", (e: unknown) => console.warn("geo-pool: worker error:", e))
    return pool
  }

  /** Runs one task on a worker. Rejects with `QueueFull` or `WorkerFailed`. */
  run<T extends GeoTask>(task: T): Promise<GeoTaskResult[T["_tag"]]> {
    // piscina would start fresh workers for a task submitted after destroy(): refuse instead.
    if (this.closed) return Promise.reject(new WorkerFailed(task._tag, new Error("the pool is closed")))
    return this.piscina.run(task).then(
      (result) => {
        // A task's own stats can arrive before the refresh report posted ahead of it (another port).
        if (task._tag === "Stats" || task._tag === "Refresh" || task._tag === "Busy") this.report(result as WorkerStats)
        return result as GeoTaskResult[T["_tag"]]
      },
      (e: unknown) => {
        throw e instanceof Error && QUEUE_LIMIT_MESSAGES.has(e.message) ? new QueueFull() : new WorkerFailed(task._tag, e)
      }
    )
  }

  /** Tasks waiting for a worker. */
  get queueSize(): number {
    return this.piscina.queueSize
  }

  /** Workers running a task now (a replacement worker still loading its index counts as busy). */
  get busyWorkers(): number {
    return this.piscina.threads.length - this.piscina.idleThreads
  }

  /** The latest index state of each live worker: trips and the store sequence it has applied. */
  get indexStates(): ReadonlyArray<WorkerStats> {
    const states: Array<WorkerStats> = []
    for (const id of this.threadIds) {
      const stats = this.latest.get(id)
      if (stats !== undefined) states.push(stats)
    }
    return states
  }

  private report(stats: WorkerStats): void {
    const known = this.latest.get(stats.threadId)
    if (known === undefined || stats.refreshes >= known.refreshes) this.latest.set(stats.threadId, stats)
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

  /** Terminates every worker; pending tasks are rejected, later ones refused. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.piscina.destroy()
  }
}
