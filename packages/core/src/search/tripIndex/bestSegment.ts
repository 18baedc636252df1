import { haversineKm } from "../../geo/haversine.js"
import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

/**
 * Exact distances from `box`'s place to waypoints `from..to` of the trip whose first waypoint is
 * `w0`, Infinity outside the radius. The bounding box holds the whole circle, so a waypoint
 * outside it needs no haversine.
 */
export const distancesTo = (t: TripColumns, box: FlatBox, w0: number, from: number, to: number, out: Float64Array): void => {
  for (let k = from; k <= to; k++) {
    const lat = t.wLat[w0 + k]!
    const lon = t.wLon[w0 + k]!
    if (lat < box.minLat || lat > box.maxLat || !((lon >= box.west0 && lon <= box.east0) || (lon >= box.west1 && lon <= box.east1))) {
      out[k] = Infinity
      continue
    }
    const d = haversineKm(box.lat, box.lon, lat, lon)
    out[k] = d <= box.radiusKm ? d : Infinity
  }
}

/**
 * The segment `wi -> wj` a trip matches by (docs/API.md, Searching), as `i * 256 + j` (a trip has fewer than
 * 256 waypoints), or -1 when none lies within the radii: for a pair, the `i < j` with the least
 * `dF[i] + dT[j]`, the first such in (i, j) order; departure only, the nearest `wi` before the
 * last waypoint, to the end; arrival only, from the start to the nearest `wj` after the first.
 * `dF` and `dT` are the distances of `distancesTo`, Infinity outside the radius.
 */
export const bestSegment = (hasFrom: boolean, hasTo: boolean, last: number, dF: Float64Array, dT: Float64Array): number => {
  let bi = -1
  let bj = -1
  if (hasFrom && hasTo) {
    let best = Infinity
    for (let i = 0; i < last; i++) {
      const di = dF[i]!
      if (di === Infinity) continue
      for (let j = i + 1; j <= last; j++) {
        const s = di + dT[j]!
        if (s < best) {
          best = s
          bi = i
          bj = j
        }
      }
    }
  } else if (hasFrom) {
    let best = Infinity
    for (let i = 0; i < last; i++) {
      if (dF[i]! < best) {
        best = dF[i]!
        bi = i
      }
    }
    bj = last
  } else {
    let best = Infinity
    bi = 0
    for (let j = 1; j <= last; j++) {
      if (dT[j]! < best) {
        best = dT[j]!
        bj = j
      }
    }
  }
  return bi < 0 || bj < 0 ? -1 : bi * 256 + bj
}
