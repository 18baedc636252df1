import { distanceWithin } from "./bestSegment.js"
import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

/**
 * The segment a trip with stops along the road matches by (docs/API.md, Along the road), as
 * `a * 65536 + b` over its stops `w0 .. w0 + last` in road order, or -1: the qualifying pair with
 * the fewest ends along the road, then the least `dF[a] + dT[b]`, then the earliest in road order;
 * with an end along the road, `b`'s position must be after `a`'s. One place only: the stop with
 * the smallest (along the road, distance, road order) key, to the last waypoint or from the first.
 * `dF` and `dT` are scratch of at least `last + 1` entries. A stop's position is `wLeg + wFrac`,
 * and it lies along the road when `wMp` is not 0; both read in place, as this runs per candidate.
 */
export const roadSegment = (t: TripColumns, w0: number, last: number, from: FlatBox | undefined, to: FlatBox | undefined, dF: Float64Array, dT: Float64Array): number => {
  const { wMp, wLeg, wFrac } = t
  if (from !== undefined) for (let s = 0; s <= last; s++) dF[s] = distanceWithin(t, from, w0 + s)
  if (to !== undefined) for (let s = 0; s <= last; s++) dT[s] = distanceWithin(t, to, w0 + s)
  let ba = -1
  let bb = -1
  if (from !== undefined && to !== undefined) {
    let bestAlong = 3
    let best = Infinity
    for (let a = 0; a < last; a++) {
      const da = dF[a]!
      if (da === Infinity) continue
      const ra = wMp[w0 + a] !== 0 ? 1 : 0
      if (ra > bestAlong) continue
      const pa = wLeg[w0 + a]! + wFrac[w0 + a]!
      for (let b = a + 1; b <= last; b++) {
        const db = dT[b]!
        if (db === Infinity) continue
        const n = ra + (wMp[w0 + b] !== 0 ? 1 : 0)
        if (n > bestAlong) continue
        if (n > 0 && !((wLeg[w0 + b]! + wFrac[w0 + b]!) > pa)) continue
        const sum = da + db
        if (n < bestAlong || sum < best) {
          bestAlong = n
          best = sum
          ba = a
          bb = b
        }
      }
    }
  } else if (from !== undefined) {
    const end = wLeg[w0 + last]! + wFrac[w0 + last]!
    let bestAlong = 2
    let best = Infinity
    for (let a = 0; a < last; a++) {
      const d = dF[a]!
      if (d === Infinity) continue
      const r = wMp[w0 + a] !== 0 ? 1 : 0
      if (r > bestAlong || (r === 1 && !(end > (wLeg[w0 + a]! + wFrac[w0 + a]!)))) continue
      if (r < bestAlong || d < best) {
        bestAlong = r
        best = d
        ba = a
      }
    }
    bb = last
  } else if (to !== undefined) {
    const start = wLeg[w0]! + wFrac[w0]!
    let bestAlong = 2
    let best = Infinity
    ba = 0
    for (let b = 1; b <= last; b++) {
      const d = dT[b]!
      if (d === Infinity) continue
      const r = wMp[w0 + b] !== 0 ? 1 : 0
      if (r > bestAlong || (r === 1 && !((wLeg[w0 + b]! + wFrac[w0 + b]!) > start))) continue
      if (r < bestAlong || d < best) {
        bestAlong = r
        best = d
        bb = b
      }
    }
  }
  return ba < 0 || bb < 0 ? -1 : ba * 65536 + bb
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
