import { ServiceOverloaded, TripMatcher, type MatchResult } from "@tripsearch/core"
import { Effect, Layer } from "effect"
import { GeoPool, QueueFull, type GeoPoolOptions } from "./GeoPool.js"

export interface PoolTripMatcherOptions {
  readonly dbPath: string
  readonly threads: number
  readonly maxQueue: number
  readonly refreshMs?: number
  readonly startTimeoutMs?: number
  readonly workerFile?: string
}

/** Seconds a client is told to wait when the queue is full. */
export const RETRY_AFTER_SECONDS = 1

/**
 * `TripMatcher.match` over a started pool: a full queue is `ServiceOverloaded` (503 with
 * Retry-After); a task lost with a crashed worker is a defect (`WorkerFailed`, a 500
 * `service.error`); piscina starts a replacement worker. An interrupted caller does not abort the
 * task: piscina can only abort a running task by killing its worker, which would then reload the
 * whole index, so the (short) search finishes and its result is dropped.
 */
export const matchOn = (pool: GeoPool): TripMatcher["Type"] =>
  TripMatcher.of({
    match: (request) =>
      Effect.async<MatchResult, ServiceOverloaded>((resume) => {
        pool.run({ _tag: "Match", request }).then(
          (result) => resume(Effect.succeed(result)),
          (e: unknown) => resume(e instanceof QueueFull ? Effect.fail(new ServiceOverloaded({ retryAfterSeconds: RETRY_AFTER_SECONDS })) : Effect.die(e))
        )
      })
  })

/** The pool for the scope's lifetime: started (every index loaded) on acquire, destroyed on release. */
export const scopedGeoPool = (options: GeoPoolOptions) =>
  Effect.acquireRelease(
    Effect.promise(() => GeoPool.start(options)),
    (pool) => Effect.promise(() => pool.close())
  )

/** The worker-pool adapter of the `TripMatcher` port. */
export class PoolTripMatcher {
  /**
   * Starts `threads` workers over the store at `dbPath` and completes once each has loaded its
   * index; at most `maxQueue` searches wait for a worker. The pool is destroyed on release.
   * A store that cannot be opened is a defect of the layer.
   */
  static layer = (options: PoolTripMatcherOptions): Layer.Layer<TripMatcher> =>
    Layer.scoped(TripMatcher, Effect.map(scopedGeoPool(options), matchOn))
}
