import polyline from "@mapbox/polyline"
import { haversineKm } from "../geo/haversine.js"

/** The most points a leg's `path` may have (docs/FEED.md). */
export const MAX_PATH_POINTS = 10_000
/** How far a path's first and last points may lie from the leg's waypoints, km. */
export const PATH_END_KM = 0.1

/**
 * A leg's road as the matching reads it: points `v0..vm` with `v0` and `vm` the waypoints
 * themselves, and `s[t]` the road's length up to `vt` (haversine sums, in point order).
 */
export interface LegRoad {
  readonly lat: Float64Array
  readonly lon: Float64Array
  readonly s: Float64Array
  /** `s[m]`, the leg's road length in km. */
  readonly length: number
}

/**
 * Whether `path` (characters already checked to be 63..126) is certainly what the library's
 * `encode` writes for the points its `decode` reads, found in one pass over the characters
 * instead of encoding the points again (which costs as much as the decoding): an even number of
 * values, each one whole (its last character has no continuation bit) and in its fewest
 * characters (a value of two or more characters does not end in a zero chunk, "?"). Both ways
 * agree wherever the library's arithmetic is exact, which holds when every value has at most
 * 6 characters (under 2^30) and the text is short enough that the running sums stay far
 * below 2^53; `undefined` outside those bounds, where the caller encodes again to be sure.
 */
const CANONICAL_MAX_LENGTH = 1 << 20
const canonicalPolyline = (path: string): boolean | undefined => {
  if (path.length > CANONICAL_MAX_LENGTH) return undefined
  let values = 0
  let chunks = 0
  let last = 0
  for (let c = 0; c < path.length; c++) {
    last = path.charCodeAt(c) - 63
    chunks++
    if (last < 0x20) {
      if (chunks > 6) return undefined
      if (chunks > 1 && last === 0) return false
      values++
      chunks = 0
    }
  }
  return chunks === 0 && values % 2 === 0
}

/**
 * The points of an encoded polyline (precision 1e-5), or a reason when the text is not one. The
 * library decodes whatever it is given; a text it would not write back the same way (a truncated
 * chunk, a stray character, an odd number of values) is a broken polyline.
 */
export const decodePath = (path: string): Array<[number, number]> | string => {
  for (let c = 0; c < path.length; c++) {
    const code = path.charCodeAt(c)
    if (code < 63 || code > 126) return `must be an encoded polyline, got the character ${JSON.stringify(path[c])} at ${c}`
  }
  const canonical = canonicalPolyline(path)
  if (canonical === false) return BROKEN
  const points = polyline.decode(path, 5)
  if (canonical === undefined && polyline.encode(points, 5) !== path) return BROKEN
  for (const [lat, lon] of points) {
    if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180)) return `must be an encoded polyline of valid coordinates, got a point at ${lat},${lon}`
  }
  return points
}
const BROKEN = "must be an encoded polyline (precision 1e-5); this one is truncated or broken"

/**
 * A distance past `PATH_END_KM`, with as many decimals as it takes to read as past it: 0.10008 km
 * is "0.10008", where three decimals would say "0.100 km away" of a point refused for being over 0.1.
 */
const pastEnd = (km: number): string => {
  for (let digits = 3; digits < 12; digits++) if (Number(km.toFixed(digits)) > PATH_END_KM) return km.toFixed(digits)
  return String(km)
}

/**
 * The points of `path` when it can be leg `from -> to`'s road (`decodePath`), or why it cannot:
 * `pathProblem` with the points, so that a caller that goes on to use them decodes the path once.
 */
export const checkedPath = (path: string, fromLat: number, fromLon: number, toLat: number, toLon: number): Array<[number, number]> | string => {
  const points = decodePath(path)
  if (typeof points === "string") return points
  if (points.length < 2 || points.length > MAX_PATH_POINTS) return `must have 2 to ${MAX_PATH_POINTS} points, got ${points.length}`
  const [firstLat, firstLon] = points[0]!
  const [lastLat, lastLon] = points[points.length - 1]!
  const dFirst = haversineKm(fromLat, fromLon, firstLat, firstLon)
  if (!(dFirst <= PATH_END_KM)) return `must start within ${PATH_END_KM} km of its first waypoint, starts ${pastEnd(dFirst)} km away`
  const dLast = haversineKm(toLat, toLon, lastLat, lastLon)
  if (!(dLast <= PATH_END_KM)) return `must end within ${PATH_END_KM} km of its second waypoint, ends ${pastEnd(dLast)} km away`
  return points
}

/** Why `path` cannot be leg `from -> to`'s road, or undefined when it can. */
export const pathProblem = (path: string, fromLat: number, fromLon: number, toLat: number, toLon: number): string | undefined => {
  const checked = checkedPath(path, fromLat, fromLon, toLat, toLon)
  return typeof checked === "string" ? checked : undefined
}

/**
 * The points of a `path` already found valid (`pathProblem`), as `decodePath` gives them: without
 * its checks, which encode the points again to compare (they cost as much as the decoding).
 */
export const decodeValidPath = (path: string): Array<[number, number]> => polyline.decode(path, 5)

/** The road of a leg whose `path` is valid (`pathProblem`), its ends replaced by the waypoints. */
export const legRoad = (path: string, fromLat: number, fromLon: number, toLat: number, toLon: number): LegRoad => {
  const points = decodePath(path)
  if (typeof points === "string") throw new Error(`legRoad: ${points}`)
  return legRoadOf(points, fromLat, fromLon, toLat, toLon)
}

/** `legRoad` of the path's points (`decodePath`, `decodeValidPath`). */
export const legRoadOf = (points: ReadonlyArray<readonly [number, number]>, fromLat: number, fromLon: number, toLat: number, toLon: number): LegRoad => {
  const m = points.length - 1
  const lat = new Float64Array(m + 1)
  const lon = new Float64Array(m + 1)
  const s = new Float64Array(m + 1)
  for (let t = 0; t <= m; t++) {
    lat[t] = points[t]![0]
    lon[t] = points[t]![1]
  }
  lat[0] = fromLat
  lon[0] = fromLon
  lat[m] = toLat
  lon[m] = toLon
  for (let t = 1; t <= m; t++) s[t] = s[t - 1]! + haversineKm(lat[t - 1]!, lon[t - 1]!, lat[t]!, lon[t]!)
  return { lat, lon, s, length: s[m]! }
}
