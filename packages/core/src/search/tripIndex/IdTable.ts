const EMPTY = 0
const GONE = -1

/** FNV-1a over UTF-16 code units: the same hash from a string and from its code units in `idChars`. */
const hashOf = (id: string): number => {
  let h = 0x811c9dc5
  for (let k = 0; k < id.length; k++) h = Math.imul(h ^ id.charCodeAt(k), 0x01000193)
  return h >>> 0
}
const hashOfChars = (chars: Uint16Array, from: number, to: number): number => {
  let h = 0x811c9dc5
  for (let k = from; k < to; k++) h = Math.imul(h ^ chars[k]!, 0x01000193)
  return h >>> 0
}

/** Where a ref's id lies: its characters `chars[from..to)` (`TripColumns.idChars` of its slot). */
export interface IdSource {
  readonly chars: Uint16Array
  /** The start and end of ref `ref`'s id in `chars`. */
  from(ref: number): number
  to(ref: number): number
}

/**
 * The trips' ids -> their refs (`TripIndex`), as an open-addressing hash table of refs in one typed
 * array: the ids themselves stay where the columns keep them (`idChars`), compared in place. A `Map`
 * of a million id strings cost 74 MB of the writer's heap at 1M trips; this table, 8 MB.
 */
export class IdTable {
  // Per cell: EMPTY, GONE (a deleted entry, kept so that later probes go on), or ref + 1.
  private cells = new Int32Array(1024)
  private live = 0
  private used = 0

  /** Live entries. */
  get size(): number {
    return this.live
  }

  /** Makes room for `n` live entries at once (a load that knows its count rehashes no more). */
  reserve(n: number, source: IdSource): void {
    if (n * 5 > this.cells.length * 3) this.rehash(source, n)
  }

  /** The ref of `id`, or -1. */
  get(id: string, source: IdSource): number {
    const at = this.find(id, source)
    return at < 0 ? -1 : this.cells[at]! - 1
  }

  /** Adds `id` -> `ref`; `id` must not be in the table, and `ref`'s id in `source` must be `id`. */
  add(ref: number, source: IdSource): void {
    if ((this.used + 1) * 5 > this.cells.length * 3) this.rehash(source)
    this.place(ref, hashOfChars(source.chars, source.from(ref), source.to(ref)))
    this.live++
    this.used++
  }

  /** Removes `id`; answers its ref, or -1 when it was not in the table. */
  delete(id: string, source: IdSource): number {
    const at = this.find(id, source)
    if (at < 0) return -1
    const ref = this.cells[at]! - 1
    this.cells[at] = GONE
    this.live--
    return ref
  }

  private find(id: string, source: IdSource): number {
    const cells = this.cells
    const mask = cells.length - 1
    for (let at = hashOf(id) & mask; ; at = (at + 1) & mask) {
      const c = cells[at]!
      if (c === EMPTY) return -1
      if (c !== GONE && sameId(id, source, c - 1)) return at
    }
  }

  /** Puts `ref` in the first free cell of its probe sequence (no GONE is reused: `used` counts them). */
  private place(ref: number, hash: number): void {
    const cells = this.cells
    const mask = cells.length - 1
    let at = hash & mask
    while (cells[at] !== EMPTY) at = (at + 1) & mask
    cells[at] = ref + 1
  }

  /** A table of room for twice the live entries, or `atLeast` (the GONE ones dropped). */
  private rehash(source: IdSource, atLeast = this.live + 1): void {
    const old = this.cells
    let n = 1024
    while (n < Math.max(atLeast, this.live + 1) * 2.5) n *= 2
    this.cells = new Int32Array(n)
    for (const c of old) if (c > 0) this.place(c - 1, hashOfChars(source.chars, source.from(c - 1), source.to(c - 1)))
    this.used = this.live
  }
}

const sameId = (id: string, source: IdSource, ref: number): boolean => {
  const from = source.from(ref)
  if (source.to(ref) - from !== id.length) return false
  const chars = source.chars
  for (let k = 0; k < id.length; k++) if (chars[from + k] !== id.charCodeAt(k)) return false
  return true
}
