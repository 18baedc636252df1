import { type SnapshotShelf, type SnapshotTag, TripIndex, type TripStore } from "@tripsearch/core"
import { Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { type ReadSnapshot, readSnapshot, SNAPSHOT_FORMAT, writeSnapshot } from "./IndexSnapshot.js"

/** How the index was loaded. */
export interface IndexLoad {
  readonly from: "snapshot" | "store"
  /** Why a snapshot was not used (with `from: "store"` and a snapshot place). */
  readonly reason?: string
  /** Changes applied on top of the snapshot. */
  readonly changes?: number
  /** Where the snapshot is kept (a file's path, or the store's words for its own place). */
  readonly where?: string
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

/**
 * Where the snapshot is kept, and the identity of the store it must have been taken from
 * (`TripStore.identity`): a file at `path`; or, with `shelf`, the store itself, `path` then being
 * the scratch file its bytes pass through (removed once read or kept).
 */
export interface SnapshotPlace {
  readonly path: string
  readonly storeId: string
  readonly shelf?: SnapshotShelf
}

/** Where the snapshot at `path` of this store is, its identity read from the store. */
export const snapshotPlace = async (store: TripStore["Type"], path: string): Promise<SnapshotPlace> => ({ path, storeId: await Effect.runPromise(store.identity) })

/** The snapshot the store keeps itself (`TripStore.snapshots`), none for a store that keeps none. */
export const shelfPlace = async (store: TripStore["Type"]): Promise<SnapshotPlace | undefined> => {
  if (store.snapshots === undefined) return undefined
  // Unique per call: replicas on one host, or a writer and a reader in one process, never share it.
  const path = join(tmpdir(), `tripsearch-index-${process.pid}-${randomUUID()}`)
  return { path, storeId: await Effect.runPromise(store.identity), shelf: store.snapshots }
}

/** Where a snapshot place is, for messages. */
export const placeName = (place: SnapshotPlace): string => place.shelf?.where ?? place.path

/** The snapshot kept by the store, its tag checked against the store before its bytes are read. */
const readShelf = async (store: TripStore["Type"], place: SnapshotPlace & { readonly shelf: SnapshotShelf }): Promise<ReadSnapshot> => {
  const tag = await Effect.runPromise(place.shelf.tag)
  if (Option.isNone(tag)) return { ok: false, reason: "no snapshot" }
  if (tag.value.format !== SNAPSHOT_FORMAT) return { ok: false, reason: `a snapshot of format ${tag.value.format}, not ${SNAPSHOT_FORMAT}` }
  if (tag.value.storeId !== place.storeId) return { ok: false, reason: `a snapshot of another store (${tag.value.storeId}, not ${place.storeId})` }
  const { seq } = await Effect.runPromise(store.changesSince(Number.MAX_SAFE_INTEGER))
  if (seq < tag.value.seq) return { ok: false, reason: `the store is at change ${seq}, before the snapshot's ${tag.value.seq}` }
  try {
    let fetched: Option.Option<SnapshotTag>
    try {
      fetched = await Effect.runPromise(place.shelf.fetch(place.path))
    } catch (e) {
      // The store not answering stops the start, as any read of it would; a snapshot whose chunks
      // are not what its tag says (cut, or written by hand) is only not used.
      if (e instanceof Error && /\bStoreUnavailable$/.test(e.name)) throw e
      return { ok: false, reason: `a damaged snapshot (${e instanceof Error ? e.message : String(e)})` }
    }
    if (Option.isNone(fetched)) return { ok: false, reason: "no snapshot" }
    const read = readSnapshot(place.path, place.storeId)
    if (read.ok && read.seq !== fetched.value.seq) return { ok: false, reason: `a snapshot whose bytes are of change ${read.seq}, its tag of ${fetched.value.seq}` }
    return read
  } finally {
    rmSync(place.path, { force: true })
  }
}

/**
 * Every active trip of the store in a `TripIndex`: from the snapshot when it is usable (taken from
 * the same store, at a sequence the store has not gone back from), brought up to date with
 * `changesSince`; else by scanning the whole store.
 */
export const loadIndex = async (store: TripStore["Type"], snapshot: SnapshotPlace | undefined): Promise<LoadedIndex> => {
  const t0 = performance.now()
  let reason: string | undefined
  const where = snapshot === undefined ? {} : { where: placeName(snapshot) }
  if (snapshot !== undefined) {
    const read = snapshot.shelf !== undefined ? await readShelf(store, { ...snapshot, shelf: snapshot.shelf }) : readSnapshot(snapshot.path, snapshot.storeId)
    if (read.ok) {
      const changes = await Effect.runPromise(store.changesSince(read.seq))
      if (changes.seq >= read.seq) {
        read.index.apply(changes.upserts, changes.removed)
        if (snapshot.shelf !== undefined) collectGarbage()
        const load: IndexLoad = { from: "snapshot", changes: changes.upserts.length + changes.removed.length, ...where, ms: performance.now() - t0 }
        return { index: read.index, seq: changes.seq, load, snapshotSeq: read.seq }
      }
      reason = `the store is at change ${changes.seq}, before the snapshot's ${read.seq}`
    } else reason = read.reason
  }
  const index = new TripIndex()
  index.beginLoad()
  const seq = await Effect.runPromise(store.scanIndex((r) => index.upsert(r)))
  index.endLoad()
  collectGarbage()
  return { index, seq, load: { from: "store", ...(reason !== undefined ? { reason } : {}), ...where, ms: performance.now() - t0 }, snapshotSeq: -1 }
}

/**
 * A full garbage collection, now. A scan grows the index's columns by doubling, and leaves as many
 * bytes of earlier copies as the index holds (about 500 MB of RSS at 1M trips with roads): unreachable,
 * but held until collections get to them, for a minute or more after the server listens. A
 * snapshot fetched from the store's shelf leaves its bytes' pieces as they came off the
 * connection, as many as the snapshot holds (a file's snapshot is read into the columns).
 */
const collectGarbage = (): void => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

/**
 * Writes the index as a snapshot at its place: the file, or the store's shelf through the scratch
 * file. Whether it was kept (a shelf keeps a snapshot of a later change rather than this one).
 */
export const saveSnapshot = async (place: SnapshotPlace, index: TripIndex, seq: number): Promise<boolean> => {
  // Synchronous: the index must not change while its columns are written; the upload need not be.
  writeSnapshot(place.path, index, place.storeId, seq)
  if (place.shelf === undefined) return true
  try {
    return await Effect.runPromise(place.shelf.keep(place.path, { storeId: place.storeId, seq, format: SNAPSHOT_FORMAT }))
  } finally {
    rmSync(place.path, { force: true })
  }
}

/**
 * Brings the snapshot up to the store's latest change (loaded as `loadIndex` does, then written
 * unless it was already there), so that the next server start reads it instead of scanning the
 * store: what the store tool does after an import. `path` is a file; without one, the store's own
 * shelf (`TripStore.snapshots`).
 */
export const refreshSnapshot = async (store: TripStore["Type"], path: string | undefined): Promise<LoadedIndex & { readonly written: boolean; readonly where: string }> => {
  const place = path !== undefined ? await snapshotPlace(store, path) : await shelfPlace(store)
  if (place === undefined) throw new Error("this store keeps no index snapshot of its own: give a file's path")
  const loaded = await loadIndex(store, place)
  const written = loaded.snapshotSeq !== loaded.seq && (await saveSnapshot(place, loaded.index, loaded.seq))
  return { ...loaded, written, where: placeName(place) }
}
