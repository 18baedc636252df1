import type { MatchRequest } from "../MatchRequest.js"

/**
 * The first `k` items in `compare` order, of the first `n` of `items` (all by default). A full sort
 * when k is a large part of the input, otherwise a bounded insertion into a sorted prefix, which
 * is linear for small pages.
 */
export const selectSorted = (items: ArrayLike<number>, k: number, compare: (a: number, b: number) => number, n = items.length): Array<number> => {
  if (k <= 0) return []
  if (k * 8 >= n) return Array.prototype.slice.call(items, 0, n).sort(compare).slice(0, k)
  const best: Array<number> = []
  for (let x = 0; x < n; x++) {
    const item = items[x]!
    if (best.length === k && compare(item, best[k - 1]!) >= 0) continue
    let lo = 0
    let hi = best.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compare(best[mid]!, item) <= 0) lo = mid + 1
      else hi = mid
    }
    best.splice(lo, 0, item)
    if (best.length > k) best.pop()
  }
  return best
}

/** 0, 1, ..., n - 1. */
const numbers = (n: number): Int32Array => {
  const a = new Int32Array(n)
  for (let m = 0; m < n; m++) a[m] = m
  return a
}

/**
 * The matched segments of one search as parallel arrays (match m: trip slot, segment `i -> j`,
 * price in minor units, UTC departure at `wi`), and the order rules over them (docs/API.md, Searching).
 */
export class Matches {
  // Typed arrays kept by the searcher between searches: no array grows element by element in the
  // candidate loop, and nothing is allocated for a search that fits the last one's room.
  slot = new Int32Array(1024)
  // Segment ends: a waypoint's index, or past it a stop along the road's (`roadSegment`'s ALONG_END).
  i = new Int32Array(1024)
  j = new Int32Array(1024)
  price = new Float64Array(1024)
  utc = new Float64Array(1024)
  /** The segment's distance of each eligible match, filled by `top` (each is compared many times). */
  private metres = new Float64Array(1024)
  /** Matches eligible as top trips (the first `eligibleCount`), so that picking them reads no per-trip array again. */
  private eligible = new Int32Array(1024)
  private eligibleCount = 0
  /**
   * The numbers 0, 1, 2... of the matches, which `page` orders (kept: a wide search has 100,000
   * matches). Written when allocated, not by each search: with that loop in `page`, one pool worker
   * of two spent 5.4-5.7% of its time in `page` against 0.3% in the other (a server under 32
   * clients, two runs), a loop compiled on stack replacement with code after it, as `matchAll`'s
   * once was; without it, 0.1-0.2% in each.
   */
  private order = numbers(1024)
  size = 0

  /** Empties the matches for a new search. */
  reset(): void {
    this.size = 0
    this.eligibleCount = 0
  }

  /** The match pushed last is eligible as a top trip. */
  lastEligible(): void {
    this.eligible[this.eligibleCount++] = this.size - 1
  }

  push(slot: number, i: number, j: number, price: number, utc: number): void {
    const m = this.size
    if (m === this.slot.length) this.grow()
    this.slot[m] = slot
    this.i[m] = i
    this.j[m] = j
    this.price[m] = price
    this.utc[m] = utc
    this.size = m + 1
  }

  private grow(): void {
    const n = 2 * this.slot.length
    const copy = <A extends Int32Array | Uint16Array | Float64Array>(a: A, b: A): A => {
      b.set(a)
      return b
    }
    this.slot = copy(this.slot, new Int32Array(n))
    this.i = copy(this.i, new Int32Array(n))
    this.j = copy(this.j, new Int32Array(n))
    this.price = copy(this.price, new Float64Array(n))
    this.utc = copy(this.utc, new Float64Array(n))
    this.eligible = copy(this.eligible, new Int32Array(n))
    this.metres = new Float64Array(n)
    this.order = numbers(n)
  }

  /**
   * The matches of page `[offset, offset + limit)` in the request's order: by date or price, either
   * way, then the other key ascending, then `permanentId` (`pid`) ascending, so the order is total.
   */
  page(req: Pick<MatchRequest, "sort" | "order" | "offset" | "limit">, pid: (m: number) => string): Array<number> {
    const { price, utc } = this
    const byPid = (a: number, b: number): number => {
      const pa = pid(a)
      const pb = pid(b)
      return pa < pb ? -1 : pa > pb ? 1 : 0
    }
    const dir = req.order === "desc" ? -1 : 1
    const compare =
      req.sort === "trip_price"
        ? (a: number, b: number) => dir * (price[a]! - price[b]!) || utc[a]! - utc[b]! || byPid(a, b)
        : (a: number, b: number) => dir * (utc[a]! - utc[b]!) || price[a]! - price[b]! || byPid(a, b)
    const total = this.size
    const end = Math.min(total, req.offset + req.limit)
    return req.offset < end ? selectSorted(this.order, end, compare, total).slice(req.offset, end) : []
  }

  /**
   * The three top trips among the eligible matches: price per metre ascending (`metres(m)` the
   * segment's distance), then by date as a page sorts by date. Compared as cross products to stay
   * exact; a zero distance (ratio infinite, or 0/0) comes after every other (DECISIONS.md), or the
   * cross products would not be a total order and the result would depend on the input order.
   */
  top(metres: (m: number) => number, pid: (m: number) => string): Array<number> {
    const { price, utc } = this
    const distance = this.measure(metres)
    const { eligible, eligibleCount } = this
    const byValue = (a: number, b: number): number => {
      const da = distance[a]!
      const db = distance[b]!
      if ((da === 0) !== (db === 0)) return da === 0 ? 1 : -1
      const x = price[a]! * db
      const y = price[b]! * da
      if (x !== y) return x < y ? -1 : 1
      const byDate = utc[a]! - utc[b]! || price[a]! - price[b]!
      if (byDate !== 0) return byDate
      const pa = pid(a)
      const pb = pid(b)
      return pa < pb ? -1 : pa > pb ? 1 : 0
    }
    return selectSorted(eligible, 3, byValue, eligibleCount).slice(0, 3)
  }

  /**
   * Each eligible match's distance, in a method of its own rather than in a loop of `top` followed
   * by the choice: there, one pool worker of two spent 3.0% of its time in `top` against 1.6-1.9%
   * in the other (two runs), as with `page`'s loop; here 1.4-1.9% in each.
   */
  private measure(metres: (m: number) => number): Float64Array {
    const { eligible, eligibleCount } = this
    const distance = this.metres
    for (let e = 0; e < eligibleCount; e++) distance[eligible[e]!] = metres(eligible[e]!)
    return distance
  }
}
