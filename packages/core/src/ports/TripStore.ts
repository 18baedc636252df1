import { Context, type Effect, type Option } from "effect"
import type { StoredTrip } from "../model/StoredTrip.js"
import type { IndexRecord } from "../search/IndexRecord.js"
import type { RateTable } from "../pricing/rates.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"

/** What changed in the store after a given change sequence number. */
export interface IndexChanges {
  readonly seq: number
  /** Active trips added or updated since (their latest state). */
  readonly upserts: ReadonlyArray<IndexRecord>
  /** Ids of trips cancelled or deleted since. */
  readonly removed: ReadonlyArray<string>
}

/** The trip store: the source of truth every in-memory index derives from. */
export class TripStore extends Context.Tag("@tripsearch/core/ports/TripStore")<
  TripStore,
  {
    /** Any trip by id, cancelled ones included (callers decide what a cancelled trip means). */
    readonly getTrip: (id: string) => Effect.Effect<Option.Option<StoredTrip>>
    /** The trips of one result page, in no particular order; unknown ids are left out. */
    readonly getTrips: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, StoredTrip>>
    /** Calls `onRecord` for every active trip; returns the change sequence the scan is consistent with. */
    readonly scanIndex: (onRecord: (record: IndexRecord) => void) => Effect.Effect<number>
    /** Changes committed after `seq`. */
    readonly changesSince: (seq: number) => Effect.Effect<IndexChanges>
    /**
     * Names this store's history of change sequence numbers: while it is the same, `changesSince(seq)`
     * continues what an index consistent with `seq` saw (an index snapshot is checked against it).
     */
    readonly identity: Effect.Effect<string>
    /** The active meeting points among `ids` (all of them without `ids`), by id; removed and unknown ones are left out. */
    readonly meetingPoints: (ids?: ReadonlyArray<number>) => Effect.Effect<ReadonlyMap<number, StoredMeetingPoint>>
    /** Changes whenever an import changes a meeting point: followers that keep them read what changed then. */
    readonly meetingPointsVersion: Effect.Effect<string>
    /** The meeting points an import changed after `version` (a `meetingPointsVersion`), removed ones included. */
    readonly meetingPointsSince: (version: string) => Effect.Effect<ReadonlyArray<StoredMeetingPoint>>
    /** Currency rates (units per EUR), defaults overridden by the store's own. */
    readonly rates: Effect.Effect<RateTable>
    /**
     * For a store that can tell its followers (PostgreSQL's NOTIFY): calls `onChange` as soon as a
     * change is committed, and whenever notices may have been missed (a reconnection); the follower
     * then reads `changesSince`. Resolves with the function that stops it. A store without it is
     * polled.
     */
    readonly watchChanges?: (onChange: () => void) => Effect.Effect<() => Promise<void>>
  }
>() {}
