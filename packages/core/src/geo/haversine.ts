/** Mean Earth radius of the great-circle distances (docs/API.md, Searching). */
export const EARTH_RADIUS_KM = 6371.0088

/** Radians per degree. */
export const RAD = Math.PI / 180

/**
 * Great-circle distance in km from a point whose latitude's cosine the caller already has
 * (`cosLat1 = Math.cos(lat1 * Math.PI / 180)`): a search measures many waypoints from one place.
 * The same operations in the same order as `haversineKm`, so the same double.
 */
export const haversineKmFrom = (lat1: number, lon1: number, cosLat1: number, lat2: number, lon2: number): number => {
  const sinLat = Math.sin(((lat2 - lat1) * RAD) / 2)
  const sinLon = Math.sin(((lon2 - lon1) * RAD) / 2)
  const a = sinLat * sinLat + cosLat1 * Math.cos(lat2 * RAD) * sinLon * sinLon
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)))
}

/** Great-circle distance in km. Every comparison with a radius goes through this one function (or `haversineKmFrom`). */
export const haversineKm = (lat1: number, lon1: number, lat2: number, lon2: number): number =>
  haversineKmFrom(lat1, lon1, Math.cos(lat1 * RAD), lat2, lon2)
