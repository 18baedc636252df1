import { cellOf, cellRuns, cellWindow, chordBounds, type FlatBox, forEachCell, rankOf, sharedF32, writeUnit } from "./GeoGrid.js"
import { sharedI32, sharedU8, type TripColumns } from "./TripColumns.js"

/**
 * What `AlongGrid.scanNear` gives the stops at one meeting point that passed the chord test to: its
 * built stops `e0..e1-1` of `slots` and `pos` (trip slot, place among the trip's stops along the
 * road), or one arena stop the same way, with the meeting point's `sure` and `rank` (`rankOf`).
 * One call per meeting point rather than per stop, so that each of the search's ways of taking them
 * (`NearHits`) runs its own loop.
 */
export type StopRun = (slots: Int32Array, pos: Uint8Array, e0: number, e1: number, sure: number, rank: number) => void
/** Meeting points added to the table since the last build, each tested on every search, before the next build. */
export const LATE_LIMIT = 1024

/** The arrays of an `AlongGrid`, as posted to the threads that only read them. */
export interface AlongImage {
  readonly mpStart: Int32Array
  /** The cell `mpStart[0]` stands for (`CellWindow`). */
  readonly mpBase: number
  readonly mpOrder: Int32Array
  readonly xyz: Float32Array
  readonly start: Int32Array
  readonly slot: Int32Array
  readonly pos: Uint8Array
  readonly head: Int32Array
  readonly next: Int32Array
  readonly added: Int32Array
  readonly addedPos: Uint8Array
  /** The arena's entries, the meeting point table entries built, and those visible (built or late). */
  readonly counts: Int32Array
}

/** What `AlongGrid.cellsOf` answers: a place's box, the meeting points in its cells, and their stops (built ones). */
export interface AlongCells {
  readonly box: FlatBox
  readonly mps: ReadonlyArray<number>
  readonly entries: number
}

const ADDED = 0
const BUILT = 1
const VISIBLE = 2

/**
 * The stops along the road of every trip (docs/API.md, Along the road), found by their meeting
 * point: a national network's roads pass some tens of thousands of meeting points, each stop of
 * each trip one of them, so the grid keeps the meeting points by cell (cell `mpBase + i`:
 * `mpStart[i]` to `mpStart[i + 1]` of `mpOrder`, `CellWindow`) with their unit vectors (`xyz`, as `GeoGrid`'s), and for each
 * meeting point the stops at it (`start[m]` to `start[m + 1]`): the trip slot and the stop's place
 * among its trip's stops along the road (`pos`, from 1, so that a span of them is never 0; 255 for
 * any past 254). A search tests each meeting
 * point near it once, not each of the millions of stops, and a stop costs 5 bytes here.
 *
 * Trips added since the last build go to an arena (`head[m]` is 1 + the newest entry at meeting
 * point m, `next[e]` 1 + the one before), linked while readers walk it as in `GeoGrid`. A search
 * sees an arena entry when its trip's slot is at most the newest slot it sees in `GeoGrid`'s arena
 * (`GeoGrid.lastSeenSlot`): the writer links a trip's stops here before its waypoints there, so
 * such a trip's stops are all linked. Meeting point table entries added since the build (a new or
 * moved meeting point) are in no cell: each search tests them all, until `LATE_LIMIT` of them have
 * the writer build anew.
 */
export class AlongGrid implements AlongImage {
  mpStart = sharedI32(2)
  mpBase = 0
  mpOrder = sharedI32(0)
  xyz = sharedF32(0)
  start = sharedI32(1)
  slot = sharedI32(0)
  pos = sharedU8(0)
  head = sharedI32(0)
  next = sharedI32(0)
  added = sharedI32(0)
  addedPos = sharedU8(0)
  counts = sharedI32(3)

  static attach(image: AlongImage): AlongGrid {
    return Object.assign(Object.create(AlongGrid.prototype) as AlongGrid, image)
  }

  image(): AlongImage {
    const { mpStart, mpBase, mpOrder, xyz, start, slot, pos, head, next, added, addedPos, counts } = this
    return { mpStart, mpBase, mpOrder, xyz, start, slot, pos, head, next, added, addedPos, counts }
  }

  /** Room left in the arena. */
  get room(): number {
    return this.next.length - Atomics.load(this.counts, ADDED)
  }

  /** Meeting point table entries added since the build. */
  get late(): number {
    return Atomics.load(this.counts, VISIBLE) - Atomics.load(this.counts, BUILT)
  }

  /**
   * Adds the stops along the road of the trip in `slot` to the arena, before its waypoints go to
   * `GeoGrid`'s; there must be room, and room in `xyz` for the table's meeting points.
   */
  addTrip(t: TripColumns, slot: number): void {
    const w0 = t.wpStart[slot]!
    const a0 = t.wAlong[w0]!
    const a1 = t.wAlong[w0 + t.wpCount[slot]! - 1]!
    const visible = Atomics.load(this.counts, VISIBLE)
    for (let m = visible; m < t.mps; m++) writeUnit(this.xyz, m, t.mpPlace[2 * m]!, t.mpPlace[2 * m + 1]!)
    if (t.mps > visible) Atomics.store(this.counts, VISIBLE, t.mps)
    let e = Atomics.load(this.counts, ADDED)
    for (let a = a0; a < a1; a++, e++) {
      const m = t.aMp[a]!
      this.added[e] = slot
      this.addedPos[e] = Math.min(a - a0 + 1, 255)
      this.next[e] = Atomics.load(this.head, m)
      Atomics.store(this.head, m, e + 1)
    }
    Atomics.store(this.counts, ADDED, e)
  }

  /**
   * The meeting points of the table by cell and the stops of `t`'s live trips by meeting point
   * (counting sorts, in slot order within each), with an empty arena of `room` entries, all in
   * fresh arrays: readers of the previous ones are unaffected.
   */
  build(t: TripColumns, room: number): void {
    const mps = t.mps
    const capacity = t.mpId.length
    const keys = new Int32Array(mps)
    const xyz = sharedF32(3 * capacity)
    for (let m = 0; m < mps; m++) {
      keys[m] = cellOf(t.mpPlace[2 * m]!, t.mpPlace[2 * m + 1]!)
      writeUnit(xyz, m, t.mpPlace[2 * m]!, t.mpPlace[2 * m + 1]!)
    }
    const { base: mpBase, n } = cellWindow(keys)
    const mpStart = sharedI32(n + 2)
    for (let m = 0; m < mps; m++) mpStart[keys[m]! - mpBase + 2]!++
    cellRuns(mpStart)
    const mpOrder = sharedI32(mps)
    for (let m = 0; m < mps; m++) mpOrder[mpStart[keys[m]! - mpBase + 1]!++] = m
    const start = sharedI32(mps + 1)
    for (let s = 0; s < t.slots; s++) {
      if (!t.isAlive(s)) continue
      const w0 = t.wpStart[s]!
      for (let a = t.wAlong[w0]!, a1 = t.wAlong[w0 + t.wpCount[s]! - 1]!; a < a1; a++) start[t.aMp[a]! + 1]!++
    }
    for (let m = 0; m < mps; m++) start[m + 1]! += start[m]!
    const fill = start.slice(0, mps)
    const slot = sharedI32(start[mps]!)
    const pos = sharedU8(start[mps]!)
    for (let s = 0; s < t.slots; s++) {
      if (!t.isAlive(s)) continue
      const w0 = t.wpStart[s]!
      const a0 = t.wAlong[w0]!
      for (let a = a0, a1 = t.wAlong[w0 + t.wpCount[s]! - 1]!; a < a1; a++) {
        const at = fill[t.aMp[a]!]!++
        slot[at] = s
        pos[at] = Math.min(a - a0 + 1, 255)
      }
    }
    this.mpStart = mpStart
    this.mpBase = mpBase
    this.mpOrder = mpOrder
    this.xyz = xyz
    this.start = start
    this.slot = slot
    this.pos = pos
    this.head = sharedI32(capacity)
    this.next = sharedI32(room)
    this.added = sharedI32(room)
    this.addedPos = sharedU8(room)
    this.counts = sharedI32(3)
    this.counts[BUILT] = mps
    this.counts[VISIBLE] = mps
  }

  /**
   * The meeting points in the cells `box` covers (and every late one), looked up once per search
   * and side, and how many built stops they hold in all (a pair is scanned from its lighter side).
   */
  cellsOf(box: FlatBox): AlongCells {
    const list: Array<number> = []
    let entries = 0
    const { mpStart, mpBase, mpOrder, start } = this
    const n = mpStart.length - 2
    forEachCell(box, (key) => {
      const c = key - mpBase
      if (c < 0 || c >= n) return
      for (let i = mpStart[c]!, end = mpStart[c + 1]!; i < end; i++) {
        const m = mpOrder[i]!
        list.push(m)
        entries += start[m + 1]! - start[m]!
      }
    })
    for (let m = Atomics.load(this.counts, BUILT), end = Atomics.load(this.counts, VISIBLE); m < end; m++) list.push(m)
    return { box, mps: list, entries }
  }

  /**
   * The meeting points of `cells` that pass `scanNear`'s chord test, as bits of `into` (a bit per
   * table entry, room for `capacity`). `clearBits` empties it.
   */
  nearBits(cells: AlongCells, into: Int32Array): void {
    const { box, mps } = cells
    const { limit } = chordBounds(box)
    for (let i = 0; i < mps.length; i++) {
      const m = mps[i]!
      if (this.chord2(m, box) <= limit) into[m >>> 5]! |= 1 << (m & 31)
    }
  }

  /** The squared chord from meeting point `m` to the place of `box` (small enough to be inlined: no boxed double). */
  private chord2(m: number, box: FlatBox): number {
    const xyz = this.xyz
    const dx = xyz[3 * m]! - box.x
    const dy = xyz[3 * m + 1]! - box.y
    const dz = xyz[3 * m + 2]! - box.z
    return dx * dx + dy * dy + dz * dz
  }

  /** Empties the bits `nearBits` set for `cells`. */
  clearBits(cells: AlongCells, bits: Int32Array): void {
    const { mps } = cells
    for (let i = 0; i < mps.length; i++) bits[mps[i]! >>> 5] = 0
  }

  /** Room in the meeting point table this grid's arrays have (built and late entries). */
  get capacity(): number {
    return this.xyz.length / 3
  }

  /**
   * `GeoGrid.scanNear` for the stops along the road: gives `take` the stops (of live trips or not)
   * at each meeting point of `cells` that passes the chord test, its meeting point's. A stop is
   * neither the first nor the last stop of its trip. Arena entries of trips after `lastSlot` are
   * skipped.
   */
  scanNear(cells: AlongCells, lastSlot: number, take: StopRun): void {
    const { box, mps } = cells
    const { limit, sureLimit } = chordBounds(box)
    const perLimit = 1 / limit
    const { start, slot, pos, head, next, added, addedPos } = this
    const built = Atomics.load(this.counts, BUILT)
    for (let i = 0; i < mps.length; i++) {
      const m = mps[i]!
      const d2 = this.chord2(m, box)
      if (d2 > limit) continue
      const sure = d2 < sureLimit ? 1 : 0
      const rank = rankOf(d2, perLimit)
      if (m < built && start[m + 1]! > start[m]!) take(slot, pos, start[m]!, start[m + 1]!, sure, rank)
      for (let link = Atomics.load(head, m); link !== 0; link = next[link - 1]!) {
        const e = link - 1
        if (added[e]! <= lastSlot) take(added, addedPos, e, e + 1, sure, rank)
      }
    }
  }
}
