import type { StopRun } from "./AlongGrid.js"
import { bestSegment, distanceWithin } from "./bestSegment.js"
import { type FlatBox, RANKS } from "./GeoGrid.js"
import { allSure, bitOf, firstPlace, NEAR, onlyOneSure, OVERFLOW, POSITIONS } from "./nearWord.js"
import { HitList, PairRanks, UNDECIDED } from "./PairRanks.js"
import { SlotSort } from "./SlotSort.js"

// A one-place search also lists each hit's coarse rank (`GeoGrid.rankOf`): its squared chord over
// the scan's bound, in 64 levels. Where a trip's nearest waypoint ranks two levels below every other it has near
// the place, it is the nearest: two levels are a gap in squared chord of at least 1/64 of the bound's, which the float32 unit
// vectors' error (under 4.4e-7 chord radii) cannot bridge for any radius over 0.2 km (they are
// 1 km at least), nor the haversine's rounding reverse. Its `ranked` word (kept where the other
// place's word would be) is that waypoint's place in the trip, its rank and the next best rank.
const RANKED = 1 << 18
const NO_RANK = 127
const rankedWord = (k: number, best: number, second: number): number => RANKED | k | (best << 4) | (second << 11)
// A pair lists its hits' ranks too, in `PairRanks`, which may decide a candidate's segment.

// A hit is a waypoint (`k` its place among the trip's waypoints, from `GeoGrid`) or a stop along
// the road (`k` is 256 + its place among the trip's stops along the road, from 1, 255 for any later one:
// `ALONG_HIT`, from `AlongGrid`).
// Waypoints make the word, as for a trip without stops along the road, so that the same fast
// paths decide among them; stops along the road make the span beside it: the lowest and the
// highest of their places, so that a pair measures a trip's stops of that span only (`roadSegment`;
// one place only, the scan reports one stop along the road per trip and the span bounds nothing).
export const ALONG_HIT = 256
const SPAN = 1 << 16
const widen = (span: number, k: number): number =>
  span === 0 ? SPAN | (k << 8) | k : SPAN | (Math.max((span >>> 8) & 255, k) << 8) | Math.min(span & 255, k)


/**
 * The waypoints the grid found near each place of one search (`GeoGrid.scanNear`), per candidate
 * trip, and the candidates themselves: for one place, every trip with a waypoint near it; for a
 * pair, the trips near both, found by scanning both places, so that the work follows the answer
 * rather than the busier city. From them, `segmentOf` chooses a trip's segment: where each place
 * has one waypoint near it, well inside the radius, the segment is the only one and needs no
 * haversine; anywhere else, the exact distances the rule has.
 *
 * The scan's hits are not written where they land: at 1M trips the per-slot words (16 MB) are far
 * larger than the caches, and a write per hit at a random slot cost more than the scan itself. For
 * one place, each hit is listed (its slot, and its place in the trip, rank and sure as one number)
 * and the list sorted by slot (`SlotSort`): its runs are the candidates, in slot order, and each
 * run's words are written once, in that order.
 * For a pair, the place scanned first sets its trips' bits in a bitset (`marked`, 125 KB at 1M
 * trips: it stays in the cache) and lists its waypoint hits; the second place's hits on marked
 * trips make the candidates (`cand`), the first place's listed hits are added to the candidates'
 * words at the end, and its stops along the road are walked again for the candidates' spans
 * (`stops("span")`). Both bitsets are cleared through the lists that set them (for the stops',
 * the words they set), so nothing is cleared whole.
 */
export class NearHits {
  /**
   * Per slot, side by side: its word for `from` (at `4 * slot`) and for `to` (`+ 1`), then its span
   * for `from` (`+ 2`) and for `to` (`+ 3`), in one cache line.
   */
  private near = new Int32Array(0)
  /** The candidates found so far (a pair), or the slots of the listed hits (one place: see `only`). */
  private found = new Int32Array(1024)
  /** A listed hit's rank, place in the trip and sure (one place). */
  private hitVal = new Int32Array(1024)
  private count = 0
  private readonly sorter = new SlotSort()
  /** Bits of a slot in this search (`SlotSort`). */
  private slotBits = 1
  /** The side (1 `from`, 2 `to`) of a one-place search's listed hits, 0 for a pair. */
  private onlySide = 0
  /** The bits of `marked` may be set by a one-place scan (`onlyMarking`, `onlyStops` with `once`). */
  private onlyMarked = false
  /**
   * Bit `slot` set: near the place of a pair scanned first, or, one place only, with its stops along
   * the road no longer to be listed (`onlyMarking`, `onlyStops`) (`marked`); a candidate of the
   * pair (`cand`).
   */
  private marked = new Int32Array(0)
  private cand = new Int32Array(0)
  /** The waypoint hits of the place of a pair scanned first: slot, its place in the trip and sure (`k << 1 | sure`), and its rank. */
  private readonly marks = new HitList()
  /**
   * The words of `marked` its stops along the road set from 0 (a pair's first place): cleared
   * through this list, since those hits are not listed (`markStops`).
   */
  private dirty = new Int32Array(1024)
  private dirtyCount = 0
  /** Trips marked by the place of a pair scanned first (`marked`'s bits set). */
  private markedCount = 0
  private readonly pairRanks = new PairRanks()

  /** Starts a search over an index of `slots` slots. */
  begin(slots: number): void {
    // A search that stopped between its scans and its candidates (a throw) left its bits set.
    if (this.marks.count > 0 || this.dirtyCount > 0) this.clearBits()
    if (this.onlyMarked) this.clearOnlyMarks()
    if (this.near.length < 4 * slots) {
      this.near = new Int32Array(4 * slots)
      this.marked = new Int32Array((slots + 31) >>> 5)
      this.cand = new Int32Array((slots + 31) >>> 5)
    }
    this.count = 0
    this.onlySide = 0
    this.marks.count = 0
    this.markedCount = 0
    this.slotBits = 32 - Math.clz32(Math.max(1, slots - 1))
    this.pairRanks.begin(slots, RANKS)
  }

  /** A candidate of a pair. */
  private add(slot: number): void {
    if (this.count === this.found.length) this.more()
    this.found[this.count++] = slot
  }

  /** A listed hit of a one-place search. */
  private list(slot: number, value: number): void {
    if (this.count === this.found.length) this.more()
    this.found[this.count] = slot
    this.hitVal[this.count++] = value
  }

  private more(): void {
    const found = new Int32Array(2 * this.count)
    found.set(this.found)
    this.found = found
    const hitVal = new Int32Array(2 * this.count)
    hitVal.set(this.hitVal)
    this.hitVal = hitVal
  }

  /**
   * The candidates in slot order. The scan finds them cell by cell, scattered over the per-trip
   * columns; in slot order the search loop reads those columns in runs (slots are renumbered by
   * cell), which more than pays for the sort (measured: docs/PERFORMANCE.md).
   */
  candidates(): Int32Array {
    if (this.onlySide !== 0) return this.joinOnly(this.onlySide)
    if (this.marks.count > 0) this.joinMarks()
    this.clearBits()
    this.sorter.sort(this.found, this.count, this.slotBits)
    return this.found.subarray(0, this.count)
  }

  /**
   * One place's end: its listed hits sorted by slot, each slot's run made one candidate, its word,
   * its span and its `rankedWord` (at `4 * slot + 2 - side`).
   */
  private joinOnly(side: number): Int32Array {
    if (this.onlyMarked) this.clearOnlyMarks()
    const n = this.count
    const { found: hits, hitVal, near } = this
    this.sorter.sort(hits, n, this.slotBits, hitVal)
    let c = 0
    let slot = -1
    let word = 0
    let span = 0
    let bestK = 0
    let best = NO_RANK
    let second = NO_RANK
    // One pass more than the hits, its slot -1, writes the last run: in the loop rather than after
    // it, because code after a loop compiled on stack replacement has no type feedback when that
    // code is first reached, and the optimized code then was thrown away once per search (V8 11).
    for (let h = 0; h <= n; h++) {
      const s = h < n ? hits[h]! : -1
      if (s !== slot) {
        // A candidate is written at or before the first hit of its run: no hit is overwritten unread.
        if (slot >= 0) {
          near[4 * slot + side - 1] = word
          near[4 * slot + side + 1] = span
          near[4 * slot + 2 - side] = rankedWord(bestK, best, second)
          hits[c++] = slot
        }
        if (s < 0) break
        slot = s
        word = 0
        span = 0
        best = NO_RANK
        second = NO_RANK
      }
      const v = hitVal[h]!
      const k = (v >>> 1) & 511
      if (k >= ALONG_HIT) {
        span = widen(span, k - ALONG_HIT)
        continue
      }
      word |= bitOf(k, v & 1)
      const rank = v >>> 10
      if (rank < best) {
        second = best
        best = rank
        bestK = k < POSITIONS ? k : POSITIONS
      } else if (rank < second) second = rank
    }
    return hits.subarray(0, c)
  }

  /**
   * A pair's end: the first place's waypoint hits added to the words of the candidates, with
   * ranks listed each candidate's row of ranks filled from both places' hits.
   */
  private joinMarks(): void {
    const { near, cand, marks } = this
    const { slot: markSlot, value: markValue, rank: markRank, side } = marks
    const at = side - 1
    this.pairRanks.prepare(this.found, this.count)
    for (let m = 0; m < marks.count; m++) {
      const slot = markSlot[m]!
      if ((cand[slot >>> 5]! & (1 << (slot & 31))) === 0) continue
      const k = markValue[m]! >>> 1
      near[4 * slot + at]! |= bitOf(k, markValue[m]! & 1)
      if (k < POSITIONS) this.pairRanks.markAt(slot, side, k, markRank[m]!)
    }
  }

  /** Clears a pair's bitsets through the lists that set them: the marked hits, the words its stops set, and the candidates. */
  private clearBits(): void {
    for (let m = 0; m < this.marks.count; m++) this.marked[this.marks.slot[m]! >>> 5] = 0
    for (let d = 0; d < this.dirtyCount; d++) this.marked[this.dirty[d]!] = 0
    for (let c = 0; c < this.count; c++) this.cand[this.found[c]! >>> 5] = 0
    this.marks.count = 0
    this.dirtyCount = 0
  }

  /**
   * One place only: every trip found near it is a candidate. The hit is listed: its slot, and as
   * one number its rank (`GeoGrid.rankOf`), its place in the trip and `sure`. Its trip is marked
   * where its stops along the road can no longer matter, so that their walk (`stops("only")`, after
   * the waypoints') lists none of them: a waypoint surely within the radius makes the trip's
   * segment by the waypoints' rule; past `ONCE_KM` (`sureOnly` false) any waypoint found, since a
   * trip whose waypoints make no segment then has its stops read all, whatever was listed.
   */
  private onlyMarking = (side: 1 | 2, sureOnly: boolean) => (slot: number, k: number, sure: number, rank: number): void => {
    this.onlySide = side
    this.onlyMarked = true
    if (!sureOnly || sure === 1) this.marked[slot >>> 5]! |= 1 << (slot & 31)
    this.list(slot, (rank << 10) | (k << 1) | sure)
  }

  /** A pair, the place scanned first: the trips found near it are marked, the hit listed. */
  private mark = (side: 1 | 2) => (slot: number, k: number, sure: number, rank: number): void => {
    const bits = this.marked[slot >>> 5]!
    this.markedCount += ((bits >>> (slot & 31)) & 1) ^ 1
    this.marked[slot >>> 5] = bits | (1 << (slot & 31))
    this.marks.push(slot, (k << 1) | sure, rank, side)
  }

  /** Clears the bits a one-place scan set (`onlyMarking`, `stops`' `once`) through the listed hits: every bit set is a listed hit's. */
  private clearOnlyMarks(): void {
    for (let h = 0; h < this.count; h++) this.marked[this.found[h]! >>> 5] = 0
    this.onlyMarked = false
  }

  /** The trips near the place of a pair scanned first, as a bitset: what the other place's scan keeps (`GeoGrid.scanNear`'s `within`). */
  get markedTrips(): Int32Array {
    return this.marked
  }

  /** A pair's new candidate: its bit set, its words and spans emptied, listed. */
  private candidate(slot: number): void {
    this.cand[slot >>> 5]! |= 1 << (slot & 31)
    const near = this.near
    near[4 * slot] = 0
    near[4 * slot + 1] = 0
    near[4 * slot + 2] = 0
    near[4 * slot + 3] = 0
    this.add(slot)
  }

  /**
   * A pair, the other place: a marked trip found near it too is a candidate. The scan reports
   * marked trips only (`markedTrips`); the test here keeps the rule whole whoever scans.
   */
  private then = (side: 1 | 2) => (slot: number, k: number, sure: number, rank: number): void => {
    const word = slot >>> 5
    const bit = 1 << (slot & 31)
    if ((this.marked[word]! & bit) === 0) return
    if ((this.cand[word]! & bit) === 0) this.candidate(slot)
    this.near[4 * slot + side - 1] |= bitOf(k, sure)
    if (k < POSITIONS) this.pairRanks.listThen(slot, k, rank, side)
  }

  /**
   * What `AlongGrid.scanNear` gives the stops along the road to, by search shape (`only`, `mark`,
   * `then`: as for waypoints; `span`: a pair's first place again) and side. With `once`, a search
   * with a wide radius takes one stop per trip (a 300 km radius holds every stop of tens of
   * thousands of trips, and such a trip's stops are then read all): one place, the trips reported
   * have their bit in `marked`; its second, a trip already a candidate. One place, either way, lists
   * no stop of a trip its waypoints marked (`onlyMarking`). A pair's first place only
   * marks its trips (`mark`), whatever `once` says, and where its radius is not wide its stops are
   * walked again once the candidates are known (`span`) for their spans: listing every stop near
   * it, as its waypoints are, cost more than walking them twice, for hits that matter only on
   * candidates.
   */
  stops(shape: "only" | "mark" | "then" | "span", side: 1 | 2, once: boolean): StopRun {
    return this.stopRuns[shape][side - 1]![once ? 1 : 0]!
  }

  private onlyStops = (side: 1 | 2, once: boolean): StopRun => (slots, pos, e0, e1, sure, rank) => {
    this.onlySide = side
    if (once) this.onlyMarked = true
    const value = (rank << 10) | sure
    const marked = this.marked
    for (let e = e0; e < e1; e++) {
      const s = slots[e]!
      const bit = 1 << (s & 31)
      if ((marked[s >>> 5]! & bit) !== 0) continue
      if (once) marked[s >>> 5]! |= bit
      this.list(s, value | ((ALONG_HIT + pos[e]!) << 1))
    }
  }

  private markStops: StopRun = (slots, _pos, e0, e1) => {
    const marked = this.marked
    let count = this.markedCount
    for (let e = e0; e < e1; e++) {
      const s = slots[e]!
      const word = s >>> 5
      const bits = marked[word]!
      if (bits === 0) this.dirtied(word)
      count += ((bits >>> (s & 31)) & 1) ^ 1
      marked[word] = bits | (1 << (s & 31))
    }
    this.markedCount = count
  }

  private dirtied(word: number): void {
    if (this.dirtyCount === this.dirty.length) {
      const dirty = new Int32Array(2 * this.dirtyCount)
      dirty.set(this.dirty)
      this.dirty = dirty
    }
    this.dirty[this.dirtyCount++] = word
  }

  /** A pair's first place again, its trips now known: the candidates' spans of stops near it. */
  private spanStops = (side: 1 | 2): StopRun => (slots, pos, e0, e1) => {
    const { cand, near } = this
    for (let e = e0; e < e1; e++) {
      const s = slots[e]!
      if ((cand[s >>> 5]! & (1 << (s & 31))) === 0) continue
      near[4 * s + side + 1] = widen(near[4 * s + side + 1]!, pos[e]!)
    }
  }

  private thenStops = (side: 1 | 2, once: boolean): StopRun => (slots, pos, e0, e1) => {
    const { marked, cand, near } = this
    for (let e = e0; e < e1; e++) {
      const s = slots[e]!
      const word = s >>> 5
      const bit = 1 << (s & 31)
      if ((marked[word]! & bit) === 0) continue
      if ((cand[word]! & bit) === 0) this.candidate(s)
      else if (once) continue
      near[4 * s + side + 1] = widen(near[4 * s + side + 1]!, pos[e]!)
    }
  }

  /** Trips the place of a pair scanned first has marked so far. */
  get marksMade(): number {
    return this.markedCount
  }

  /**
   * A pair's second place, its stops along the road taken trip by trip rather than meeting point
   * by meeting point: each trip the first place marked has its own stops read, and those at a
   * meeting point of `mpNear` (a bit per meeting point of the table, set by `AlongGrid.nearBits`)
   * are hits, as `thenStops` takes them from the meeting points' lists. The same hits: a marked
   * trip is one the search sees whole (its stops are linked before its waypoints), and the lists
   * hold each trip's stops as its columns do. Cheaper where the first place's trips have fewer
   * stops in all than the second place's meeting points' lists hold entries. `marked` is emptied
   * as it is read (nothing reads it after this walk but `clearBits`).
   */
  thenByTrip(wpStart: Int32Array, wpCount: Uint16Array, wAlong: Int32Array, aMp: Int32Array, mpNear: Int32Array, side: 1 | 2, once: boolean): void {
    const { marked, cand, near } = this
    const { slot: markSlot } = this.marks
    for (let m = 0, n = this.marks.count + this.dirtyCount; m < n; m++) {
      const word = m < this.marks.count ? markSlot[m]! >>> 5 : this.dirty[m - this.marks.count]!
      let bits = marked[word]!
      if (bits === 0) continue
      marked[word] = 0
      for (; bits !== 0; bits &= bits - 1) {
        const s = (word << 5) | (31 - Math.clz32(bits & -bits))
        const w0 = wpStart[s]!
        const a0 = wAlong[w0]!
        for (let a = a0, a1 = wAlong[w0 + wpCount[s]! - 1]!; a < a1; a++) {
          const mp = aMp[a]!
          if ((mpNear[mp >>> 5]! & (1 << (mp & 31))) === 0) continue
          if ((cand[word]! & (1 << (s & 31))) === 0) this.candidate(s)
          else if (once) break
          const at = 4 * s + side + 1
          near[at] = widen(near[at]!, Math.min(a - a0 + 1, 255))
        }
      }
    }
  }

  private readonly stopRuns = {
    only: [[this.onlyStops(1, false), this.onlyStops(1, true)], [this.onlyStops(2, false), this.onlyStops(2, true)]],
    mark: [[this.markStops, this.markStops], [this.markStops, this.markStops]],
    span: [[this.spanStops(1), this.spanStops(1)], [this.spanStops(2), this.spanStops(2)]],
    then: [[this.thenStops(1, false), this.thenStops(1, true)], [this.thenStops(2, false), this.thenStops(2, true)]]
  }

  /**
   * The waypoints of candidate `slot` near `side`'s place (1 `from`, 2 `to`), once `candidates()`
   * has answered: bit k for waypoint k, bit 16 + k when surely within the radius, OVERFLOW.
   */
  wordOf(slot: number, side: 1 | 2): number {
    return this.near[4 * slot + side - 1]!
  }

  /**
   * The places (among the trip's stops along the road, from 1) of candidate `slot`'s first and last such
   * stops found near `side`'s place, as `first | last << 8` (255 for any place past 254: the
   * trip's end then), once `candidates()` has answered; 0 when none was.
   */
  spanOf(slot: number, side: 1 | 2): number {
    return this.near[4 * slot + side + 1]! & 0xffff
  }

  // What `GeoGrid.scanNear` calls, by search shape and side.
  readonly onlyFrom = this.onlyMarking(1, true)
  readonly onlyTo = this.onlyMarking(2, true)
  readonly onlyFromOnce = this.onlyMarking(1, false)
  readonly onlyToOnce = this.onlyMarking(2, false)
  readonly markFrom = this.mark(1)
  readonly markTo = this.mark(2)
  readonly thenFrom = this.then(1)
  readonly thenTo = this.then(2)

  /**
   * The segment candidate `slot` matches by, as `bestSegment` answers it (first waypoint `w0`,
   * `last + 1` waypoints). Where each place asked has exactly one waypoint near it, surely within
   * the radius, that waypoint decides: no distance is written or compared. For one place, the
   * nearest of the waypoints it found (`nearest`). Anywhere else, the distances (`distances`, into
   * `dF` and `dT`) and `bestSegment` over them.
   */
  segmentOf(place: Float64Array, slot: number, w0: number, last: number, from: FlatBox | undefined, to: FlatBox | undefined, dF: Float64Array, dT: Float64Array): number {
    const f = from !== undefined ? this.wordOf(slot, 1) : 0
    const g = to !== undefined ? this.wordOf(slot, 2) : 0
    // The scan never reports a `from` waypoint that is its trip's last, nor a `to` that is its first.
    if (to === undefined) {
      if (onlyOneSure(f)) return firstPlace(f) * 256 + last
      if ((f & OVERFLOW) === 0) {
        const i = nearest(place, from!, f, this.near[4 * slot + 1]!, w0)
        return i < 0 ? -1 : i * 256 + last
      }
    } else if (from === undefined) {
      if (onlyOneSure(g)) return firstPlace(g)
      if ((g & OVERFLOW) === 0) return nearest(place, to, g, this.near[4 * slot]!, w0)
    } else if (onlyOneSure(f) && onlyOneSure(g)) {
      const i = firstPlace(f)
      const j = firstPlace(g)
      return i < j ? i * 256 + j : -1
    } else if (allSure(f) && allSure(g)) {
      const segment = this.pairRanks.decide(slot, f, g, from, to)
      if (segment !== UNDECIDED) return segment
    }
    this.distances(place, slot, w0, last, from, to, dF, dT)
    return bestSegment(from !== undefined, to !== undefined, last, dF, dT)
  }

  /**
   * The exact distances of candidate `slot` (first waypoint `w0`, `last + 1` waypoints) to each
   * place asked (`from`, `to`), as `bestSegment` reads them: Infinity where a waypoint is not within
   * the radius (or may not be compared: the last for `from`, the first for `to`).
   */
  private distances(place: Float64Array, slot: number, w0: number, last: number, from: FlatBox | undefined, to: FlatBox | undefined, dF: Float64Array, dT: Float64Array): void {
    for (let k = 0; k <= last; k++) {
      dF[k] = Infinity
      dT[k] = Infinity
    }
    if (from !== undefined) side(place, from, this.wordOf(slot, 1), w0, 0, last - 1, dF)
    if (to !== undefined) side(place, to, this.wordOf(slot, 2), w0, 1, last, dT)
  }
}

/**
 * One place only: the place in its trip of the nearest waypoint of `word` within the radius (ties to
 * the first), or -1 when none is: `bestSegment`'s rule for one place, over the waypoints the scan
 * found rather than over distances written for every waypoint (the others are Infinity there, and
 * never the least). Where the `ranked` word shows one two ranks nearer than any other, that one,
 * with at most its own distance measured (the others are farther: outside the radius if it is);
 * else bits are read lowest first, and only a strictly nearer one replaces the best.
 */
const nearest = (place: Float64Array, box: FlatBox, word: number, ranked: number, w0: number): number => {
  if ((ranked & RANKED) !== 0 && ((ranked >>> 11) & NO_RANK) - ((ranked >>> 4) & NO_RANK) >= 2) {
    const k = ranked & POSITIONS
    return ((word >>> (16 + k)) & 1) !== 0 || distanceWithin(place, box, w0 + k) !== Infinity ? k : -1
  }
  let best = Infinity
  let at = -1
  for (let near = word & NEAR; near !== 0; near &= near - 1) {
    const k = 31 - Math.clz32(near & -near)
    const d = distanceWithin(place, box, w0 + k)
    if (d < best) {
      best = d
      at = k
    }
  }
  return at
}

/** One place's distances of a candidate, waypoints `lo..hi` (see `NearHits.distances`). */
const side = (place: Float64Array, box: FlatBox, word: number, w0: number, lo: number, hi: number, out: Float64Array): void => {
  if ((word & OVERFLOW) !== 0) {
    for (let k = lo; k <= hi; k++) out[k] = distanceWithin(place, box, w0 + k)
    return
  }
  for (let near = word & NEAR; near !== 0; near &= near - 1) {
    const k = 31 - Math.clz32(near & -near)
    out[k] = distanceWithin(place, box, w0 + k)
  }
}
