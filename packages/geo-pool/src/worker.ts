/**
 * The pool's one worker entry. At load (before piscina marks the worker ready) it opens its own
 * read-only connection to the SQLite store, scans every active trip into a `TripIndex`, and posts
 * `GeoWorkerReady` to the parent. A timer then pulls `changesSince` every `refreshMs` (between
 * tasks: a task runs to completion first), so a committed trip is searchable well within 1 s;
 * each refresh posts `GeoWorkerRefreshed` with the index's size and applied sequence.
 * With `search`, it also runs whole searches (`Search` tasks) down to the finished, compressed bytes
 * of the answer, and loads the gazetteer once ready.
 * The default export is piscina's task handler, a switch on the task's `_tag`.
 */
import {
  PlaceResolver,
  type RawParams,
  type RequestContext,
  SearchErrorSchema,
  searchTrips,
  InMemoryTripMatcher,
  TripIndex,
  TripMatcher,
  TripStore
} from "@tripsearch/core"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { encodeBody, IDENTITY, type Representation } from "@tripsearch/http-express/encodeBody"
import { makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Cause, Context, Effect, Exit, Option, Schema } from "effect"
import { parentPort, threadId, workerData } from "node:worker_threads"
import type { GeoTask, GeoWorkerData, GeoWorkerEvent, SearchOutcome, WorkerStats } from "./GeoTask.js"

const data = workerData as GeoWorkerData

const post = (event: GeoWorkerEvent): void => parentPort?.postMessage(event)

const open = () => {
  try {
    const db = openDatabase(data.dbPath, { readonly: true })
    // Scans and refreshes read every row once: no memory map (it would count each mapped page in
    // this process's RSS, once per worker) and a small page cache.
    db.pragma("mmap_size = 0")
    db.pragma("cache_size = -8192")
    const store = makeSqliteTripStore(db)
    const index = new TripIndex()
    const t0 = performance.now()
    index.beginLoad()
    const seq = Effect.runSync(store.scanIndex((r) => index.upsert(r)))
    index.endLoad()
    return { store, index, seq, buildMs: performance.now() - t0 }
  } catch (e) {
    post({ _tag: "GeoWorkerStartFailed", threadId, message: e instanceof Error ? e.message : String(e) })
    throw e
  }
}

const loaded = open()
const { store, index, buildMs } = loaded
let seq = loaded.seq
let refreshes = 0
let refreshFailures = 0
let lastRefreshAt = Date.now()

const stats = (): WorkerStats => ({ threadId, trips: index.size, seq, buildMs, refreshes, refreshFailures, lastRefreshAt })

const refresh = (): void => {
  refreshes++
  try {
    const changes = Effect.runSync(store.changesSince(seq))
    if (changes.upserts.length > 0 || changes.removed.length > 0) index.apply(changes.upserts, changes.removed)
    seq = changes.seq
    lastRefreshAt = Date.now()
  } catch (e) {
    // A busy or briefly unreadable store: keep serving the index as it is and retry at the next tick.
    refreshFailures++
    if (refreshFailures === 1 || refreshFailures % 100 === 0) console.warn(`geo-pool worker ${threadId}: refresh failed:`, e)
  }
  // The server's metrics (index size, lag behind the store) read the last report of each worker.
  post({ _tag: "GeoWorkerRefreshed", stats: stats() })
}

/**
 * The gazetteer (~1 s and ~120 MB to load) is loaded just after the worker reports ready, so that
 * it does not lengthen the server's start; a name search arriving before then waits for it once.
 */
let gazetteer: Gazetteer | undefined
const places = (): Gazetteer => (gazetteer ??= Gazetteer.shared())

/** The search's ports in this thread: its own store connection, its own index, its own gazetteer. */
const searchServices = data.search
  ? Context.make(TripStore, store).pipe(
      Context.add(TripMatcher, InMemoryTripMatcher.over(index)),
      Context.add(PlaceResolver, GazetteerPlaceResolver.service(places))
    )
  : undefined

const encodeSearchError = Schema.encodeSync(SearchErrorSchema)

/**
 * Every port here is synchronous (SQLite, the index, the gazetteer), so the search runs to its end
 * in this call, and so do its JSON or XML encoding and its compression: the HTTP thread, which
 * serves every connection, only writes the bytes. An expected failure is sent back encoded; a
 * defect is thrown, which rejects the task (the pool's `WorkerFailed`) and leaves the worker serving.
 */
const search = (params: RawParams, context: RequestContext, representation: Representation): SearchOutcome => {
  if (searchServices === undefined) throw new Error("geo-pool: this pool does not run searches (search: false)")
  const exit = Effect.runSyncExit(Effect.provide(searchTrips(params, context), searchServices))
  if (Exit.isSuccess(exit)) {
    const body = encodeBody(exit.value, representation)
    return { _tag: "Found", bytes: body.bytes, coding: body.coding }
  }
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) return { _tag: "Refused", error: encodeSearchError(failure.value) }
  throw new Error(`geo-pool: search failed: ${Cause.pretty(exit.cause)}`)
}

setInterval(refresh, data.refreshMs)
post({ _tag: "GeoWorkerReady", stats: stats() })
if (data.search) {
  setImmediate(() => {
    try {
      places()
    } catch (e) {
      // Coordinate searches still work; a name search will fail as a defect, and say why.
      console.warn(`geo-pool worker ${threadId}: the gazetteer could not be loaded:`, e)
    }
  })
}

const busy = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // spin: stands for a long search
  }
}

export default function handle(task: GeoTask): unknown {
  switch (task._tag) {
    case "Match":
      return index.search(task.request)
    case "Search":
      return search(task.params, task.context, task.representation ?? IDENTITY)
    case "Stats":
      return stats()
    case "Refresh":
      refresh()
      return stats()
    case "Busy":
      if (!data.testTasks) throw new Error("geo-pool: test tasks are disabled")
      busy(task.ms)
      return stats()
    case "Crash":
      if (!data.testTasks) throw new Error("geo-pool: test tasks are disabled")
      process.exit(70)
  }
}
