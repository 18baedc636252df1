/**
 * The pool's one worker entry. It searches the process's one index, which the pool's
 * `IndexWriter` keeps in shared memory: at load (before piscina marks the worker ready) it asks
 * the writer for the index's current image on the pool's broadcast channel, waits for it, and
 * posts `GeoWorkerReady` to the parent; later images (after the writer replaced an array) arrive
 * on the same channel and are searched from the next task on. It never reads the store to match.
 * With `search`, it also runs whole searches (`Search` tasks) down to the finished, compressed
 * bytes of the answer: the shown trips come from the index (`MatchResult.trips`); the rates
 * through its own read-only connection to the SQLite store; the place names resolved with the task.
 * The default export is piscina's task handler, a switch on the task's `_tag`.
 */
import {
  InMemoryTripMatcher,
  type IndexImage,
  PlaceResolver,
  type RawParams,
  type RequestContext,
  SearchErrorSchema,
  searchTrips,
  TripMatcher,
  TripSearcher,
  TripStore
} from "@tripsearch/core"
import { Gazetteer } from "@tripsearch/gazetteer"
import { encodeBody, IDENTITY, type Representation } from "@tripsearch/http-express/encodeBody"
import { makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Cause, Context, Effect, Exit, Option, Schema } from "effect"
import { BroadcastChannel, parentPort, threadId, workerData } from "node:worker_threads"
import type { GeoTask, GeoWorkerData, GeoWorkerEvent, KnownPlace, SearchOutcome, WorkerStats } from "./GeoTask.js"
import { type IndexMessage, STATS } from "./IndexWriter.js"

const data = workerData as GeoWorkerData

const post = (event: GeoWorkerEvent): void => parentPort?.postMessage(event)

const channel = new BroadcastChannel(data.channelName)
channel.unref()
let searcher: TripSearcher | undefined
let version = -1
const firstImage = new Promise<void>((resolve) => {
  channel.onmessage = (event) => {
    const message = (event as MessageEvent).data as IndexMessage | undefined
    if (message?._tag !== "IndexImage" || message.image.version <= version) return
    adopt(message.image)
    resolve()
  }
})
const adopt = (image: IndexImage): void => {
  searcher = TripSearcher.over(image)
  version = image.version
}
channel.postMessage({ _tag: "ImageWanted" } satisfies IndexMessage)
await firstImage

/** The writer's figures, read from the shared stats it keeps (see `IndexWriter`). */
const stats = (): WorkerStats => ({
  threadId,
  trips: data.stats[STATS.trips]!,
  seq: data.stats[STATS.seq]!,
  buildMs: data.stats[STATS.buildMs]!,
  refreshes: data.stats[STATS.refreshes]!,
  refreshFailures: data.stats[STATS.refreshFailures]!,
  lastRefreshAt: data.stats[STATS.lastRefreshAt]!
})

/** The connection that reads the rates, and shown trips the index has no bytes for (`Search` tasks only). */
const displayStore = (): TripStore["Type"] => {
  try {
    const db = openDatabase(data.dbPath, { readonly: true })
    // Only a page of trips per search: no memory map (counted in this process's RSS, once per
    // worker) and a small page cache.
    db.pragma("mmap_size = 0")
    db.pragma("cache_size = -8192")
    return makeSqliteTripStore(db)
  } catch (e) {
    post({ _tag: "GeoWorkerStartFailed", threadId, message: e instanceof Error ? e.message : String(e) })
    throw e
  }
}

/**
 * Place names come resolved with the task (`searchOn` resolves them in the pool's thread, with the
 * process's one gazetteer). The worker's own gazetteer (~1 s and ~120 MB) is loaded only for a name
 * that came without its answer: a caller that resolves nothing, or a name the caller did not expect.
 */
let gazetteer: Gazetteer | undefined
let known: ReadonlyArray<KnownPlace> = []
const places: PlaceResolver["Type"] = {
  resolve: (text, preferredCountry) =>
    Effect.sync(() => {
      for (const [t, country, place] of known) if (t === text && country === preferredCountry) return Option.fromNullable(place)
      return (gazetteer ??= Gazetteer.shared()).resolve(text, preferredCountry)
    })
}

/** The search's ports in this thread: its own store connection for display, the shared index, its own gazetteer. */
const searchServices = data.search
  ? Context.make(TripStore, displayStore()).pipe(
      Context.add(TripMatcher, InMemoryTripMatcher.over({ search: (request) => searcher!.search(request) })),
      Context.add(PlaceResolver, places)
    )
  : undefined

const encodeSearchError = Schema.encodeSync(SearchErrorSchema)

/**
 * Every port here is synchronous (SQLite, the index, the gazetteer), so the search runs to its end
 * in this call, and so do its JSON or XML encoding and its compression: the HTTP thread, which
 * serves every connection, only writes the bytes. An expected failure is sent back encoded; a
 * defect is thrown, which rejects the task (the pool's `WorkerFailed`) and leaves the worker serving.
 */
const search = (params: RawParams, context: RequestContext, representation: Representation, resolved: ReadonlyArray<KnownPlace>): SearchOutcome => {
  if (searchServices === undefined) throw new Error("geo-pool: this pool does not run searches (search: false)")
  known = resolved
  const exit = Effect.runSyncExit(Effect.provide(searchTrips(params, context), searchServices))
  known = []
  if (Exit.isSuccess(exit)) {
    const body = encodeBody(exit.value, representation)
    return { _tag: "Found", bytes: body.bytes, coding: body.coding }
  }
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) return { _tag: "Refused", error: encodeSearchError(failure.value) }
  throw new Error(`geo-pool: search failed: ${Cause.pretty(exit.cause)}`)
}

post({ _tag: "GeoWorkerReady", stats: stats() })

const busy = (ms: number): void => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // spin: stands for a long search
  }
}

/**
 * Counts every task's time in this worker into the pool's shared `work` counters (microseconds,
 * tasks): the pool's admission estimates the wait from them, unaffected by how late a busy HTTP
 * thread sees a task end.
 */
export default function handle(task: GeoTask): unknown {
  const started = performance.now()
  try {
    return run(task)
  } finally {
    Atomics.add(data.work, 0, BigInt(Math.round((performance.now() - started) * 1000)))
    Atomics.add(data.work, 1, 1n)
  }
}

function run(task: GeoTask): unknown {
  switch (task._tag) {
    case "Match":
      return searcher!.search(task.request)
    case "Search":
      return search(task.params, task.context, task.representation ?? IDENTITY, task.places ?? [])
    case "Stats":
      return stats()
    case "Refresh":
      throw new Error("geo-pool: Refresh runs in the index writer's thread, not in a worker")
    case "Busy":
      if (!data.testTasks) throw new Error("geo-pool: test tasks are disabled")
      busy(task.ms)
      return stats()
    case "Crash":
      if (!data.testTasks) throw new Error("geo-pool: test tasks are disabled")
      process.exit(70)
  }
}
