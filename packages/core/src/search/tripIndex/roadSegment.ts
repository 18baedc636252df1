import { distanceWithin } from "./bestSegment.js"
import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

/**
 * The segment a trip with stops along the road matches by (docs/API.md, Along the road), as
 * `a * 65536 + b` over its stops `w0 .. w0 + last` in road order, or -1: the qualifying pair with
 * the fewest ends along the road, then the least `dF[a] + dT[b]`, then the earliest in road order;
 * with an end along the road, `b`'s position must be after `a`'s. One place only: the stop with
 * the smallest (along the road, distance, road order) key, to the last waypoint or from the first.
 *
 * Only the stops the grid found near each place can be within its radius: `spanF` and `spanT`
 * (`NearHits.spanOf`, `first | last << 8`) bound them, and the stops outside are never measured.
 * The classes are tried in their order, each measuring only what it reads: waypoints first (a
 * qualifying pair of them, or for one place a waypoint, wins over everything along the road), then
 * the stops of a side whose other side has a waypoint within its radius, then the rest.
 * `dF` and `dT` are scratch of at least `last + 1` entries, read only where written. A stop's
 * position is `wLeg + wFrac`, and it lies along the road when `wMp` is not 0; both read in place,
 * as this runs per candidate.
 */
export const roadSegment = (
  t: TripColumns,
  w0: number,
  last: number,
  from: FlatBox | undefined,
  to: FlatBox | undefined,
  spanF: number,
  spanT: number,
  dF: Float64Array,
  dT: Float64Array
): number => {
  const { wMp, wLeg, wFrac } = t
  // `from` never takes the last stop, `to` never the first; 255 stands for any place past 254.
  const loF = spanF & 255
  const hiF = Math.min((spanF >>> 8) === 255 ? last : spanF >>> 8, last - 1)
  const loT = Math.max(spanT & 255, 1)
  const hiT = (spanT >>> 8) === 255 ? last : Math.min(spanT >>> 8, last)
  // Every stop near `from` at or after every stop near `to`: a trip the other way, about half of a
  // pair's candidates.
  if (from !== undefined && to !== undefined && loF >= hiT) return -1
  if (from !== undefined) for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] === 0) dF[s] = distanceWithin(t, from, w0 + s)
  if (to !== undefined) for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] === 0) dT[s] = distanceWithin(t, to, w0 + s)
  let ba = -1
  let bb = -1
  if (from !== undefined && to !== undefined) {
    let best = Infinity
    for (let a = loF; a <= hiF; a++) {
      if (wMp[w0 + a] !== 0) continue
      const da = dF[a]!
      if (da === Infinity) continue
      for (let b = Math.max(a + 1, loT); b <= hiT; b++) {
        if (wMp[w0 + b] !== 0) continue
        const sum = da + dT[b]!
        if (sum < best) {
          best = sum
          ba = a
          bb = b
        }
      }
    }
    if (ba >= 0) return ba * 65536 + bb
    // One end along the road: a stop near one place needs a waypoint within the other's radius,
    // else its distance decides nothing yet.
    let wayF = false
    let wayT = false
    for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] === 0 && dF[s]! !== Infinity) wayF = true
    for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] === 0 && dT[s]! !== Infinity) wayT = true
    if (wayT) for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] !== 0) dF[s] = distanceWithin(t, from, w0 + s)
    if (wayF) for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] !== 0) dT[s] = distanceWithin(t, to, w0 + s)
    if (wayF || wayT) {
      for (let a = loF; a <= hiF; a++) {
        const alongA = wMp[w0 + a] !== 0
        if (alongA && !wayT) continue
        const da = dF[a]!
        if (da === Infinity) continue
        const pa = wLeg[w0 + a]! + wFrac[w0 + a]!
        for (let b = Math.max(a + 1, loT); b <= hiT; b++) {
          if ((wMp[w0 + b] !== 0) === alongA) continue
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
      if (ba >= 0) return ba * 65536 + bb
    }
    // Both ends along the road.
    if (!wayT) for (let s = loF; s <= hiF; s++) if (wMp[w0 + s] !== 0) dF[s] = distanceWithin(t, from, w0 + s)
    if (!wayF) for (let s = loT; s <= hiT; s++) if (wMp[w0 + s] !== 0) dT[s] = distanceWithin(t, to, w0 + s)
    for (let a = loF; a <= hiF; a++) {
      if (wMp[w0 + a] === 0) continue
      const da = dF[a]!
      if (da === Infinity) continue
      const pa = wLeg[w0 + a]! + wFrac[w0 + a]!
      for (let b = Math.max(a + 1, loT); b <= hiT; b++) {
        if (wMp[w0 + b] === 0) continue
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
  } else if (from !== undefined) {
    let best = Infinity
    for (let a = loF; a <= hiF; a++) {
      if (wMp[w0 + a] === 0 && dF[a]! < best) {
        best = dF[a]!
        ba = a
      }
    }
    if (ba < 0) {
      const end = wLeg[w0 + last]! + wFrac[w0 + last]!
      for (let a = loF; a <= hiF; a++) {
        if (wMp[w0 + a] === 0 || !(end > wLeg[w0 + a]! + wFrac[w0 + a]!)) continue
        const d = distanceWithin(t, from, w0 + a)
        if (d < best) {
          best = d
          ba = a
        }
      }
    }
    bb = last
  } else if (to !== undefined) {
    let best = Infinity
    ba = 0
    for (let b = loT; b <= hiT; b++) {
      if (wMp[w0 + b] === 0 && dT[b]! < best) {
        best = dT[b]!
        bb = b
      }
    }
    if (bb < 0) {
      const start = wLeg[w0]! + wFrac[w0]!
      for (let b = loT; b <= hiT; b++) {
        if (wMp[w0 + b] === 0 || !(wLeg[w0 + b]! + wFrac[w0 + b]! > start)) continue
        const d = distanceWithin(t, to, w0 + b)
        if (d < best) {
          best = d
          bb = b
        }
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
