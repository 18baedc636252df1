import {
  CurrentClientKey,
  isLocaleCode,
  LOCALE_TABLE,
  type MatchResult,
  PlaceResolver,
  TripStore,
  type RawParams,
  type RequestContext,
  type SearchError,
  SearchErrorSchema,
  ServiceOverloaded,
  TripMatcher
} from "@tripsearch/core"
import { EncodedBody, IDENTITY, type Representation } from "@tripsearch/http-express/encodeBody"
import { Context, Effect, FiberRef, Layer, Option, Schema } from "effect"
import type { KnownPlace } from "./GeoTask.js"
import { GeoPool, type GeoPoolOptions } from "./GeoPool.js"
import { Cancelled, QueueFull } from "./Admission.js"

export interface PoolTripMatcherOptions {
  readonly dbPath: string
  readonly threads: number
  readonly maxQueue: number
  /** Bounds a search's wait for a worker by time (see `GeoPoolOptions.maxWaitMs`); default: by `maxQueue` only. */
  readonly maxWaitMs?: number
  readonly refreshMs?: number
  /** Where the index's writer keeps its snapshot (see `GeoPoolOptions`). */
  readonly snapshotPath?: string
  /** Or the one the store keeps (see `GeoPoolOptions`). */
  readonly sharedSnapshot?: boolean
  readonly startTimeoutMs?: number
  readonly workerFile?: string
  /** The workers also run whole searches (`searchOn`); default false. */
  readonly search?: boolean
}

/** Seconds a client is told to wait when the queue is full. */
export const RETRY_AFTER_SECONDS = 1

/**
 * `TripMatcher.match` over a started pool: a full queue is `ServiceOverloaded` (503 with
 * Retry-After); a task lost with a crashed worker is a defect (`WorkerFailed`, a 500
 * `service.error`); piscina starts a replacement worker. An interrupted caller's task still waiting
 * in the admission queue never runs; a task already handed to piscina is not aborted: piscina can
 * only abort a running task by killing its worker, which would then reload the whole index, so the
 * (short) search finishes and its result is dropped.
 */
export const matchOn = (pool: GeoPool): TripMatcher["Type"] =>
  TripMatcher.of({
    match: (request) =>
      Effect.async<MatchResult, ServiceOverloaded>((resume) => {
        // An interrupted caller's match still waiting for a worker never runs.
        const abort = new AbortController()
        pool.run({ _tag: "Match", request }, { signal: abort.signal }).then(
          (result) => resume(Effect.succeed(result)),
          (e: unknown) => resume(poolFailure(e))
        )
        return Effect.sync(() => abort.abort())
      })
  })

const decodeSearchError = Schema.decodeSync(SearchErrorSchema)

/** A pool's failure as the search's: a full queue is `ServiceOverloaded`, anything else a defect. */
const poolFailure = (e: unknown): Effect.Effect<never, ServiceOverloaded> =>
  e instanceof QueueFull ? Effect.fail(overloaded()) : e instanceof Cancelled ? Effect.interrupt : Effect.die(e)

const overloaded = () => new ServiceOverloaded({ retryAfterSeconds: RETRY_AFTER_SECONDS })

/**
 * The place names a search will look up (`fn` without `fc`, `tn` without `tc`, under the country of
 * a known `locale`), resolved with `places` in this thread. Anything else (a malformed parameter
 * the search will refuse anyway) is left to the worker.
 */
const knownPlaces = (places: PlaceResolver["Type"], params: RawParams): Effect.Effect<ReadonlyArray<KnownPlace>> =>
  Effect.gen(function* () {
    const locale = params["locale"]
    if (typeof locale !== "string" || !isLocaleCode(locale)) return []
    const country = LOCALE_TABLE[locale].country
    const known: Array<KnownPlace> = []
    for (const [name, coords] of [["fn", "fc"], ["tn", "tc"]] as const) {
      const text = params[name]
      if (typeof text !== "string" || text === "" || params[coords] !== undefined) continue
      known.push([text, country, Option.getOrNull(yield* places.resolve(text, country))])
    }
    return known
  })

/**
 * Core's `searchTrips` run whole in a worker of a pool started with `search`: the calling thread
 * only resolves the place names (with `places`, when given: one gazetteer per process instead of
 * one per worker), sends the parameters and the representation asked (format, content coding), and
 * gets back the response's finished bytes (`EncodedBody`) or the search's own failure, decoded back
 * to its class. Queue and crash behave as in `matchOn`.
 */
export const searchOn =
  (pool: GeoPool, places?: PlaceResolver["Type"]) =>
  (params: RawParams, context: RequestContext, representation: Representation = IDENTITY): Effect.Effect<EncodedBody, SearchError> =>
    Effect.flatMap(FiberRef.get(CurrentClientKey), (key) =>
      // Refused before the place names are resolved: a refusal costs no more than parsing did.
      pool.shed(key)
        ? Effect.fail(overloaded())
        : Effect.flatMap(places === undefined ? Effect.succeed([]) : knownPlaces(places, params), (known) =>
            Effect.async<EncodedBody, SearchError>((resume) => {
              // Interrupted (the client has gone): a search still waiting for a worker never runs.
              const abort = new AbortController()
              pool.run({ _tag: "Search", params, context, representation, places: known }, { key, signal: abort.signal }).then(
                (outcome) =>
                  resume(
                    outcome._tag === "Found"
                      ? Effect.succeed(new EncodedBody(outcome.bytes, representation.format, outcome.coding))
                      : Effect.fail(decodeSearchError(outcome.error))
                  ),
                (e: unknown) => resume(poolFailure(e))
              )
              return Effect.sync(() => abort.abort())
            })
          )
    )

/** The started pool behind `PoolTripMatcher.layerWithPool`, for callers that also dispatch whole searches. */
export class GeoPoolService extends Context.Tag("@tripsearch/geo-pool/GeoPoolService")<GeoPoolService, GeoPool>() {}

/** The pool for the scope's lifetime: started (every index loaded) on acquire, destroyed on release. */
export const scopedGeoPool = (options: GeoPoolOptions) =>
  Effect.acquireRelease(
    Effect.promise(() => GeoPool.start(options)),
    (pool) => Effect.promise(() => pool.close())
  )

/** The worker-pool adapter of the `TripMatcher` port. */
export class PoolTripMatcher {
  /**
   * Loads the index from the store at `dbPath` and starts `threads` workers searching it; completes
   * once each is ready. At most `maxQueue` searches wait for a worker. The pool is destroyed on release.
   * A store that cannot be opened is a defect of the layer.
   */
  static layer = (options: PoolTripMatcherOptions): Layer.Layer<TripMatcher> =>
    Layer.scoped(TripMatcher, Effect.map(scopedGeoPool(options), matchOn))

  /**
   * `layer` whose index follows the app's own `TripStore` (whichever adapter it is), and the pool
   * itself as `GeoPoolService` (with `search`, for `searchOn`).
   */
  static layerWithPool = (options: PoolTripMatcherOptions): Layer.Layer<TripMatcher | GeoPoolService, never, TripStore> =>
    Layer.scopedContext(
      Effect.flatMap(TripStore, (store) =>
        Effect.map(scopedGeoPool({ ...options, store }), (pool) => Context.make(TripMatcher, matchOn(pool)).pipe(Context.add(GeoPoolService, pool)))
      )
    )
}
