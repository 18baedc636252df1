import { haversineKmFrom } from "../../geo/haversine.js"
import type { FlatBox } from "./GeoGrid.js"

/**
 * The exact distance from `box`'s place to entry `w` of `place` (latitude at `2 * w`, longitude
 * next: `TripColumns.wPlace` or `wayPlace`), Infinity outside the radius. The bounding box holds
 * the whole circle, so a waypoint outside it needs no haversine.
 */
export const distanceWithin = (place: Float64Array, box: FlatBox, w: number): number => {
  const lat = place[2 * w]!
  const lon = place[2 * w + 1]!
  if (lat < box.minLat || lat > box.maxLat || !((lon >= box.west0 && lon <= box.east0) || (lon >= box.west1 && lon <= box.east1))) return Infinity
  const d = haversineKmFrom(box.lat, box.lon, box.cosLat, lat, lon)
  return d <= box.radiusKm ? d : Infinity
}

/**
 * The segment `wi -> wj` a trip matches by (docs/API.md, Searching), as `i * 256 + j` (a trip has fewer than
 * 256 waypoints), or -1 when none lies within the radii: for a pair, the `i < j` with the least
 * `dF[i] + dT[j]`, the first such in (i, j) order; departure only, the nearest `wi` before the
 * last waypoint, to the end; arrival only, from the start to the nearest `wj` after the first.
 * `dF` and `dT` are distances (`distanceWithin`), Infinity outside the radius.
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
