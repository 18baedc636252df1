import type { MatchRequest, MatchResult, RawParams, RequestContext, ResolvedPlace, SearchErrorSchema } from "@tripsearch/core"
import type { ContentCoding, Representation } from "@tripsearch/http-express/encodeBody"

/**
 * The tasks the worker entry (`worker.ts`) switches on. Everything is plain structured-clone data:
 * a task crosses to the worker and its result comes back without any JSON step.
 */
export type GeoTask =
  /** One search of the shared index (`TripSearcher.search`) in the worker. Answers a `MatchResult`. */
  | { readonly _tag: "Match"; readonly request: MatchRequest }
  /**
   * A whole `GET /api/v2/trips` (core's `searchTrips`) in the worker: decoding, place names, matching
   * on the shared index with its shown trips, rendering, encoding as JSON or XML
   * and compressing, as `representation` asks (default JSON, uncompressed). Only with `search` in
   * the worker data. Answers a `SearchOutcome`.
   */
  | {
      readonly _tag: "Search"
      readonly params: RawParams
      readonly context: RequestContext
      readonly representation?: Representation
      /** Place names the caller already resolved (see `searchOn`), tried before the worker's own gazetteer. */
      readonly places?: ReadonlyArray<KnownPlace>
    }
  /** The index's state, as the worker that answers sees it. Answers `WorkerStats`. */
  | { readonly _tag: "Stats" }
  /**
   * Has the index's writer pull the store's committed changes now instead of at the next tick
   * (run by the pool itself, in the writer's thread, not by a worker). Answers `WorkerStats`.
   */
  | { readonly _tag: "Refresh" }
  /** Test support (only with `testTasks`): keeps the worker busy for `ms` milliseconds. */
  | { readonly _tag: "Busy"; readonly ms: number }
  /** Test support (only with `testTasks`): the worker thread exits as if it had crashed. */
  | { readonly _tag: "Crash" }

/**
 * A task as handed to a worker: with `cancelSlot`, its flag in the pool's `cancel` array, which the
 * pool sets when the task's caller has gone (see `GeoWorkerData.cancel`).
 */
export type Dispatched<T extends GeoTask = GeoTask> = T & { readonly cancelSlot?: number }

/** What a worker answers for a task whose caller had gone before the worker came to it: not run. */
export const NOT_RUN = { _tag: "NotRun" } as const

export const isNotRun = (result: unknown): boolean =>
  typeof result === "object" && result !== null && (result as { _tag?: unknown })._tag === NOT_RUN._tag

/** A place name (`fn`/`tn`) resolved for a country: the place, or null when the gazetteer has none. */
export type KnownPlace = readonly [text: string, preferredCountry: string, place: ResolvedPlace | null]

export interface WorkerStats {
  /** `worker_threads.threadId` of the thread that answered (the writer's, for `Refresh`). */
  readonly threadId: number
  /** Active trips in the shared index. */
  readonly trips: number
  /** The store's change sequence number the index is consistent with. */
  readonly seq: number
  /** Milliseconds the initial scan of the store took. */
  readonly buildMs: number
  /** Store refreshes done, and how many of them failed. */
  readonly refreshes: number
  readonly refreshFailures: number
  /** `Date.now()` of the last successful refresh. */
  readonly lastRefreshAt: number
}

/**
 * A search's answer: the response's finished bytes (JSON or XML, compressed in `coding`, which is
 * `identity` when the body was too small to gain from it), or its expected failure encoded by
 * `SearchErrorSchema`.
 */
export type SearchOutcome =
  | { readonly _tag: "Found"; readonly bytes: Uint8Array; readonly coding: ContentCoding }
  | { readonly _tag: "Refused"; readonly error: typeof SearchErrorSchema.Encoded }

/** The answer type of each task. */
export interface GeoTaskResult {
  readonly Match: MatchResult
  readonly Search: SearchOutcome
  readonly Stats: WorkerStats
  readonly Refresh: WorkerStats
  readonly Busy: WorkerStats
  readonly Crash: never
}

/** `workerData` of every worker of the pool. */
export interface GeoWorkerData {
  /** The broadcast channel of the index's images (see `IndexWriter`). */
  readonly channelName: string
  /** The writer's shared figures (`STATS` slots). */
  readonly stats: Float64Array
  /** Shared by every worker: the microseconds spent in tasks and the tasks run (`Atomics.add`). */
  readonly work: BigInt64Array
  /**
   * One flag per task handed to a worker with a signal (`Dispatched.cancelSlot`), set to 1 by the
   * pool when the signal aborts: a worker that finds its next task's flag set answers `NOT_RUN`
   * instead of running it. Tasks wait in a worker's own queue (see `GeoPool`), where the pool can
   * no longer take them back.
   */
  readonly cancel: Int32Array
  readonly testTasks: boolean
  /** Load the gazetteer and accept `Search` tasks. */
  readonly search: boolean
}

/**
 * What a worker posts on its `parentPort` (the pool's `message` event), once, at start: it has the
 * index's image and the rates. (A worker opens no store, so it has nothing else to fail on there;
 * a worker that throws while loading is piscina's `error`.)
 */
export type GeoWorkerEvent = { readonly _tag: "GeoWorkerReady"; readonly stats: WorkerStats }

const WORKER_EVENT_TAGS: ReadonlySet<unknown> = new Set(["GeoWorkerReady"])

export const isGeoWorkerEvent = (message: unknown): message is GeoWorkerEvent =>
  typeof message === "object" && message !== null && WORKER_EVENT_TAGS.has((message as { _tag?: unknown })._tag)
