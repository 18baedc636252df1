import type { FeedTrip } from "@tripsearch/core"
import { zoneOf, zoneOffsetMinutes } from "@tripsearch/gazetteer"

const HOUR = 3_600_000

/** A zone's offsets by UTC hour index, for hours with no transition inside. */
interface ZoneHours {
  readonly zone: string
  readonly hours: Map<number, number>
}
const byZone = new Map<string, ZoneHours>()

/**
 * (lat, lon) -> zone, for the places a feed names over and over (its towns, the meeting points of
 * the stops along the road): an open-addressing table keyed by the two doubles' bits. A Map of
 * Maps keyed by the doubles cost about a microsecond a lookup, a tenth of a decode thread's work
 * on a feed with roads (a lookup for each waypoint and each stop); this allocates nothing. It is
 * emptied when half full, so that a feed of scattered points does not grow it.
 */
const SLOTS = 1 << 17
const slotLat = new Float64Array(SLOTS)
const slotLon = new Float64Array(SLOTS)
const slotZone: Array<ZoneHours | undefined> = new Array<ZoneHours | undefined>(SLOTS).fill(undefined)
let used = 0
const bits = new Float64Array(2)
const words = new Int32Array(bits.buffer)

const zoneHoursOf = (lat: number, lon: number): ZoneHours => {
  bits[0] = lat
  bits[1] = lon
  let h = (Math.imul(words[0]! ^ Math.imul(words[1]!, 0x85ebca6b), 0x9e3779b1) ^ Math.imul(words[2]! ^ Math.imul(words[3]!, 0xc2b2ae35), 0x27d4eb2f)) >>> 15
  for (;;) {
    const known = slotZone[h]
    if (known === undefined) break
    if (slotLat[h] === lat && slotLon[h] === lon) return known
    h = (h + 1) & (SLOTS - 1)
  }
  const zone = zoneOf(lat, lon)
  let hours = byZone.get(zone)
  if (hours === undefined) byZone.set(zone, (hours = { zone, hours: new Map() }))
  if (used >= SLOTS / 2) {
    slotZone.fill(undefined)
    used = 0
  }
  slotLat[h] = lat
  slotLon[h] = lon
  slotZone[h] = hours
  used++
  return hours
}

/**
 * The gazetteer's `offsetAt`, memoised per zone and UTC hour: an hour whose first and last
 * millisecond have the same offset has it throughout (zones change offset at most once an hour);
 * an hour holding a transition is computed exactly for each instant.
 */
export const cachedOffsetAt = (lat: number, lon: number, utcMs: number): number => {
  const { zone, hours } = zoneHoursOf(lat, lon)
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
