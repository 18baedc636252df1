import { Duration, Effect, Layer, Schedule } from "effect"
import { TripMatcher } from "../ports/TripMatcher.js"
import { TripStore } from "../ports/TripStore.js"
import { TripIndex } from "./TripIndex.js"

/** How often the index asks the store for committed changes (freshness budget: 1 s). */
export const REFRESH_INTERVAL = Duration.millis(200)

/**
 * The in-thread matcher: a `TripIndex` loaded from the store at start and kept fresh by polling
 * the store's change sequence. For embedding and tests; the server may use the worker pool.
 */
export class InMemoryTripMatcher {
  /** The port over an index this thread searches: one it keeps fresh itself, or a searcher over the image of another thread's (a pool worker's). */
  static readonly over = (index: Pick<TripIndex, "search">): TripMatcher["Type"] =>
    TripMatcher.of({ match: (request) => Effect.sync(() => index.search(request)) })

  static readonly layer: Layer.Layer<TripMatcher, never, TripStore> = Layer.scoped(
    TripMatcher,
    Effect.gen(function* () {
      const store = yield* TripStore
      const index = new TripIndex()
      index.beginLoad()
      let seq = yield* store.scanIndex((r) => index.upsert(r))
      index.endLoad()
      const refresh = Effect.gen(function* () {
        const changes = yield* store.changesSince(seq)
        if (changes.upserts.length > 0 || changes.removed.length > 0) index.apply(changes.upserts, changes.removed)
        seq = changes.seq
      })
      yield* refresh.pipe(
        Effect.catchAllDefect((defect) => Effect.logWarning("trip index refresh failed", defect)),
        Effect.repeat(Schedule.spaced(REFRESH_INTERVAL)),
        Effect.forkScoped
      )
      return InMemoryTripMatcher.over(index)
    })
  )
}
