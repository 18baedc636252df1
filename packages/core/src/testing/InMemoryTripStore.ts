import { Effect, Layer, Option } from "effect"
import type { StoredTrip } from "../model/StoredTrip.js"
import { DEFAULT_RATES } from "../pricing/rates.js"
import { type IndexRecord, toIndexRecord } from "../search/IndexRecord.js"
import { encodeShown } from "../search/tripIndex/shownTrips.js"
import { TripStore } from "../ports/TripStore.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"
import { MeetingPointGrid } from "../road/MeetingPointGrid.js"
import { roadStopsOf, type ZoneOffsetAt } from "../road/roadStops.js"

/**
 * A TripStore over an in-memory list, for tests and for embedding without a database. Every
 * `put` bumps the change sequence like a commit would.
 */
/** The index record of a trip with what a search shows of it, so that searches read no store. */
const withShown = (stored: StoredTrip): IndexRecord => ({ ...toIndexRecord(stored), shown: encodeShown(stored.trip) })

export class InMemoryTripStore {
  private constructor(
    private readonly trips: Map<string, { stored: StoredTrip; seq: number }>,
    private seq: number,
    private readonly zoneOffsetAt: ZoneOffsetAt
  ) {}

  private readonly meetingPointsById = new Map<number, StoredMeetingPoint>()
  private grid = new MeetingPointGrid()

  /** Each in-memory store is a history of its own. */
  private readonly id = `memory-${Math.random().toString(36).slice(2)}-${Date.now()}`

  /**
   * Without a time-zone database (the core has none), a stop along the road takes by default the
   * UTC offset of its leg's first waypoint; `zoneOffsetAt` gives the real one.
   */
  static make(trips: Iterable<StoredTrip> = [], meetingPoints: Iterable<StoredMeetingPoint> = [], zoneOffsetAt?: ZoneOffsetAt): InMemoryTripStore {
    const store = new InMemoryTripStore(new Map(), 0, zoneOffsetAt ?? (() => 0))
    store.byLeg = zoneOffsetAt === undefined
    for (const mp of meetingPoints) store.putMeetingPoint(mp)
    for (const t of trips) store.put(t)
    return store
  }

  private byLeg = false
  private mpVersion = 0
  private readonly mpChangedAt = new Map<number, number>()

  /** The trip with its stops along the road worked out anew from the meeting points. */
  private withStops(stored: StoredTrip): StoredTrip {
    const { trip, zoneOffsets } = stored
    const zone: ZoneOffsetAt = this.byLeg
      ? (lat, lon, utcMs) => {
          const minutes = (utcMs - Date.parse(trip.departure_time)) / 60_000
          let k = 0
          while (k + 1 < trip.waypoints.length - 1 && trip.waypoints[k + 1]!.offset_min <= minutes) k++
          return zoneOffsets[k]!
        }
      : this.zoneOffsetAt
    const roadStops = roadStopsOf(trip, this.grid, zone)
    return { trip, zoneOffsets, ...(roadStops.length > 0 ? { roadStops } : {}) }
  }

  put(stored: StoredTrip): void {
    this.trips.set(stored.trip.id, { stored: this.withStops(stored), seq: ++this.seq })
  }

  /** Adds, replaces or (status `removed`) removes a meeting point; the trips whose stops change are changed. */
  putMeetingPoint(mp: StoredMeetingPoint): void {
    this.mpVersion++
    this.meetingPointsById.set(mp.id, mp)
    this.mpChangedAt.set(mp.id, this.mpVersion)
    if (mp.status === "active") this.grid.add(mp.id, mp.lat, mp.lon)
    else this.grid.remove(mp.id)
    for (const [id, entry] of this.trips) {
      const next = this.withStops(entry.stored)
      if (JSON.stringify(next.roadStops ?? []) !== JSON.stringify(entry.stored.roadStops ?? [])) this.trips.set(id, { stored: next, seq: ++this.seq })
    }
  }

  readonly service = TripStore.of({
    getTrip: (id) => Effect.sync(() => Option.fromNullable(this.trips.get(id)?.stored)),
    getTrips: (ids) =>
      Effect.sync(() => new Map(ids.flatMap((id) => (this.trips.has(id) ? [[id, this.trips.get(id)!.stored] as const] : [])))),
    scanIndex: (onRecord) =>
      Effect.sync(() => {
        for (const { stored } of this.trips.values()) if (stored.trip.status === "active") onRecord(withShown(stored))
        return this.seq
      }),
    changesSince: (since) =>
      Effect.sync(() => {
        const changed = [...this.trips.values()].filter((t) => t.seq > since).map((t) => t.stored)
        return {
          seq: this.seq,
          upserts: changed.filter((s) => s.trip.status === "active").map(withShown),
          removed: changed.filter((s) => s.trip.status !== "active").map((s) => s.trip.id)
        }
      }),
    identity: Effect.sync(() => this.id),
    meetingPointsVersion: Effect.sync(() => String(this.mpVersion)),
    meetingPointsSince: (version) =>
      Effect.sync(() => [...this.meetingPointsById.values()].filter((mp) => this.mpChangedAt.get(mp.id)! > Number(version))),
    meetingPoints: (ids) =>
      Effect.sync(() => {
        const found = new Map<number, StoredMeetingPoint>()
        for (const id of ids ?? this.meetingPointsById.keys()) {
          const mp = this.meetingPointsById.get(id)
          if (mp !== undefined && mp.status === "active") found.set(id, mp)
        }
        return found
      }),
    rates: Effect.succeed(DEFAULT_RATES)
  })

  static layer = (trips: Iterable<StoredTrip>): Layer.Layer<TripStore> => Layer.succeed(TripStore, InMemoryTripStore.make(trips).service)

  get layer(): Layer.Layer<TripStore> {
    return Layer.succeed(TripStore, this.service)
  }
}

