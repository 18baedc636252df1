import type { FeedTrip } from "@tripsearch/core"
import { zoneOf, zoneOffsetMinutes } from "@tripsearch/gazetteer"

const HOUR = 3_600_000
/** zone -> UTC hour index -> offset, for hours with no transition inside. */
const cache = new Map<string, Map<number, number>>()
/**
 * lat -> lon -> zone. A feed names the same towns over and over, and the zone lookup of a point
 * costs more than two number-keyed maps (a string key would cost more than the lookup: numbers
 * are slow to print); the size bound keeps a feed of scattered points from growing it.
 */
const zones = new Map<number, Map<number, string>>()
let zonesSize = 0

const cachedZoneOf = (lat: number, lon: number): string => {
  const known = zones.get(lat)?.get(lon)
  if (known !== undefined) return known
  const zone = zoneOf(lat, lon)
  if (zonesSize >= 100_000) {
    zones.clear()
    zonesSize = 0
  }
  let byLon = zones.get(lat)
  if (byLon === undefined) zones.set(lat, (byLon = new Map()))
  byLon.set(lon, zone)
  zonesSize++
  return zone
}

/**
 * The gazetteer's `offsetAt`, memoised per zone and UTC hour: an hour whose first and last
 * millisecond have the same offset has it throughout (zones change offset at most once an hour);
 * an hour holding a transition is computed exactly for each instant.
 */
export const cachedOffsetAt = (lat: number, lon: number, utcMs: number): number => {
  const zone = cachedZoneOf(lat, lon)
  let hours = cache.get(zone)
  if (hours === undefined) cache.set(zone, (hours = new Map()))
  const hour = Math.floor(utcMs / HOUR)
  const known = hours.get(hour)
  if (known !== undefined) return known
  const start = zoneOffsetMinutes(zone, hour * HOUR)
  if (start === zoneOffsetMinutes(zone, hour * HOUR + HOUR - 1)) {
    if (hours.size > 200_000) hours.clear()
    hours.set(hour, start)
    return start
  }
  return zoneOffsetMinutes(zone, utcMs)
}

/**
 * UTC offset (minutes) of each waypoint's own zone at the instant the trip passes there:
 * waypoint k is at `departure_time + offset_min[k]` minutes (the feed format, `FeedTrip`).
 */
export const zoneOffsetsOf = (trip: FeedTrip): ReadonlyArray<number> => {
  const departureMs = Date.parse(trip.departure_time)
  return trip.waypoints.map((w) => cachedOffsetAt(w.lat, w.lon, departureMs + w.offset_min * 60_000))
}
