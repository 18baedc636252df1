import type { IndexRecord } from "./IndexRecord.js"
import type { MatchRequest, MatchResult } from "./MatchRequest.js"
import { AlongGrid, LATE_LIMIT } from "./tripIndex/AlongGrid.js"
import { GeoGrid } from "./tripIndex/GeoGrid.js"
import { type IdSource, IdTable } from "./tripIndex/IdTable.js"
import type { IndexImage } from "./tripIndex/IndexImage.js"
import { renumberByCell } from "./tripIndex/renumber.js"
import { type ColumnCounts, growI32, TripColumns } from "./tripIndex/TripColumns.js"
import { TripSearcher } from "./TripSearcher.js"

export type { IndexImage } from "./tripIndex/IndexImage.js"
export type { ColumnCounts } from "./tripIndex/TripColumns.js"
export { selectSorted } from "./tripIndex/ranking.js"

/** When the index reorganises itself; the defaults suit production, tests lower them. */
export interface TripIndexOptions {
  /** Room for waypoints added outside the CSR grid before it is rebuilt (at least a quarter of the grid). */
  readonly rebuildAfter?: number
  /** Dead trip slots before the arrays are compacted (at least a quarter of all slots). */
  readonly compactAfter?: number
}

/**
 * Every active trip, searchable by place (docs/API.md: Searching, Facets, Prices). The rules live
 * beside it, one file each, in `tripIndex/`: the trips' columns (`TripColumns`), the grid that
 * finds the waypoints near a place (`GeoGrid`) and the one that finds the stops along the road
 * by their meeting points (`AlongGrid`), the segment a trip matches by (`bestSegment`,
 * `roadSegment` along the road), its price (`SegmentPricer`), the filters and facets (`facets`),
 * the order, paging and top trips (`ranking`), and the renumbering that keeps neighbours together
 * in memory (`renumber`); the search loop that applies them is `TripSearcher`. Updates replace a trip's slot: the old slot is
 * marked dead and skipped, and the arrays are compacted once dead slots pile up.
 *
 * This is the index's one writer. Its arrays live in shared memory, and other threads search them
 * through `TripSearcher.over(index.image())` while it goes on writing: an update is visible to
 * them as soon as it is made, and when an array had to be replaced (grown, compacted, the grid
 * rebuilt) the listeners of `onImage` get the new image to search instead.
 */
export class TripIndex {
  private readonly rebuildAfter: number
  private readonly compactAfter: number

  constructor(options: TripIndexOptions = {}) {
    this.rebuildAfter = options.rebuildAfter ?? 65_536
    this.compactAfter = options.compactAfter ?? 1024
  }

  private t = new TripColumns()
  private grid = new GeoGrid()
  private along = new AlongGrid()
  // A trip's ref (`ids`: id -> ref) is fixed when it is upserted and `refSlot` gives the ref's
  // current slot, so renumbering the slots rewrites one typed array and leaves the ids' table as it is.
  private ids = new IdTable()
  private refSlot: Int32Array = new Int32Array(1024)
  private refs = 0
  private dead = 0
  private loading = false
  private searcher = new TripSearcher(this.t, this.grid, this.along)
  private version = 0
  private announced: IndexImage | undefined
  private readonly listeners: Array<(image: IndexImage) => void> = []
  /** A ref's id, where the columns keep it, for `ids`. */
  private readonly idSource: IdSource = ((index: TripIndex): IdSource => ({
    get chars() {
      return index.t.idChars
    },
    from: (ref) => index.t.idStart[index.refSlot[ref]!]!,
    to: (ref) => index.t.idStart[index.refSlot[ref]! + 1]!
  }))(this)

  static from(records: Iterable<IndexRecord>, options: TripIndexOptions = {}): TripIndex {
    const index = new TripIndex(options)
    index.beginLoad()
    for (const r of records) index.upsert(r)
    index.endLoad()
    return index
  }

  /** Bulk load: upserts until `endLoad` skip the grid, which `endLoad` then builds once. */
  beginLoad(): void {
    this.loading = true
  }

  endLoad(): void {
    this.loading = false
    renumberByCell(this.t, this.ids.size, this.refSlot, this.refs)
    this.dead = 0
    this.rebuildGrid()
    this.announce()
  }

  /**
   * The index's columns as they are now, for a snapshot: the counts, and the bytes in use of each
   * column by name (views on the live arrays: write them out before the next change).
   */
  snapshot(): { readonly counts: ColumnCounts; readonly columns: ReadonlyArray<readonly [string, Uint8Array]> } {
    return { counts: this.t.counts(), columns: this.t.usedBytes() }
  }

  /**
   * An index over the columns of a snapshot (`fill` copies into each the bytes `snapshot` gave under
   * its name), with its grid built anew. The snapshot's dead slots stay dead until a compaction.
   */
  static restore(counts: ColumnCounts, fill: (name: string, into: Uint8Array) => void, options: TripIndexOptions = {}): TripIndex {
    const index = new TripIndex(options)
    const t = TripColumns.restore(counts, fill)
    index.t = t
    index.refSlot = new Int32Array(Math.max(1024, t.traits.length))
    index.ids.reserve(t.slots, index.idSource)
    for (let s = 0; s < t.slots; s++) {
      if (!t.isAlive(s)) {
        index.dead++
        continue
      }
      const ref = index.refs++
      index.refSlot[ref] = s
      index.ids.add(ref, index.idSource)
    }
    index.rebuildGrid()
    index.announce()
    return index
  }

  /** Active trips. */
  get size(): number {
    return this.ids.size
  }

  has(id: string): boolean {
    return this.ids.get(id, this.idSource) >= 0
  }

  /** The arrays as they are now, to search from another thread (`TripSearcher.over`). */
  image(): IndexImage {
    return { version: this.version, columns: this.t.image(), grid: this.grid.image(), along: this.along.image() }
  }

  /** Calls `listener` with every new image from now on (after a load, a growth, a compaction, a grid rebuild). */
  onImage(listener: (image: IndexImage) => void): void {
    this.listeners.push(listener)
  }

  upsert(r: IndexRecord): void {
    this.upsertOne(r)
    // A bulk load announces once, at its end.
    if (!this.loading) this.announce()
  }

  remove(id: string): void {
    this.kill(id)
    this.maybeCompact()
    this.announce()
  }

  /** Applies a batch of store changes (freshness). */
  apply(upserts: ReadonlyArray<IndexRecord>, removed: ReadonlyArray<string>): void {
    for (const r of upserts) this.upsertOne(r)
    for (const id of removed) this.kill(id)
    this.maybeCompact()
    this.announce()
  }

  search(req: MatchRequest): MatchResult {
    if (this.searcher.t !== this.t || this.searcher.grid !== this.grid || this.searcher.along !== this.along) this.searcher = new TripSearcher(this.t, this.grid, this.along)
    return this.searcher.search(req)
  }

  // The old slot dies before the new one is linked into the grid: a reader may miss the trip for
  // the length of one search, never see it twice. It dies after the append, which refuses a record
  // the columns cannot hold before writing any of it: the index is then left as it was.
  private upsertOne(r: IndexRecord): void {
    const t = this.t
    // Columns that grow together are checked once: per slot by `traits`, per waypoint by `wPlace`,
    // per stop along the road by `aMp`, the meeting point table by `mpId`.
    const { traits, wPlace, aMp, mpId, idChars, shownBytes, wordStart, wordChars } = t
    const slot = t.append(r)
    this.kill(r.id)
    const ref = this.refs++
    this.refSlot = growI32(this.refSlot, ref + 1)
    this.refSlot[ref] = slot
    this.ids.add(ref, this.idSource)
    if (this.loading) return
    const stops = t.wAlong[t.wpStart[slot]! + t.wpCount[slot]! - 1]! - t.wAlong[t.wpStart[slot]!]!
    // A full arena, one whose lists miss its cells, or columns the append had to copy to grow: new
    // grids, which take this trip's waypoints and stops from the columns. Linking the trip into the
    // current grids would show it to readers of the previous image, whose copies of the columns end
    // before its slot or its waypoints.
    const grown =
      t.traits !== traits || t.wPlace !== wPlace || t.aMp !== aMp || t.mpId !== mpId || t.idChars !== idChars || t.shownBytes !== shownBytes || t.wordStart !== wordStart || t.wordChars !== wordChars
    if (grown || !this.grid.takes(t, slot) || this.along.room < stops || this.along.late >= LATE_LIMIT) return this.rebuildGrid()
    // Its stops along the road before its waypoints: a search that sees its waypoints sees them all (`AlongGrid`).
    this.along.addTrip(t, slot)
    this.grid.addTrip(t, slot)
  }

  private kill(id: string): void {
    const ref = this.ids.delete(id, this.idSource)
    if (ref < 0) return
    this.t.kill(this.refSlot[ref]!)
    this.dead++
  }

  /**
   * Each arena holds a quarter of its grid, at least `rebuildAfter` entries. A grid of at least
   * `rebuildAfter` waypoints has its arena's lists over every cell: a trip out of the built window
   * would have the grid built anew, and at a national network's size that takes longer than a
   * change may take to reach searches. A smaller one's lists cover the window only (a trip out of
   * it has this small grid built anew), not 6.5 MB of zeros per build.
   */
  private rebuildGrid(): void {
    this.grid = new GeoGrid()
    this.grid.build(this.t, Math.max(this.rebuildAfter, Math.ceil(this.t.waypoints / 4)), this.t.waypoints >= this.rebuildAfter)
    this.along = new AlongGrid()
    this.along.build(this.t, Math.max(this.rebuildAfter, Math.ceil(this.t.alongs / 4)))
  }

  /** Rebuilds the arrays without dead slots once they are a quarter of all slots. */
  private maybeCompact(): void {
    if (this.dead < this.compactAfter || this.dead * 4 < this.t.slots) return
    const records: Array<IndexRecord> = []
    for (let s = 0; s < this.t.slots; s++) if (this.t.isAlive(s)) records.push(this.t.recordOf(s))
    const fresh = TripIndex.from(records, { rebuildAfter: this.rebuildAfter, compactAfter: this.compactAfter })
    this.t = fresh.t
    this.grid = fresh.grid
    this.along = fresh.along
    // The table holds refs only, which mean the same with `fresh`'s columns and refSlot, now this one's.
    this.ids = fresh.ids
    this.refSlot = fresh.refSlot
    this.refs = fresh.refs
    this.dead = 0
  }

  /** Tells the listeners when an array was replaced since the image they were last given. */
  private announce(): void {
    const last = this.announced
    const now = this.image()
    const same = <A extends object>(a: A, b: A): boolean => (Object.keys(a) as Array<keyof A>).every((k) => a[k] === b[k])
    if (last !== undefined && same(last.columns, now.columns) && same(last.grid, now.grid) && same(last.along, now.along)) return
    this.version++
    const image = { ...now, version: this.version }
    this.announced = image
    for (const listener of this.listeners) listener(image)
  }
}
