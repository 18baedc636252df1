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

/** What a kept index snapshot was taken from: checked before its bytes are read. */
export interface SnapshotTag {
  /** `TripStore.identity` of the store the index was loaded from. */
  readonly storeId: string
  /** The store's change sequence the index was consistent with. */
  readonly seq: number
  /** The snapshot file's layout version (geo-pool's `SNAPSHOT_FORMAT`). */
  readonly format: number
}

/**
 * A store that keeps the index snapshot itself, where every server over it can read it
 * (PostgreSQL: in the database): the snapshot travels as the bytes of a snapshot file.
 */
export interface SnapshotShelf {
  /** Where the snapshot is kept, for messages. */
  readonly where: string
  /** The kept snapshot's tag, none when the store keeps none. */
  readonly tag: Effect.Effect<Option.Option<SnapshotTag>>
  /** Copies the kept snapshot's bytes into the file at `path`; its tag, none when there is none. */
  readonly fetch: (path: string) => Effect.Effect<Option.Option<SnapshotTag>>
  /** Keeps the snapshot file at `path`, taken as `tag` says, unless one of a later change is kept already; whether it was kept. */
  readonly keep: (path: string, tag: SnapshotTag) => Effect.Effect<boolean>
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
    /** For a store that keeps the index snapshot every server over it starts from. */
    readonly snapshots?: SnapshotShelf
  }
>() {}
