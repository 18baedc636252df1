import type { CurrencyCode } from "../model/Locale.js"
import type { BookingType } from "../model/FeedTrip.js"
import { COMFORT_STARS } from "../model/FeedTrip.js"
import type { StoredTrip } from "../model/StoredTrip.js"
import { minorUnits } from "../pricing/money.js"
import type { RoadStop } from "../road/roadStops.js"

/**
 * What the matcher needs of one active trip: numbers only, so it packs into typed arrays and
 * crosses thread boundaries cheaply. Everything else is read from the store for the trips shown.
 */
export interface IndexRecord {
  readonly id: string
  /** Departure instant at waypoint 0, epoch ms. */
  readonly departureMs: number
  readonly lat: ReadonlyArray<number>
  readonly lon: ReadonlyArray<number>
  /** Minutes after departure, per waypoint. */
  readonly offsetMin: ReadonlyArray<number>
  /** UTC offset (minutes) of the waypoint's zone at its instant. */
  readonly zoneOffsetMin: ReadonlyArray<number>
  /** Per leg k (waypoint k -> k+1): net price in minor units of `currency`, metres, seconds. */
  readonly legPriceMinor: ReadonlyArray<number>
  readonly legDistanceM: ReadonlyArray<number>
  readonly legDurationS: ReadonlyArray<number>
  readonly currency: CurrencyCode
  readonly seats: number
  readonly seatsLeft: number
  readonly autoBooking: boolean
  readonly bookingType: BookingType
  readonly short: boolean
  readonly hasPhoto: boolean
  readonly experience: number
  readonly comfortStars: number
  /** The stops along the road, in road order (`StoredTrip.roadStops`); none when absent. */
  readonly road?: ReadonlyArray<RoadStop>
  /** What a search shows beyond these numbers (`encodeShown`); without it, the shown trips are read from the store. */
  readonly shown?: Uint8Array
}

/** Distances are kept in whole metres so that segment sums are exact integers. */
export const kmToMetres = (km: number): number => Math.round(km * 1000)

export const toIndexRecord = ({ trip, zoneOffsets, roadStops }: StoredTrip): IndexRecord => ({
  id: trip.id,
  departureMs: Date.parse(trip.departure_time),
  lat: trip.waypoints.map((w) => w.lat),
  lon: trip.waypoints.map((w) => w.lon),
  offsetMin: trip.waypoints.map((w) => w.offset_min),
  zoneOffsetMin: zoneOffsets,
  legPriceMinor: trip.legs.map((l) => minorUnits(l.price, trip.currency)),
  legDistanceM: trip.legs.map((l) => kmToMetres(l.distance_km)),
  legDurationS: trip.legs.map((l) => l.duration_s),
  currency: trip.currency,
  seats: trip.seats,
  seatsLeft: trip.seats_left,
  autoBooking: trip.booking_mode === "auto",
  bookingType: trip.booking_type,
  short: trip.service === "short",
  hasPhoto: trip.driver.picture !== null,
  experience: trip.driver.experience,
  comfortStars: COMFORT_STARS[trip.car.comfort],
  ...(roadStops !== undefined && roadStops.length > 0 ? { road: roadStops } : {})
})
