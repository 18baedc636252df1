import type { FeedTrip } from "../../model/FeedTrip.js"
import { CURRENCIES, MINOR_DIGITS } from "../../model/Locale.js"
import type { ShownStoredTrip } from "../../model/ShownTrip.js"
import { BOOKING_TYPES, type TripColumns } from "./TripColumns.js"

// Core declares no platform: these two exist in Node and in browsers alike.
declare const TextEncoder: { new (): { encode(s: string): Uint8Array } }
declare const TextDecoder: { new (): { decode(b: Uint8Array): string } }
const encoder = new TextEncoder()
const decoder = new TextDecoder()

type Encoded = [
  carId: string,
  make: string,
  model: string,
  comfort: FeedTrip["car"]["comfort"],
  stars: number,
  category: string,
  bookingMode: FeedTrip["booking_mode"],
  viaggioRosa: boolean,
  isComfort: boolean,
  answerDelay: number,
  pictures: ReadonlyArray<string> | null,
  waypoints: ReadonlyArray<readonly [city: string, country: string, address: string | null, meetingPoint: number | null]>,
  durations: ReadonlyArray<number>
]

/**
 * What a search shows of a trip beyond the numbers the index keeps (names, car, booking mode,
 * pictures, leg durations), as UTF-8 bytes of a JSON array: `IndexRecord.shown`, kept beside the
 * index so that a search reads no store (docs/ARCHITECTURE.md).
 */
export const encodeShown = (trip: FeedTrip): Uint8Array => {
  const { car } = trip
  const encoded: Encoded = [
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
 * The shown trip in `slot`, from its `encodeShown` bytes and the index's own numbers (coordinates,
 * times, zones, leg prices and distances, seats, currency, booking type), or undefined when the
 * index holds no shown bytes for it. The numbers give back the feed's exactly: prices in minor
 * units and distances in metres convert back to the same `minorUnits` and `kmToMetres`.
 */
export const shownTrip = (t: TripColumns, slot: number): ShownStoredTrip | undefined => {
  const from = t.shownStart[slot]!
  const to = t.shownStart[slot + 1]!
  if (to <= from) return undefined
  const [carId, make, model, comfort, stars, category, bookingMode, viaggioRosa, isComfort, answerDelay, pictures, waypoints, durations] = JSON.parse(
    decoder.decode(t.shownBytes.slice(from, to))
  ) as Encoded
  const w0 = t.wpStart[slot]!
  const start = t.wUtc[w0]!
  const currency = CURRENCIES[t.currency[slot]!]!
  const unit = 10 ** MINOR_DIGITS[currency]
  return {
    trip: {
      id: t.idOf(slot),
      departure_time: new Date(start).toISOString(),
      waypoints: waypoints.map(([city, country, address, meetingPoint], k) => ({
        city,
        ...(address !== null ? { address } : {}),
        lat: t.wLat[w0 + k]!,
        lon: t.wLon[w0 + k]!,
        country,
        ...(meetingPoint !== null ? { meeting_point_id: meetingPoint } : {}),
        offset_min: (t.wUtc[w0 + k]! - start) / 60_000
      })),
      legs: durations.map((duration_s, k) => ({ price: t.legPrice[w0 + k]! / unit, distance_km: t.legDist[w0 + k]! / 1000, duration_s })),
      currency,
      seats: t.seats[slot]!,
      seats_left: t.seatsLeft[slot]!,
      booking_mode: bookingMode,
      booking_type: BOOKING_TYPES[t.bookingType[slot]!]!,
      viaggio_rosa: viaggioRosa,
      is_comfort: isComfort,
      answer_delay: answerDelay,
      car: { id: carId, make, model, comfort, comfort_nb_star: stars, category },
      ...(pictures !== null ? { vehicle_pictures: pictures } : {})
    },
    zoneOffsets: waypoints.map((_, k) => (t.wLocal[w0 + k]! - t.wUtc[w0 + k]!) / 60_000)
  }
}
