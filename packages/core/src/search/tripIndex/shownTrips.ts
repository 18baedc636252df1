import type { FeedTrip } from "../../model/FeedTrip.js"
import { CURRENCIES, MINOR_DIGITS } from "../../model/Locale.js"
import type { ShownStoredTrip } from "../../model/ShownTrip.js"
import type { ShownTuple } from "./shownCodec.js"
import { BOOKING_TYPES, bookingTypeOf, currencyOf, seatsLeftOf, type TripColumns } from "./TripColumns.js"

// Core declares no platform: this exists in Node and in browsers alike.
declare const TextEncoder: { new (): { encode(s: string): Uint8Array } }
const encoder = new TextEncoder()

/**
 * What a search shows of a trip beyond the numbers the index keeps (names, car, booking mode,
 * pictures, leg durations), as UTF-8 bytes of a JSON array: `IndexRecord.shown`, as the stores keep
 * it; the index keeps it beside its numbers, in a compact form of its own (`shownCodec`), so that a
 * search reads no store (docs/ARCHITECTURE.md).
 */
export const encodeShown = (trip: FeedTrip): Uint8Array => {
  const { car } = trip
  const encoded: ShownTuple = [
    car.id,
    car.make,
    car.model,
    car.comfort,
    car.comfort_nb_star,
    car.category,
    trip.booking_mode,
    trip.viaggio_rosa,
    trip.is_comfort,
    trip.answer_delay,
    trip.vehicle_pictures ?? null,
    trip.waypoints.map((w) => [w.city, w.country, w.address ?? null, w.meeting_point_id ?? null] as const),
    trip.legs.map((l) => l.duration_s)
  ]
  return encoder.encode(JSON.stringify(encoded))
}

/**
 * The shown trip in `slot`, from what the index keeps of its `encodeShown` bytes and its own numbers (coordinates,
 * times, zones, leg prices and distances, seats, currency, booking type), or undefined when the
 * index holds no shown bytes for it. The numbers give back the feed's exactly: prices in minor
 * units and distances in metres convert back to the same `minorUnits` and `kmToMetres`.
 */
export const shownTrip = (t: TripColumns, slot: number): ShownStoredTrip | undefined => {
  const tuple = t.shownTuple(slot)
  if (tuple === undefined) return undefined
  const [carId, make, model, comfort, stars, category, bookingMode, viaggioRosa, isComfort, answerDelay, pictures, waypoints, durations] = tuple
  const w0 = t.wpStart[slot]!
  const start = t.wTime[2 * w0]!
  const traits = t.traits[slot]!
  const currency = CURRENCIES[currencyOf(traits)]!
  const unit = 10 ** MINOR_DIGITS[currency]
  // Loops and properties added in order rather than `map` and conditional spreads: this runs for
  // every trip a search shows, and a spread of a small object costs a runtime call in V8. The key
  // order is the one the renderers and a structured clone see either way.
  const n = waypoints.length
  const shownWaypoints = new Array<FeedTrip["waypoints"][number]>(n)
  const zoneOffsets = new Array<number>(n)
  for (let k = 0; k < n; k++) {
    const [city, country, address, meetingPoint] = waypoints[k]!
    const w = w0 + k
    const waypoint: { -readonly [K in keyof FeedTrip["waypoints"][number]]: FeedTrip["waypoints"][number][K] } = { city } as never
    if (address !== null) waypoint.address = address
    waypoint.lat = t.wPlace[2 * w]!
    waypoint.lon = t.wPlace[2 * w + 1]!
    waypoint.country = country
    if (meetingPoint !== null) waypoint.meeting_point_id = meetingPoint
    waypoint.offset_min = (t.wTime[2 * w]! - start) / 60_000
    shownWaypoints[k] = waypoint
    zoneOffsets[k] = (t.wTime[2 * w + 1]! - t.wTime[2 * w]!) / 60_000
  }
  const legs = new Array<FeedTrip["legs"][number]>(durations.length)
  for (let k = 0; k < durations.length; k++) legs[k] = { price: t.legPrice[w0 + k]! / unit, distance_km: t.legDist[w0 + k]! / 1000, duration_s: durations[k]! }
  const trip: { -readonly [K in keyof ShownStoredTrip["trip"]]: ShownStoredTrip["trip"][K] } = {
    id: t.idOf(slot),
    departure_time: new Date(start).toISOString(),
    waypoints: shownWaypoints,
    legs,
    currency,
    seats: t.seats[slot]!,
    seats_left: seatsLeftOf(traits),
    booking_mode: bookingMode,
    booking_type: BOOKING_TYPES[bookingTypeOf(traits)]!,
    viaggio_rosa: viaggioRosa,
    is_comfort: isComfort,
    answer_delay: answerDelay,
    car: { id: carId, make, model, comfort, comfort_nb_star: stars, category }
  }
  if (pictures !== null) trip.vehicle_pictures = pictures
  return { trip, zoneOffsets }
}
