import type { FeedTrip } from "@tripsearch/core"
import { offsetAt } from "@tripsearch/gazetteer"

/**
 * UTC offset (minutes) of each waypoint's own zone at the instant the trip passes there:
 * waypoint k is at `departure_time + offset_min[k]` minutes (SEMANTICS §1).
 */
export const zoneOffsetsOf = (trip: FeedTrip): ReadonlyArray<number> => {
  const departureMs = Date.parse(trip.departure_time)
  return trip.waypoints.map((w) => offsetAt(w.lat, w.lon, departureMs + w.offset_min * 60_000))
}
