import type { FlatBox } from "./GeoGrid.js"
import { firstPlace, NEAR } from "./nearWord.js"
import { RankBounds } from "./rankBounds.js"

/** A row of ranks per candidate: 16 places for `from`, then 16 for `to`, NOT_LISTED where none. */
const NOT_LISTED = 255
const ROW = 32
/** Relative and absolute slack for the haversine's own rounding when bounds are compared. */
const SUM_SLACK = 1e-9
export const UNDECIDED = -2


/**
 * Hits listed as they come, one place's: each one's trip slot, a number (its waypoint's place in
 * the trip, or its word bit) and its rank, in arrays that double when full.
 */
export class HitList {
  slot = new Int32Array(1024)
  value = new Int32Array(1024)
  rank = new Int32Array(1024)
  count = 0
  /** The place the hits are of: 1 `from`, 2 `to`. */
  side: 1 | 2 = 1

  push(slot: number, value: number, rank: number, side: 1 | 2): void {
    if (this.count === this.slot.length) {
      this.slot = doubled(this.slot)
      this.value = doubled(this.value)
      this.rank = doubled(this.rank)
    }
    this.slot[this.count] = slot
    this.value[this.count] = value
    this.rank[this.count++] = rank
    this.side = side
  }
}

/**
 * The ranks of a pair search's hits (`NearHits`), per candidate and place in the trip, and what
 * they decide: where every waypoint of a candidate near either place is surely within its radius,
 * the rank bounds of each pair of them (`RankBounds`) may single out the least sum of distances,
 * the segment `bestSegment` would choose from the exact distances, with none measured.
 */
export class PairRanks {
  /** The second place's hits on marked trips, by place in the trip. */
  private readonly then = new HitList()
  private rows = new Uint8Array(0)
  private rowOf = new Int32Array(0)
  private readonly from = new RankBounds()
  private readonly to = new RankBounds()
  private levels = 0

  /** Starts a search over `slots` slots, ranks in `levels` levels (0: none listed, nothing decided). */
  begin(slots: number, levels: number): void {
    if (this.rowOf.length < slots) this.rowOf = new Int32Array(slots)
    this.then.count = 0
    this.levels = levels
  }

  /** A hit of the place scanned second (`side`) on a marked trip. */
  listThen(slot: number, k: number, rank: number, side: 1 | 2): void {
    this.then.push(slot, k, rank, side)
  }

  /**
   * A row for each of the `n` candidates in `found`, filled with the second place's listed hits,
   * ready for the first place's (`markAt`).
   */
  prepare(found: Int32Array, n: number): void {
    if (this.rows.length < ROW * n) this.rows = new Uint8Array(ROW * Math.max(n, 2 * (this.rows.length / ROW)))
    this.rows.fill(NOT_LISTED, 0, ROW * n)
    for (let c = 0; c < n; c++) this.rowOf[found[c]!] = c
    const { then } = this
    const at = (then.side - 1) * 16
    for (let h = 0; h < then.count; h++) this.rows[this.rowOf[then.slot[h]!]! * ROW + at + then.value[h]!] = then.rank[h]!
  }

  /** A hit of the place scanned first (`side`), on candidate `slot`, waypoint `k`. */
  markAt(slot: number, side: 1 | 2, k: number, rank: number): void {
    this.rows[this.rowOf[slot]! * ROW + (side - 1) * 16 + k] = rank
  }

  /**
   * The segment `i * 256 + j` of candidate `slot` (words `f` and `g`, both `allSure`) whose sum of
   * distances is surely the least: its upper bound under every other pair's lower bound, with
   * slack for the haversine's rounding; -1 when no waypoint near `from` comes before one near
   * `to`; `UNDECIDED` when the bounds overlap or a rank is missing.
   */
  decide(slot: number, f: number, g: number, fromBox: FlatBox, toBox: FlatBox): number {
    if (this.levels === 0) return UNDECIDED
    if (this.from.levels !== this.levels || this.from.box !== fromBox) this.from.set(fromBox, this.levels)
    if (this.to.levels !== this.levels || this.to.box !== toBox) this.to.set(toBox, this.levels)
    const { rows } = this
    const row = this.rowOf[slot]! * ROW
    const { lo: loF, hi: hiF } = this.from
    const { lo: loT, hi: hiT } = this.to
    let least = Infinity
    let bi = -1
    let bj = -1
    for (let fi = f & NEAR; fi !== 0; fi &= fi - 1) {
      const i = firstPlace(fi)
      const ri = rows[row + i]!
      if (ri === NOT_LISTED) return UNDECIDED
      for (let gj = g & NEAR & ~((2 << i) - 1); gj !== 0; gj &= gj - 1) {
        const j = firstPlace(gj)
        const rj = rows[row + 16 + j]!
        if (rj === NOT_LISTED) return UNDECIDED
        const upper = hiF[ri]! + hiT[rj]!
        if (upper < least) {
          least = upper
          bi = i
          bj = j
        }
      }
    }
    if (bi < 0) return -1
    const cut = least * (1 + SUM_SLACK) + SUM_SLACK
    for (let fi = f & NEAR; fi !== 0; fi &= fi - 1) {
      const i = firstPlace(fi)
      for (let gj = g & NEAR & ~((2 << i) - 1); gj !== 0; gj &= gj - 1) {
        const j = firstPlace(gj)
        if ((i !== bi || j !== bj) && loF[rows[row + i]!]! + loT[rows[row + 16 + j]!]! <= cut) return UNDECIDED
      }
    }
    return bi * 256 + bj
  }
}

/** `a`'s entries in an array twice as long. */
export const doubled = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
  const b = new Int32Array(2 * a.length)
  b.set(a)
  return b
}
