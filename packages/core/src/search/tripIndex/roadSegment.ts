import { haversineKm } from "../../geo/haversine.js"
import { distanceWithin } from "./bestSegment.js"
import type { FlatBox } from "./GeoGrid.js"
import { NEAR, OVERFLOW, POSITIONS } from "./nearWord.js"
import type { TripColumns } from "./TripColumns.js"

/**
 * A segment end of a trip with stops along the road: its waypoint `k` as `k` (a trip has fewer
 * than 256), its stop along the road `j` (the trip's `j`-th, in road order) as `ALONG_END + j`.
 */
export const ALONG_END = 256
/** A span (`NearHits.spanOf`) that bounds nothing: the scan reported one stop per trip, every stop is read. */
export const ALL_STOPS = -1

/**
 * The distance from a search's place to each meeting point table entry (`distanceWithin` over the
 * table), worked out once per search: the stops of thousands of candidate trips share a few
 * hundred meeting points. An entry is valid where its stamp is the search's. Sized by the table's
 * room (`mpId.length`), not its count (`mps`): a reader over an image (`TripColumns.attach`, what
 * every pool worker searches) has the arrays only, its `mps` 0, and sized by it would work every
 * distance out again at every stop.
 */
export class MeetingPointDistances {
  private d = new Float64Array(0)
  private stamp = new Int32Array(0)
  private tag = 0
  private box: FlatBox | undefined
  private place: Float64Array = new Float64Array(0)

  begin(t: TripColumns, box: FlatBox | undefined): void {
    this.box = box
    this.place = t.mpPlace
    if (this.d.length < t.mpId.length) {
      this.d = new Float64Array(t.mpId.length)
      this.stamp = new Int32Array(t.mpId.length)
      this.tag = 0
    }
    this.tag = this.tag === 0x7fffffff ? 1 : this.tag + 1
    if (this.tag === 1) this.stamp.fill(0)
  }

  // Small enough to be inlined at every call: a double answered by a call that is not inlined is
  // boxed, and this is read at every stop of every candidate. The measuring, once per meeting point
  // and search, is a call of its own.
  of(m: number): number {
    if (this.stamp[m] !== this.tag) this.measure(m)
    return this.d[m]!
  }

  private measure(m: number): void {
    this.d[m] = distanceWithin(this.place, this.box!, m)
    this.stamp[m] = this.tag
  }
}

/**
 * The segment a trip with stops along the road matches by (docs/API.md, Along the road) when no
 * pair of its waypoints (for one place, no waypoint) qualifies: `segment` answers whether there is
 * one, and leaves its ends (`ALONG_END`) in `start` and `end`. It is the qualifying pair with the
 * fewest ends along the road, then the least `dF[a] + dT[b]`, then the earliest in road order, `b`
 * after `a` in road order and its position (leg + fraction; waypoint k at k) greater. One place
 * only: the stop along the road with the smallest (distance, road order) key, to the last
 * waypoint or from the first. The waypoints' own rule (`NearHits.segmentOf`) has settled the
 * segments without an end along the road.
 *
 * Only the stops and waypoints the grid found near each place can be within its radius: `spanF`
 * and `spanT` (`NearHits.spanOf`, `first | last << 8` of their places among the trip's stops
 * along the road from 1, 255 for any past 254, 0 for none; `ALL_STOPS` where the scan reported one
 * per trip) bound the stops, and a pair's near words `wordF`, `wordT` (`NearHits.wordOf`) the
 * waypoints; the others are never measured.
 * A side's stops along the road are measured when the other side has a waypoint within its radius
 * (one end along the road), and only then those of both (two). One place only, the stops of its
 * span are measured. Distances to meeting points are measured once per search. The scratch is
 * this object's, grown to the largest trip seen.
 *
 * The ends are left in fields rather than answered as one number: two ends do not fit a small
 * integer, and a double answered by a call that is not inlined is boxed, a heap number per
 * candidate.
 */
export class RoadSegments {
  /** The ends of the segment `segment` found. */
  start = 0
  end = 0

  // Per waypoint, its distances; per stop along the road, its (by place among the trip's).
  private wF = new Float64Array(256)
  private wT = new Float64Array(256)
  private aF = new Float64Array(256)
  private aT = new Float64Array(256)
  // The ends of each side within its radius, in road order: end, road-order index, position, distance.
  private fEnd = new Int32Array(512)
  private fOrder = new Int32Array(512)
  private fPos = new Float64Array(512)
  private fD = new Float64Array(512)
  private tEnd = new Int32Array(512)
  private tOrder = new Int32Array(512)
  private tPos = new Float64Array(512)
  private tD = new Float64Array(512)
  // The least distance of the `to` ends from each one on, along the road and at waypoints.
  private sufA = new Float64Array(513)
  private sufW = new Float64Array(513)
  private readonly mpF = new MeetingPointDistances()
  private readonly mpT = new MeetingPointDistances()

  /** Starts a search over `t`'s meeting points from these places. */
  begin(t: TripColumns, from: FlatBox | undefined, to: FlatBox | undefined): void {
    this.mpF.begin(t, from)
    this.mpT.begin(t, to)
  }

  private room(stops: number): void {
    if (this.aF.length >= stops && this.fEnd.length >= stops + 256) return
    const n = 2 * stops + 256
    this.aF = new Float64Array(n)
    this.aT = new Float64Array(n)
    this.fEnd = new Int32Array(n + 256)
    this.fOrder = new Int32Array(n + 256)
    this.fPos = new Float64Array(n + 256)
    this.fD = new Float64Array(n + 256)
    this.tEnd = new Int32Array(n + 256)
    this.tOrder = new Int32Array(n + 256)
    this.tPos = new Float64Array(n + 256)
    this.tD = new Float64Array(n + 256)
    this.sufA = new Float64Array(n + 257)
    this.sufW = new Float64Array(n + 257)
  }

  segment(
    t: TripColumns,
    w0: number,
    last: number,
    from: FlatBox | undefined,
    to: FlatBox | undefined,
    spanF: number,
    spanT: number,
    wordF: number,
    wordT: number
  ): boolean {
    const { wAlong, aMp, aLeg, aFrac } = t
    const a0 = wAlong[w0]!
    const stops = wAlong[w0 + last]! - a0
    this.room(stops)
    if (from !== undefined && to !== undefined) return this.pair(t, w0, last, a0, stops, from, to, spanF, spanT, wordF, wordT)
    // One place: the stops of its span (none: 0), or all where the scan reported one per trip.
    const span = from !== undefined ? spanF : spanT
    if (span === 0) return false
    const lo = span === ALL_STOPS ? 0 : (span & 255) - 1
    const hi = span === ALL_STOPS || (span >>> 8) === 255 ? stops - 1 : (span >>> 8) - 1
    let best = Infinity
    let at = -1
    if (from !== undefined) {
      for (let j = lo; j <= hi; j++) {
        if (!(last > aLeg[a0 + j]! + aFrac[a0 + j]!)) continue
        const d = this.mpF.of(aMp[a0 + j]!)
        if (d < best) {
          best = d
          at = j
        }
      }
      return this.found(ALONG_END + at, last, at >= 0)
    }
    for (let j = lo; j <= hi; j++) {
      if (!(aLeg[a0 + j]! + aFrac[a0 + j]! > 0)) continue
      const d = this.mpT.of(aMp[a0 + j]!)
      if (d < best) {
        best = d
        at = j
      }
    }
    return this.found(0, ALONG_END + at, at >= 0)
  }

  private found(start: number, end: number, found: boolean): boolean {
    this.start = start
    this.end = end
    return found
  }

  private pair(
    t: TripColumns,
    w0: number,
    last: number,
    a0: number,
    stops: number,
    from: FlatBox,
    to: FlatBox,
    spanF: number,
    spanT: number,
    wordF: number,
    wordT: number
  ): boolean {
    const { wAlong, aMp, aLeg, aFrac, wPlace } = t
    const { wF, wT, aF, aT } = this
    // The stops along the road near each place, by their place among the trip's (from 0 here;
    // 255 in the span stands for any past 253: to the last), and the road-order indexes they and the waypoints within each
    // radius span: a trip where every end near `from` comes at or after every end near `to` goes
    // the other way (about half of a pair's candidates), and is rejected before any stop is measured.
    const loF = spanF === 0 ? stops : spanF === ALL_STOPS ? 0 : (spanF & 255) - 1
    const hiF = spanF === 0 ? -1 : spanF === ALL_STOPS || (spanF >>> 8) === 255 ? stops - 1 : (spanF >>> 8) - 1
    const loT = spanT === 0 ? stops : spanT === ALL_STOPS ? 0 : (spanT & 255) - 1
    const hiT = spanT === 0 ? -1 : spanT === ALL_STOPS || (spanT >>> 8) === 255 ? stops - 1 : (spanT >>> 8) - 1
    // A stop's road-order index: its place among the stops, plus the waypoints up to its leg's.
    const spanFirstF = loF <= hiF ? loF + aLeg[a0 + loF]! + 1 : Infinity
    const spanLastT = loT <= hiT ? hiT + aLeg[a0 + hiT]! + 1 : -1
    // The waypoints near each place by the words (every one past a word's 15 places): the first
    // near `from` and the last near `to` bound the road order before a distance is measured, and
    // a trip that goes the other way even by them goes the other way.
    const allF = (wordF & OVERFLOW) !== 0
    const allT = (wordT & OVERFLOW) !== 0
    const nearF = wordF & NEAR
    const nearT = wordT & NEAR
    const kF = allF ? 0 : 31 - Math.clz32(nearF & -nearF)
    const kT = allT ? last : 31 - Math.clz32(nearT)
    const wordFirstF = allF || nearF !== 0 ? kF + wAlong[w0 + kF]! - a0 : Infinity
    const wordLastT = allT || nearT !== 0 ? kT + wAlong[w0 + kT]! - a0 : -1
    if (Math.min(spanFirstF, wordFirstF) >= Math.max(spanLastT, wordLastT)) return false
    // Again, by the waypoints within each radius only.
    let firstF = spanFirstF
    let lastT = spanLastT
    let wayF = false
    let wayT = false
    for (let k = 0; k <= last; k++) {
      const df = k < last && (allF || (k < POSITIONS && ((nearF >>> k) & 1) !== 0)) ? distanceWithin(wPlace, from, w0 + k) : Infinity
      const dt = k > 0 && (allT || (k < POSITIONS && ((nearT >>> k) & 1) !== 0)) ? distanceWithin(wPlace, to, w0 + k) : Infinity
      wF[k] = df
      wT[k] = dt
      const order = k + wAlong[w0 + k]! - a0
      if (df !== Infinity) {
        wayF = true
        if (order < firstF) firstF = order
      }
      if (dt !== Infinity) {
        wayT = true
        if (order > lastT) lastT = order
      }
    }
    if (firstF >= lastT) return false
    // One end along the road: a stop near one place needs a waypoint within the other's radius.
    if (wayT) measure(this.mpF, aMp, a0, loF, hiF, aF)
    if (wayF) measure(this.mpT, aMp, a0, loT, hiT, aT)
    if ((wayF || wayT) && this.oneEnd(t, w0, last, a0, loF, hiF, loT, hiT, wayF, wayT)) return true
    // Both ends along the road: none without stops near each place.
    if (loF > hiF || loT > hiT) return false
    if (!wayT) measure(this.mpF, aMp, a0, loF, hiF, aF)
    if (!wayF) measure(this.mpT, aMp, a0, loT, hiT, aT)
    // Every stop of the `from` span before every stop of the `to` span, in road order and position
    // (the common case: the road passes one place, then the other): any two make a pair, and the
    // least sum is the least of each side's, found without listing the ends.
    if (hiF < loT && aLeg[a0 + hiF]! + aFrac[a0 + hiF]! < aLeg[a0 + loT]! + aFrac[a0 + loT]!) return this.leastOfEach(this.aF, loF, hiF, ALONG_END, this.aT, loT, hiT, ALONG_END)
    return this.leastPair(t, w0, last, a0, loF, hiF, loT, hiT, 2, true, true)
  }

  /**
   * `leastPair`'s answer with one end along the road where only one place has waypoints within
   * its radius (nearly every such candidate: the road passes the one place, then reaches a waypoint
   * at the other). Stops of the other place's span on the wrong side of every such waypoint pair
   * with none and are left out; where each stop left comes before (or after) every such waypoint,
   * any of them and any waypoint make a pair (`leastOfEach`). Anywhere else, `leastPair`.
   */
  private oneEnd(
    t: TripColumns,
    w0: number,
    last: number,
    a0: number,
    loF: number,
    hiF: number,
    loT: number,
    hiT: number,
    wayF: boolean,
    wayT: boolean
  ): boolean {
    const { aLeg, aFrac, wAlong } = t
    const { wF, wT, aF, aT } = this
    if (wayT && !wayF && loF <= hiF) {
      // Stops near `from`, waypoints near `to`: the stops before the last of those waypoints.
      let first = 0
      while (wT[first]! === Infinity) first++
      let lastT = last
      while (wT[lastT]! === Infinity) lastT--
      let hi = Math.min(hiF, wAlong[w0 + lastT]! - a0 - 1)
      while (hi >= loF && aLeg[a0 + hi]! + aFrac[a0 + hi]! >= lastT) hi--
      if (hi < loF) return false
      if (aLeg[a0 + hi]! + aFrac[a0 + hi]! < first) return this.leastOfEach(aF, loF, hi, ALONG_END, wT, first, lastT, 0)
    } else if (wayF && !wayT && loT <= hiT) {
      // Waypoints near `from`, stops near `to`: the stops after the first of those waypoints.
      let firstF = 0
      while (wF[firstF]! === Infinity) firstF++
      let lastF = last - 1
      while (wF[lastF]! === Infinity) lastF--
      let lo = Math.max(loT, wAlong[w0 + firstF]! - a0)
      while (lo <= hiT && aLeg[a0 + lo]! + aFrac[a0 + lo]! <= firstF) lo++
      if (lo > hiT) return false
      if (aLeg[a0 + lo]! + aFrac[a0 + lo]! > lastF) return this.leastOfEach(wF, firstF, lastF, 0, aT, lo, hiT, ALONG_END)
    }
    return this.leastPair(t, w0, last, a0, loF, hiF, loT, hiT, 1, wayT, wayF)
  }

  /**
   * The qualifying pair with `ends` ends along the road (1 or 2) and the least distance sum, the
   * earliest in road order on a tie, into `start` and `end`; false when there is none. Each side's ends within its
   * radius are listed in road order first: its waypoints, and its stops along the road of its span
   * (`loF..hiF`, `loT..hiT`) when `alongF` (`alongT`) says their distances are written.
   */
  private leastPair(
    t: TripColumns,
    w0: number,
    last: number,
    a0: number,
    loF: number,
    hiF: number,
    loT: number,
    hiT: number,
    ends: 1 | 2,
    alongF: boolean,
    alongT: boolean
  ): boolean {
    const { wAlong, aFrac } = t
    const { wF, wT, aF, aT, fEnd, fOrder, fPos, fD, tEnd, tOrder, tPos, tD } = this
    let nf = 0
    let nt = 0
    for (let k = 0; k <= last; k++) {
      const orderK = k + wAlong[w0 + k]! - a0
      if (ends === 1 && wF[k]! !== Infinity) {
        fEnd[nf] = k
        fOrder[nf] = orderK
        fPos[nf] = k
        fD[nf++] = wF[k]!
      }
      if (wT[k]! !== Infinity) {
        tEnd[nt] = k
        tOrder[nt] = orderK
        tPos[nt] = k
        tD[nt++] = wT[k]!
      }
      if (k === last) break
      // The leg's stops along the road, those of each span only.
      const j0 = wAlong[w0 + k]! - a0
      const j1 = wAlong[w0 + k + 1]! - a0
      if (alongF) {
        for (let j = Math.max(j0, loF), end = Math.min(j1 - 1, hiF); j <= end; j++) {
          if (aF[j]! === Infinity) continue
          fEnd[nf] = ALONG_END + j
          fOrder[nf] = j + k + 1
          fPos[nf] = k + aFrac[a0 + j]!
          fD[nf++] = aF[j]!
        }
      }
      if (alongT) {
        for (let j = Math.max(j0, loT), end = Math.min(j1 - 1, hiT); j <= end; j++) {
          if (aT[j]! === Infinity) continue
          tEnd[nt] = ALONG_END + j
          tOrder[nt] = j + k + 1
          tPos[nt] = k + aFrac[a0 + j]!
          tD[nt++] = aT[j]!
        }
      }
    }
    // A pair's `to` end comes after its `from` end in road order and position: for each `from`
    // end a suffix of the `to` list (both lists are in road order), whose least distance of each
    // kind (along the road or a waypoint) is kept from the end. The sum is monotone in that
    // distance, so the least sum for an end is reached there; the earliest `to` end of it is looked
    // for once, for the `from` end chosen (a rounded sum may tie with a nearer one's).
    const { sufA, sufW } = this
    sufA[nt] = Infinity
    sufW[nt] = Infinity
    for (let y = nt - 1; y >= 0; y--) {
      const along = tEnd[y]! >= ALONG_END
      sufA[y] = along && tD[y]! < sufA[y + 1]! ? tD[y]! : sufA[y + 1]!
      sufW[y] = !along && tD[y]! < sufW[y + 1]! ? tD[y]! : sufW[y + 1]!
    }
    let best = Infinity
    let bx = -1
    let by = 0
    let b0 = 0
    for (let x = 0; x < nf; x++) {
      const alongA = fEnd[x]! >= ALONG_END
      // Never taken: with two ends along the road the `from` list holds stops only (waypoints are
      // listed for one end). The test stays because the loop measured slower without it, twice.
      if (ends === 2 && !alongA) continue
      while (b0 < nt && (tOrder[b0]! <= fOrder[x]! || !(tPos[b0]! > fPos[x]!))) b0++
      // One end along the road: the other is a waypoint; two: both along the road.
      const sum = fD[x]! + (alongA === (ends === 2) ? sufA[b0]! : sufW[b0]!)
      if (sum < best) {
        best = sum
        bx = x
        by = b0
      }
    }
    if (bx < 0) return false
    const wantAlong = (fEnd[bx]! >= ALONG_END) === (ends === 2)
    while (!((tEnd[by]! >= ALONG_END) === wantAlong && fD[bx]! + tD[by]! === best)) by++
    return this.found(fEnd[bx]!, tEnd[by]!, true)
  }

  /**
   * `leastPair`'s answer where every `from` end `fLo..fHi` of `f` comes before every `to` end
   * `tLo..tHi` of `t` in road order and position (so any two make a pair), from their distances
   * (Infinity outside the radius); an end's number is its index plus `fEnd` (`tEnd`): `ALONG_END`
   * for stops along the road, 0 for waypoints. The least sum is the sum of the least of each side
   * (the rounded sum is monotone in either term), its `from` end the earliest giving that sum with
   * the least `to` distance, its `to` end the earliest giving it with that `from` end, as
   * `leastPair` chooses them. Two ends along the road (`pair`), or one (`oneEnd`).
   */
  private leastOfEach(f: Float64Array, fLo: number, fHi: number, fEnd: number, t: Float64Array, tLo: number, tHi: number, tEnd: number): boolean {
    let minF = Infinity
    for (let j = fLo; j <= fHi; j++) if (f[j]! < minF) minF = f[j]!
    let minT = Infinity
    for (let j = tLo; j <= tHi; j++) if (t[j]! < minT) minT = t[j]!
    if (minF === Infinity || minT === Infinity) return false
    const best = minF + minT
    let x = fLo
    while (f[x]! + minT !== best) x++
    let y = tLo
    while (f[x]! + t[y]! !== best) y++
    return this.found(fEnd + x, tEnd + y, true)
  }
}

/**
 * The distances of the stops `lo..hi` of the trip whose stops along the road begin at `a0`, into
 * `out`. A function of the module, not a closure in `pair`: a closure is allocated at every call.
 */
const measure = (mp: MeetingPointDistances, aMp: Int32Array, a0: number, lo: number, hi: number, out: Float64Array): void => {
  for (let j = lo; j <= hi; j++) out[j] = mp.of(aMp[a0 + j]!)
}


/** Leg and fraction of a segment end (`ALONG_END`) of the trip whose first waypoint is `w0`, the last `last`: waypoint k < last at (k, 0), the last at (last - 1, 1). */
const legOf = (t: TripColumns, w0: number, last: number, end: number): number =>
  end < ALONG_END ? (end < last ? end : last - 1) : t.aLeg[t.wAlong[w0]! + end - ALONG_END]!
const fractionOf = (t: TripColumns, w0: number, last: number, end: number): number =>
  end < ALONG_END ? (end < last ? 0 : 1) : t.aFrac[t.wAlong[w0]! + end - ALONG_END]!

/**
 * `Σ c_k · per[k]` over the legs the segment from end `a` to end `b` covers, in leg order
 * (docs/API.md, Along the road: the parts of each leg), where `per` holds each leg's figure on its
 * first waypoint (`legPrice`, `legDist`). Exact integer sums between waypoints.
 */
export const roadParts = (t: TripColumns, w0: number, last: number, a: number, b: number, per: Int32Array): number => {
  const ka = legOf(t, w0, last, a)
  const fa = fractionOf(t, w0, last, a)
  const kb = legOf(t, w0, last, b)
  const fb = fractionOf(t, w0, last, b)
  if (ka === kb) return (fb - fa) * per[w0 + ka]!
  let x = (1 - fa) * per[w0 + ka]!
  for (let k = ka + 1; k <= kb; k++) x += (k < kb ? 1 : fb) * per[w0 + k]!
  return x
}

/**
 * The net price of the segment from end `a` to end `b`: `roadParts` of the legs' prices, rounded
 * to the minor unit. An integer, so that the search loop's call, not always inlined, answers it
 * without boxing a double.
 */
export const roadPrice = (t: TripColumns, w0: number, last: number, a: number, b: number): number => Math.round(roadParts(t, w0, last, a, b, t.legPrice))

/** The distance from `box`'s place to a segment end's: a waypoint's, or its stop along the road's meeting point's. */
export const endKm = (t: TripColumns, w0: number, end: number, box: FlatBox): number => {
  if (end < ALONG_END) return haversineKm(box.lat, box.lon, t.wPlace[2 * (w0 + end)]!, t.wPlace[2 * (w0 + end) + 1]!)
  const m = t.aMp[t.wAlong[w0]! + end - ALONG_END]!
  return haversineKm(box.lat, box.lon, t.mpPlace[2 * m]!, t.mpPlace[2 * m + 1]!)
}
