import { EARTH_RADIUS_KM } from "./haversine.js"

/** A lat/lon box; `lonRanges` has two entries when the box crosses the antimeridian. */
export interface BoundingBox {
  readonly minLat: number
  readonly maxLat: number
  readonly lonRanges: ReadonlyArray<readonly [number, number]>
}

const DEG = 180 / Math.PI
// Widen a hair so that points exactly on the radius are never lost to rounding in the box test.
const SLACK_DEG = 1e-9

/** The smallest box holding every point within `radiusKm` (great-circle) of a centre. */
export const boundingBox = (lat: number, lon: number, radiusKm: number): BoundingBox => {
  const angular = radiusKm / EARTH_RADIUS_KM
  const dLat = angular * DEG + SLACK_DEG
  const minLat = Math.max(-90, lat - dLat)
  const maxLat = Math.min(90, lat + dLat)
  // A pole inside the circle, or a circle wider than the globe: every longitude.
  if (minLat <= -90 || maxLat >= 90 || angular >= Math.PI / 2) return { minLat, maxLat, lonRanges: [[-180, 180]] }
  const sinRatio = Math.sin(angular) / Math.cos((lat * Math.PI) / 180)
  if (sinRatio >= 1) return { minLat, maxLat, lonRanges: [[-180, 180]] }
  const dLon = Math.asin(sinRatio) * DEG + SLACK_DEG
  const west = lon - dLon
  const east = lon + dLon
  if (west < -180) return { minLat, maxLat, lonRanges: [[west + 360, 180], [-180, east]] }
  if (east > 180) return { minLat, maxLat, lonRanges: [[west, 180], [-180, east - 360]] }
  return { minLat, maxLat, lonRanges: [[west, east]] }
}
