import { distanceWithin } from "./bestSegment.js"
import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

/**
 * The segment a trip with stops along the road matches by (docs/API.md, Along the road) when no
 * pair of its waypoints (for one place, no waypoint) qualifies, as `a * 65536 + b` over its stops
 * `w0 .. w0 + last` in road order, or -1: the qualifying pair with the fewest ends along the road,
 * then the least `dF[a] + dT[b]`, then the earliest in road order, `b`'s position after `a`'s.
 * One place only: the stop along the road with the smallest (distance, road order) key, to the
 * last waypoint or from the first. The waypoints' own rule (`NearHits.segmentOf`, over the trip's
 * `wayCount` waypoints from `wayStart`) has settled the segments without an end along the road.
 *
 * For a pair, only the stops the grid found near each place can be within its radius: `spanF`
 * and `spanT` (`NearHits.spanOf`, `first | last << 8`, 0 for none) bound those along the road,
 * the waypoints are measured all (they are few), and the stops outside both are never measured;
 * a side's stops along the road are measured when the other side has a waypoint within its radius
 * (one end along the road), and only then those of both (two). One place only, the scan reported
 * one stop along the road per trip: every stop is measured. `dF` and `dT` are scratch of at least
 * `last + 1` entries, read only where written. A stop's position is `wLeg + wFrac`, and it lies
 * along the road when `wMp` is not 0; both read in place, as this runs per candidate.
 */
export const roadSegment = (
  t: TripColumns,
  slot: number,
  w0: number,
  last: number,
  from: FlatBox | undefined,
  to: FlatBox | undefined,
  spanF: number,
  spanT: number,
  dF: Float64Array,
  dT: Float64Array
): number => {
  const { wMp, wLeg, wFrac, wPlace } = t
  let ba = -1
  let bb = -1
  if (from !== undefined && to !== undefined) {
    // The stops along the road near each place (`from` never takes the last stop, `to` never the
    // first; 255 stands for any place past 254), widened to the waypoints within each radius.
    let loF = spanF === 0 ? last : spanF & 255
    let hiF = spanF === 0 ? 0 : Math.min((spanF >>> 8) === 255 ? last : spanF >>> 8, last - 1)
    let loT = spanT === 0 ? last : Math.max(spanT & 255, 1)
    let hiT = spanT === 0 ? 0 : (spanT >>> 8) === 255 ? last : Math.min(spanT >>> 8, last)
    const { wayPlace, wayIdx } = t
    const v0 = t.wayStart[slot]!
    const ways = t.wayCount[slot]!
    let wayF = false
    let wayT = false
    for (let k = 0; k < ways; k++) {
      const s = wayIdx[v0 + k]!
      const df = k < ways - 1 ? distanceWithin(wayPlace, from, v0 + k) : Infinity
      const dt = k > 0 ? distanceWithin(wayPlace, to, v0 + k) : Infinity
      dF[s] = df
      dT[s] = dt
      if (df !== Infinity) {
        wayF = true
        if (s < loF) loF = s
        if (s > hiF) hiF = s
      }
      if (dt !== Infinity) {
        wayT = true
        if (s < loT) loT = s
        if (s > hiT) hiT = s
      }
    }
    // Every stop near `from` at or after every stop near `to` (or none near one of them): a trip
    // the other way, about half of a pair's candidates.
    if (loF >= hiT) return -1
    // One end along the road: a stop near one place needs a waypoint within the other's radius.
    if (wayT) for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] !== 0) dF[s] = distanceWithin(wPlace, from, w0 + s)
    if (wayF) for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] !== 0) dT[s] = distanceWithin(wPlace, to, w0 + s)
    if (wayF || wayT) {
      const one = leastPair(t, w0, loF, hiF, loT, hiT, dF, dT, 1, wayT, wayF)
      if (one >= 0) return one
    }
    // Both ends along the road.
    if (!wayT) for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] !== 0) dF[s] = distanceWithin(wPlace, from, w0 + s)
    if (!wayF) for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] !== 0) dT[s] = distanceWithin(wPlace, to, w0 + s)
    return leastPair(t, w0, loF, hiF, loT, hiT, dF, dT, 2, true, true)
  } else if (from !== undefined) {
    const end = wLeg[w0 + last]! + wFrac[w0 + last]!
    let best = Infinity
    for (let a = 1; a < last; a++) {
      if (wMp[w0 + a] === 0 || !(end > wLeg[w0 + a]! + wFrac[w0 + a]!)) continue
      const d = distanceWithin(wPlace, from, w0 + a)
      if (d < best) {
        best = d
        ba = a
      }
    }
    bb = last
  } else if (to !== undefined) {
    const start = wLeg[w0]! + wFrac[w0]!
    let best = Infinity
    ba = 0
    for (let b = 1; b < last; b++) {
      if (wMp[w0 + b] === 0 || !(wLeg[w0 + b]! + wFrac[w0 + b]! > start)) continue
      const d = distanceWithin(wPlace, to, w0 + b)
      if (d < best) {
        best = d
        bb = b
      }
    }
  }
  return ba < 0 || bb < 0 ? -1 : ba * 65536 + bb
}

/**
 * The qualifying pair of stops `a` in `loF..hiF`, `b` in `loT..hiT` (`a < b`, `b`'s position after
 * `a`'s) with `ends` ends along the road (1 or 2) and the least `dF[a] + dT[b]`, the earliest in
 * road order on a tie, as `a * 65536 + b`, or -1. A stop along the road is read on the `from` side
 * only with `alongF` (its distance written), on the `to` side only with `alongT`.
 */
const leastPair = (
  t: TripColumns,
  w0: number,
  loF: number,
  hiF: number,
  loT: number,
  hiT: number,
  dF: Float64Array,
  dT: Float64Array,
  ends: 1 | 2,
  alongF: boolean,
  alongT: boolean
): number => {
  const { wMp, wLeg, wFrac } = t
  let best = Infinity
  let ba = -1
  let bb = -1
  for (let a = loF; a <= hiF; a++) {
    const alongA = wMp[w0 + a] !== 0
    if (alongA ? !alongF : ends === 2) continue
    const da = dF[a]!
    if (da === Infinity) continue
    const pa = wLeg[w0 + a]! + wFrac[w0 + a]!
    for (let b = Math.max(a + 1, loT); b <= hiT; b++) {
      const alongB = wMp[w0 + b] !== 0
      if ((alongA ? 1 : 0) + (alongB ? 1 : 0) !== ends || (alongB && !alongT)) continue
      const db = dT[b]!
      if (db === Infinity || !((wLeg[w0 + b]! + wFrac[w0 + b]!) > pa)) continue
      const sum = da + db
      if (sum < best) {
        best = sum
        ba = a
        bb = b
      }
    }
  }
  return ba < 0 ? -1 : ba * 65536 + bb
}

/**
 * `Σ c_k · per[k]` over the legs the segment from stop `wa` to stop `wb` covers, in leg order
 * (docs/API.md, Along the road: the parts of each leg), where `per` holds each leg's figure on its
 * first waypoint (`legPrice`, `legDist`). Exact integer sums between waypoints.
 */
export const roadParts = (t: TripColumns, wa: number, wb: number, per: Int32Array): number => {
  const { wMp, wLeg, wFrac } = t
  const ka = wLeg[wa]!
  const fa = wFrac[wa]!
  const kb = wLeg[wb]!
  const fb = wFrac[wb]!
  let w = wa
  while (wMp[w] !== 0) w--
  if (ka === kb) return (fb - fa) * per[w]!
  let x = (1 - fa) * per[w]!
  for (let k = ka + 1; k <= kb; k++) {
    w++
    while (wMp[w] !== 0) w++
    x += (k < kb ? 1 : fb) * per[w]!
  }
  return x
}
