const EARTH_RADIUS_KM = 6371.0088
const RAD = Math.PI / 180

/** The point `distanceKm` from a start along an initial bearing (radians), on the sphere. */
export const destinationPoint = (lat: number, lon: number, bearing: number, distanceKm: number): readonly [number, number] => {
  const d = distanceKm / EARTH_RADIUS_KM
  const φ1 = lat * RAD
  const λ1 = lon * RAD
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(bearing))
  const λ2 = λ1 + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2))
  return [φ2 / RAD, ((λ2 / RAD + 540) % 360) - 180]
}
