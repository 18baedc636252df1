import { bestSegment, distanceWithin } from "./bestSegment.js"
import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

// A trip's waypoints near one place, as one 32-bit word: bit k for waypoint k (k < 15), bit 16 + k
// when it is surely within the radius, OVERFLOW when a later waypoint was near (rare: its
// distances are then measured for every waypoint).
const POSITIONS = 15
const NEAR = 0x7fff
const OVERFLOW = 0x8000

const bitOf = (k: number, sure: number): number => (k < POSITIONS ? (1 << k) | (sure << (16 + k)) : OVERFLOW)

/** The place in its trip of the lowest waypoint of `word` (its only one, for `onlyOneSure`). */
const firstPlace = (word: number): number => 31 - Math.clz32(word & NEAR & -(word & NEAR))

/** True when `word` has exactly one waypoint, surely within the radius. */
const onlyOneSure = (word: number): boolean => {
  const near = word & (NEAR | OVERFLOW)
  return near !== 0 && (near & (near - 1)) === 0 && near !== OVERFLOW && ((word >>> 16) & near) !== 0
}

/**
 * The waypoints the grid found near each place of one search (`GeoGrid.scanNear`), per candidate
 * trip, and the candidates themselves: for one place, every trip with a waypoint near it; for a
 * pair, the trips near both, found by scanning both places, so that the work follows the answer
 * rather than the busier city. From them, `segmentOf` chooses a trip's segment: where each place
 * has one waypoint near it, well inside the radius, the segment is the only one and needs no
 * haversine; anywhere else, the exact distances the rule has.
 *
 * Per-slot words are written under a stamp (`q`: near the first place of a pair scanned; `-q`: a
 * candidate), so nothing needs clearing between searches.
 */
export class NearHits {
  private q = 0
  /**
   * Per slot, side by side so that one cache line holds them: its stamp (at `3 * slot`), its word
   * for `from` (`+ 1`) and for `to` (`+ 2`).
   */
  private near = new Int32Array(0)
  private found = new Int32Array(1024)
  private count = 0

  /** Starts a search over an index of `slots` slots. */
  begin(slots: number): void {
    if (this.near.length < 3 * slots) {
      this.near = new Int32Array(3 * slots)
      this.q = 0
    }
    if (++this.q > 0x3fffffff) {
      this.q = 1
      this.near.fill(0)
    }
    this.count = 0
  }

  private add(slot: number): void {
    if (this.count === this.found.length) {
      const more = new Int32Array(2 * this.count)
      more.set(this.found)
      this.found = more
    }
    this.found[this.count++] = slot
  }

  /**
   * The candidates in slot order. The scan finds them cell by cell, scattered over the per-trip
   * columns; in slot order the search loop reads those columns in runs (slots are renumbered by
   * cell), which more than pays for the sort (measured: docs/PERFORMANCE.md).
   */
  candidates(): Int32Array {
    return this.found.subarray(0, this.count).sort()
  }

  /** One place only: every trip found near it is a candidate. */
  private only = (side: 1 | 2) => (slot: number, k: number, sure: number): void => {
    const at = 3 * slot
    if (this.near[at] !== -this.q) {
      this.near[at] = -this.q
      this.near[at + side] = 0
      this.add(slot)
    }
    this.near[at + side] |= bitOf(k, sure)
  }

  /** A pair, the place scanned first: the trips found near it are marked. */
  private mark = (side: 1 | 2) => (slot: number, k: number, sure: number): void => {
    const at = 3 * slot
    if (this.near[at] !== this.q) {
      this.near[at] = this.q
      this.near[at + side] = 0
    }
    this.near[at + side] |= bitOf(k, sure)
  }

  /** A pair, the other place: a marked trip found near it too is a candidate. */
  private then = (side: 1 | 2) => (slot: number, k: number, sure: number): void => {
    const at = 3 * slot
    const s = this.near[at]!
    if (s === this.q) {
      this.near[at] = -this.q
      this.near[at + side] = 0
      this.add(slot)
    } else if (s !== -this.q) return
    this.near[at + side] |= bitOf(k, sure)
  }

  // What `GeoGrid.scanNear` calls, by search shape and side.
  readonly onlyFrom = this.only(1)
  readonly onlyTo = this.only(2)
  readonly markFrom = this.mark(1)
  readonly markTo = this.mark(2)
  readonly thenFrom = this.then(1)
  readonly thenTo = this.then(2)

  /**
   * The segment candidate `slot` matches by, as `bestSegment` answers it (first waypoint `w0`,
   * `last + 1` waypoints). Where each place asked has exactly one waypoint near it, surely within
   * the radius, that waypoint decides: no distance is written or compared. Anywhere else, the
   * distances (`distances`, into `dF` and `dT`) and `bestSegment` over them.
   */
  segmentOf(t: TripColumns, slot: number, w0: number, last: number, from: FlatBox | undefined, to: FlatBox | undefined, dF: Float64Array, dT: Float64Array): number {
    const f = from !== undefined ? this.near[3 * slot + 1]! : 0
    const g = to !== undefined ? this.near[3 * slot + 2]! : 0
    // The scan never reports a `from` waypoint that is its trip's last, nor a `to` that is its first.
    if (to === undefined) {
      if (onlyOneSure(f)) return firstPlace(f) * 256 + last
    } else if (from === undefined) {
      if (onlyOneSure(g)) return firstPlace(g)
    } else if (onlyOneSure(f) && onlyOneSure(g)) {
      const i = firstPlace(f)
      const j = firstPlace(g)
      return i < j ? i * 256 + j : -1
    }
    this.distances(t, slot, w0, last, from, to, dF, dT)
    return bestSegment(from !== undefined, to !== undefined, last, dF, dT)
  }

  /**
   * The exact distances of candidate `slot` (first waypoint `w0`, `last + 1` waypoints) to each
   * place asked (`from`, `to`), as `bestSegment` reads them: Infinity where a waypoint is not within
   * the radius (or may not be compared: the last for `from`, the first for `to`).
   */
  private distances(t: TripColumns, slot: number, w0: number, last: number, from: FlatBox | undefined, to: FlatBox | undefined, dF: Float64Array, dT: Float64Array): void {
    for (let k = 0; k <= last; k++) {
      dF[k] = Infinity
      dT[k] = Infinity
    }
    if (from !== undefined) side(t, from, this.near[3 * slot + 1]!, w0, 0, last - 1, dF)
    if (to !== undefined) side(t, to, this.near[3 * slot + 2]!, w0, 1, last, dT)
  }
}

/** One place's distances of a candidate, waypoints `lo..hi` (see `NearHits.distances`). */
const side = (t: TripColumns, box: FlatBox, word: number, w0: number, lo: number, hi: number, out: Float64Array): void => {
  if ((word & OVERFLOW) !== 0) {
    for (let k = lo; k <= hi; k++) out[k] = distanceWithin(t, box, w0 + k)
    return
  }
  for (let near = word & NEAR; near !== 0; near &= near - 1) {
    const k = 31 - Math.clz32(near & -near)
    out[k] = distanceWithin(t, box, w0 + k)
  }
}
