import { type ColumnCounts, TripIndex } from "@tripsearch/core"
import { closeSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs"

/** Bumped whenever the columns' layout changes: a snapshot of another layout is never read. */
export const SNAPSHOT_FORMAT = 8

interface Header {
  readonly format: number
  /** `TripStore.identity` of the store the index was loaded from. */
  readonly storeId: string
  /** The store's change sequence the index was consistent with. */
  readonly seq: number
  readonly counts: ColumnCounts
  /** Each column's name and byte length, in file order. */
  readonly columns: ReadonlyArray<readonly [string, number]>
}

// File layout: the header's byte length (8 bytes, little-endian), the header as JSON, padding to a
// multiple of 8, then each column's bytes in the header's order, each padded to a multiple of 8.
const pad8 = (n: number): number => (n + 7) & ~7

/**
 * Writes the index as it is now to `path` (through a temporary file renamed over it, so a reader
 * never sees half a snapshot). Synchronous: the index must not change while its columns are written.
 */
export const writeSnapshot = (path: string, index: TripIndex, storeId: string, seq: number): void => {
  const { counts, columns } = index.snapshot()
  const header: Header = { format: SNAPSHOT_FORMAT, storeId, seq, counts, columns: columns.map(([name, bytes]) => [name, bytes.byteLength] as const) }
  const json = Buffer.from(JSON.stringify(header), "utf8")
  const head = Buffer.alloc(pad8(8 + json.length))
  head.writeBigUInt64LE(BigInt(json.length), 0)
  json.copy(head, 8)
  const tmp = `${path}.partial`
  const fd = openSync(tmp, "w")
  try {
    writeSync(fd, head)
    const zeros = new Uint8Array(8)
    for (const [, bytes] of columns) {
      for (let at = 0; at < bytes.byteLength; ) at += writeSync(fd, bytes, at, bytes.byteLength - at)
      const padding = pad8(bytes.byteLength) - bytes.byteLength
      if (padding > 0) writeSync(fd, zeros, 0, padding)
    }
  } catch (e) {
    closeSync(fd)
    rmSync(tmp, { force: true })
    throw e
  }
  closeSync(fd)
  renameSync(tmp, path)
}

/** A snapshot read back: the index and the store sequence it is consistent with; or why it was not read. */
export type ReadSnapshot = { readonly ok: true; readonly index: TripIndex; readonly seq: number } | { readonly ok: false; readonly reason: string }

/** Reads the snapshot at `path` if it exists, has this build's format and was taken from the store `storeId`. */
export const readSnapshot = (path: string, storeId: string): ReadSnapshot => {
  let fd: number
  try {
    fd = openSync(path, "r")
  } catch {
    return { ok: false, reason: "no snapshot" }
  }
  try {
    const lengthBytes = Buffer.alloc(8)
    if (readSync(fd, lengthBytes, 0, 8, 0) !== 8) return { ok: false, reason: "a truncated snapshot" }
    const length = Number(lengthBytes.readBigUInt64LE(0))
    if (!(length > 0 && length < 1 << 20)) return { ok: false, reason: "not a snapshot" }
    const json = Buffer.alloc(length)
    if (readSync(fd, json, 0, length, 8) !== length) return { ok: false, reason: "a truncated snapshot" }
    const header = JSON.parse(json.toString("utf8")) as Header
    if (header.format !== SNAPSHOT_FORMAT) return { ok: false, reason: `a snapshot of format ${header.format}, not ${SNAPSHOT_FORMAT}` }
    if (header.storeId !== storeId) return { ok: false, reason: "a snapshot of another store" }
    const offsets = new Map<string, readonly [number, number]>()
    let at = pad8(8 + length)
    for (const [name, bytes] of header.columns) {
      offsets.set(name, [at, bytes])
      at += pad8(bytes)
    }
    let short = false
    const index = TripIndex.restore(header.counts, (name, into) => {
      const where = offsets.get(name)
      if (where === undefined || where[1] !== into.byteLength) {
        short = true
        return
      }
      for (let done = 0; done < into.byteLength; ) {
        const n = readSync(fd, into, done, into.byteLength - done, where[0] + done)
        if (n === 0) {
          short = true
          return
        }
        done += n
      }
    })
    if (short) return { ok: false, reason: "a snapshot whose columns do not match its header" }
    return { ok: true, index, seq: header.seq }
  } catch (e) {
    return { ok: false, reason: `an unreadable snapshot (${e instanceof Error ? e.message : String(e)})` }
  } finally {
    closeSync(fd)
  }
}
