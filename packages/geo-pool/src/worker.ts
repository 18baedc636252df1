/**
 * The pool's one worker entry. It searches the process's one index, which the pool's
 * `IndexWriter` keeps in shared memory: at load (before piscina marks the worker ready) it asks
 * the writer for the index's current image on the pool's broadcast channel, waits for it, and
 * posts `GeoWorkerReady` to the parent; later images (after the writer replaced an array) arrive
 * on the same channel and are searched from the next task on. It never reads the store to match.
 * With `search`, it also runs whole searches (`Search` tasks) down to the finished, compressed
 * bytes of the answer: the shown trips come from the index (`MatchResult.trips`), the currency
 * rates from the writer (on the same channel), the place names with the task. A worker opens no
 * store: whichever store the writer follows, the workers are the same.
 * The default export is piscina's task handler, a switch on the task's `_tag`.
 */
import {
  applyMeetingPointChanges,
  DEFAULT_RATES,
  InMemoryTripMatcher,
  type IndexImage,
  type RateTable,
  type StoredMeetingPoint,
  PlaceNames,
  PlaceResolver,
  type RawParams,
  type RequestContext,
  SearchErrorSchema,
  searchTrips,
  TripMatcher,
  TripSearcher,
  TripStore
} from "@tripsearch/core"
import { Gazetteer, GazetteerPlaceNames } from "@tripsearch/gazetteer"
import { encodeBody, IDENTITY, type Representation } from "@tripsearch/http-express/encodeBody"
import { Cause, Context, Effect, Exit, Option, Schema } from "effect"
import { BroadcastChannel, parentPort, threadId, workerData } from "node:worker_threads"
import { type Dispatched, type GeoTask, type GeoWorkerData, type GeoWorkerEvent, type KnownPlace, NOT_RUN, type SearchOutcome, type WorkerStats } from "./GeoTask.js"
import { type IndexMessage, STATS } from "./IndexWriter.js"

const data = workerData as GeoWorkerData

const post = (event: GeoWorkerEvent): void => parentPort?.postMessage(event)

const channel = new BroadcastChannel(data.channelName)
channel.unref()
let searcher: TripSearcher | undefined
let version = -1
let rates: RateTable | undefined
let meetingPoints = new Map<number, StoredMeetingPoint>()
const firstImage = new Promise<void>((resolve) => {
  channel.onmessage = (event) => {
    const message = (event as MessageEvent).data as IndexMessage | undefined
    if (message?._tag === "Rates") rates = message.rates
    if (message?._tag === "MeetingPoints") {
      if (message.full) meetingPoints = new Map(message.meetingPoints.map((mp) => [mp.id, mp]))
      else applyMeetingPointChanges(meetingPoints, message.meetingPoints)
    }
    else if (message?._tag === "IndexImage" && message.image.version > version) adopt(message.image)
    if (searcher !== undefined && rates !== undefined) resolve()
  }
})
const adopt = (image: IndexImage): void => {
  searcher = TripSearcher.over(image)
  version = image.version
}
channel.postMessage({ _tag: "ImageWanted" } satisfies IndexMessage)
// The shown places' names in the locale (`Gazetteer.sharedForNames`, ~0.3 s) are loaded while the
// writer loads the index, not after its image came: the worker is ready that much sooner.
if (data.search) Gazetteer.sharedForNames()
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

/**
 * The search's store port in a worker: the rates the writer sent. Nothing else is read from a
 * store here; the shown trips come with the index's answer, and an index without them (records
 * without `shown`) cannot serve a pool's searches.
 */
const indexOnlyStore: TripStore["Type"] = {
  getTrip: () => Effect.die(new Error("geo-pool: a worker reads no trip from the store")),
  getTrips: (ids) =>
    ids.length === 0 ? Effect.succeed(new Map()) : Effect.die(new Error("geo-pool: the index holds no shown bytes for these trips (IndexRecord.shown)")),
  scanIndex: () => Effect.die(new Error("geo-pool: a worker does not scan the store")),
  changesSince: () => Effect.die(new Error("geo-pool: a worker does not follow the store")),
  identity: Effect.die(new Error("geo-pool: a worker has no store")),
  rates: Effect.sync(() => rates ?? DEFAULT_RATES),
  meetingPoints: (ids) =>
    Effect.sync(() => {
      if (ids === undefined) return meetingPoints
      const found = new Map<number, StoredMeetingPoint>()
      for (const id of ids) {
        const mp = meetingPoints.get(id)
        if (mp !== undefined) found.set(id, mp)
      }
      return found
    }),
  meetingPointsVersion: Effect.die(new Error("geo-pool: a worker does not follow the store")),
  meetingPointsSince: () => Effect.die(new Error("geo-pool: a worker does not follow the store"))
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

/**
 * The search's ports in this thread: the writer's rates, the shared index, the place names sent
 * with the task, and the shown places' names in the locale from the gazetteer's translated cities
 * (`Gazetteer.sharedForNames`, ~0.3 s and ~30 MB, loaded above, before the worker says it is
 * ready, so that no search pays for it).
 */
const searchServices = data.search
  ? Context.make(TripStore, indexOnlyStore).pipe(
      Context.add(TripMatcher, InMemoryTripMatcher.over({ search: (request) => searcher!.search(request) })),
      Context.add(PlaceResolver, places),
      Context.add(PlaceNames, GazetteerPlaceNames.service(() => Gazetteer.sharedForNames()))
    )
  : undefined

const encodeSearchError = Schema.encodeSync(SearchErrorSchema)

/**
 * Every port here is synchronous (the rates, the index, the place names), so the search runs to its end
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
export default function handle(task: Dispatched): unknown {
  // Its caller went away while it waited in this worker's queue. Not timed either: the time counted
  // is that of the tasks run.
  if (task.cancelSlot !== undefined && Atomics.load(data.cancel, task.cancelSlot) === 1) return NOT_RUN
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
