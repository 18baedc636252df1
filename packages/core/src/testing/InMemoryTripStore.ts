import { Effect, Layer, Option } from "effect"
import type { StoredTrip } from "../model/StoredTrip.js"
import { DEFAULT_RATES } from "../pricing/rates.js"
import { toIndexRecord } from "../search/IndexRecord.js"
import { TripStore } from "../ports/TripStore.js"

/**
 * A TripStore over an in-memory list, for tests and for embedding without a database. Every
 * `put` bumps the change sequence like a commit would.
 */
export class InMemoryTripStore {
  private constructor(
    private readonly trips: Map<string, { stored: StoredTrip; seq: number }>,
    private seq: number
  ) {}

  /** Each in-memory store is a history of its own. */
  private readonly id = `memory-${Math.random().toString(36).slice(2)}-${Date.now()}`

  static make(trips: Iterable<StoredTrip> = []): InMemoryTripStore {
    const store = new InMemoryTripStore(new Map(), 0)
    for (const t of trips) store.put(t)
    return store
  }

  put(stored: StoredTrip): void {
    this.trips.set(stored.trip.id, { stored, seq: ++this.seq })
  }

  readonly service = TripStore.of({
    getTrip: (id) => Effect.sync(() => Option.fromNullable(this.trips.get(id)?.stored)),
    getTrips: (ids) =>
      Effect.sync(() => new Map(ids.flatMap((id) => (this.trips.has(id) ? [[id, this.trips.get(id)!.stored] as const] : [])))),
    scanIndex: (onRecord) =>
      Effect.sync(() => {
        for (const { stored } of this.trips.values()) if (stored.trip.status === "active") onRecord(toIndexRecord(stored))
        return this.seq
      }),
    changesSince: (since) =>
      Effect.sync(() => {
        const changed = [...this.trips.values()].filter((t) => t.seq > since).map((t) => t.stored)
        return {
          seq: this.seq,
          upserts: changed.filter((s) => s.trip.status === "active").map(toIndexRecord),
          removed: changed.filter((s) => s.trip.status !== "active").map((s) => s.trip.id)
        }
      }),
    identity: Effect.sync(() => this.id),
    rates: Effect.succeed(DEFAULT_RATES)
  })

  static layer = (trips: Iterable<StoredTrip>): Layer.Layer<TripStore> => Layer.succeed(TripStore, InMemoryTripStore.make(trips).service)

  get layer(): Layer.Layer<TripStore> {
    return Layer.succeed(TripStore, this.service)
  }
}

