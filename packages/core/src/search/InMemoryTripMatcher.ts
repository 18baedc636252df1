import { Duration, Effect, Layer, Queue, Schedule } from "effect"
import { TripMatcher } from "../ports/TripMatcher.js"
import { TripStore } from "../ports/TripStore.js"
import { TripIndex } from "./TripIndex.js"

/** How often the index asks the store for committed changes (freshness budget: 1 s). */
export const REFRESH_INTERVAL = Duration.millis(200)

/** How often a store that wakes its followers (`TripStore.watchChanges`) is polled all the same. */
export const WATCHED_REFRESH_INTERVAL = Duration.seconds(1)

/**
 * The in-thread matcher: a `TripIndex` loaded from the store at start and kept fresh by polling
 * the store's change sequence, or, for a store that wakes its followers (PostgreSQL's NOTIFY), at
 * each wake-up and every second at least. For embedding and tests; the server may use the worker pool.
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
      const logged = refresh.pipe(Effect.catchAllDefect((defect) => Effect.logWarning("trip index refresh failed", defect)))
      if (store.watchChanges === undefined) {
        yield* logged.pipe(Effect.repeat(Schedule.spaced(REFRESH_INTERVAL)), Effect.forkScoped)
      } else {
        // Wake-ups that come during a refresh collapse into one more refresh after it.
        const wake = yield* Queue.sliding<void>(1)
        const unwatch = yield* store.watchChanges(() => void Queue.unsafeOffer(wake, undefined))
        yield* Effect.addFinalizer(() => Effect.promise(() => unwatch().catch(() => {})))
        yield* Queue.take(wake).pipe(
          Effect.timeout(WATCHED_REFRESH_INTERVAL),
          Effect.ignore,
          Effect.zipRight(logged),
          Effect.forever,
          Effect.forkScoped
        )
      }
      return InMemoryTripMatcher.over(index)
    })
  )
}
