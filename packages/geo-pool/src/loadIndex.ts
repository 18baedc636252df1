import { TripIndex, type TripStore } from "@tripsearch/core"
import { Effect } from "effect"
import { readSnapshot, writeSnapshot } from "./IndexSnapshot.js"

/** How the index was loaded. */
export interface IndexLoad {
  readonly from: "snapshot" | "store"
  /** Why a snapshot was not used (with `from: "store"` and a snapshot path). */
  readonly reason?: string
  /** Changes applied on top of the snapshot. */
  readonly changes?: number
  readonly ms: number
}

/** An index loaded from a store, the store's change sequence it is consistent with, and the snapshot's. */
export interface LoadedIndex {
  readonly index: TripIndex
  readonly seq: number
  readonly load: IndexLoad
  /** The sequence of the snapshot it was read from, -1 when it was scanned from the store. */
  readonly snapshotSeq: number
}

/** A snapshot file and the identity of the store it must have been taken from (`TripStore.identity`). */
export interface SnapshotPlace {
  readonly path: string
  readonly storeId: string
}

/** Where the snapshot at `path` of this store is, its identity read from the store. */
export const snapshotPlace = async (store: TripStore["Type"], path: string): Promise<SnapshotPlace> => ({ path, storeId: await Effect.runPromise(store.identity) })

/**
 * Every active trip of the store in a `TripIndex`: from the snapshot when it is usable (taken from
 * the same store, at a sequence the store has not gone back from), brought up to date with
 * `changesSince`; else by scanning the whole store.
 */
export const loadIndex = async (store: TripStore["Type"], snapshot: SnapshotPlace | undefined): Promise<LoadedIndex> => {
  const t0 = performance.now()
  let reason: string | undefined
  if (snapshot !== undefined) {
    const read = readSnapshot(snapshot.path, snapshot.storeId)
    if (read.ok) {
      const changes = await Effect.runPromise(store.changesSince(read.seq))
      if (changes.seq >= read.seq) {
        read.index.apply(changes.upserts, changes.removed)
        const load: IndexLoad = { from: "snapshot", changes: changes.upserts.length + changes.removed.length, ms: performance.now() - t0 }
        return { index: read.index, seq: changes.seq, load, snapshotSeq: read.seq }
      }
      reason = `the store is at change ${changes.seq}, before the snapshot's ${read.seq}`
    } else reason = read.reason
  }
  const index = new TripIndex()
  index.beginLoad()
  const seq = await Effect.runPromise(store.scanIndex((r) => index.upsert(r)))
  index.endLoad()
  return { index, seq, load: { from: "store", ...(reason !== undefined ? { reason } : {}), ms: performance.now() - t0 }, snapshotSeq: -1 }
}

/**
 * Brings the snapshot at `path` up to the store's latest change (loaded as `loadIndex` does, then
 * written unless it was already there), so that the next server start reads it instead of scanning
 * the store: what the store tool does after an import.
 */
export const refreshSnapshot = async (store: TripStore["Type"], path: string): Promise<LoadedIndex & { readonly written: boolean }> => {
  const place = await snapshotPlace(store, path)
  const loaded = await loadIndex(store, place)
  const written = loaded.snapshotSeq !== loaded.seq
  if (written) writeSnapshot(path, loaded.index, place.storeId, loaded.seq)
  return { ...loaded, written }
}
