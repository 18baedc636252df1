import { haversineKm } from "./haversine.js"

export interface Point {
  readonly lat: number
  readonly lon: number
}

/** Radius when only one place is known (docs/API.md, Searching). */
export const SINGLE_PLACE_RADIUS_KM = 20

/** Default radius with both places: 10% of the axis, at least 5 km. */
export const defaultRadiusKm = (from: Point | undefined, to: Point | undefined): number =>
  from !== undefined && to !== undefined ? Math.max(5, 0.1 * haversineKm(from.lat, from.lon, to.lat, to.lon)) : SINGLE_PLACE_RADIUS_KM
