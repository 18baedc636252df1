import { COMFORT_STARS, type BookingType, type CurrencyCode, type IndexRecord, type StoredTrip, toIndexRecord } from "@tripsearch/core"

/**
 * The `trips` row columns derived from a stored trip. `packed` holds every per-waypoint and
 * per-leg number of the IndexRecord as float64 little-endian, in this order (n waypoints):
 * lat[n], lon[n], offsetMin[n], zoneOffsetMin[n], legPriceMinor[n-1], legDistanceM[n-1],
 * legDurationS[n-1]; so its length is 8 * (7n - 3) bytes and n is derived from it.
 */
export interface TripRow {
  readonly id: string
  readonly status: "active" | "cancelled"
  readonly departure_ms: number
  readonly currency: string
  readonly seats: number
  readonly seats_left: number
  readonly booking_type: string
  readonly flags: number
  readonly experience: number
  readonly comfort_stars: number
  readonly packed: Buffer
  readonly zone_offsets: string
  readonly trip_json: string
}

export const FLAG_AUTO = 1
export const FLAG_SHORT = 2
export const FLAG_PHOTO = 4

export const packedLength = (waypoints: number): number => 8 * (7 * waypoints - 3)
export const waypointsOfPacked = (bytes: number): number => (bytes / 8 + 3) / 7

/** Derives the row to store from a trip. The numbers are those of core's `toIndexRecord`. */
export const toTripRow = (stored: StoredTrip): TripRow => {
  const { trip } = stored
  const r = toIndexRecord(stored)
  const n = r.lat.length
  const buf = Buffer.allocUnsafe(packedLength(n))
  let o = 0
  const put = (values: ReadonlyArray<number>) => {
    for (const v of values) {
      buf.writeDoubleLE(v, o)
      o += 8
    }
  }
  put(r.lat)
  put(r.lon)
  put(r.offsetMin)
  put(r.zoneOffsetMin)
  put(r.legPriceMinor)
  put(r.legDistanceM)
  put(r.legDurationS)
  return {
    id: trip.id,
    status: trip.status,
    departure_ms: r.departureMs,
    currency: r.currency,
    seats: r.seats,
    seats_left: r.seatsLeft,
    booking_type: r.bookingType,
    flags: (r.autoBooking ? FLAG_AUTO : 0) | (r.short ? FLAG_SHORT : 0) | (r.hasPhoto ? FLAG_PHOTO : 0),
    experience: r.experience,
    comfort_stars: COMFORT_STARS[trip.car.comfort],
    packed: buf,
    zone_offsets: JSON.stringify(stored.zoneOffsets),
    trip_json: JSON.stringify(trip)
  }
}

/** The columns `recordFromRaw` reads, in order (for `.raw()` statements). */
export const INDEX_COLUMNS = "id, departure_ms, currency, seats, seats_left, booking_type, flags, experience, comfort_stars, packed"

const slice = (f: Float64Array, from: number, count: number): Array<number> => {
  const out = new Array<number>(count)
  for (let i = 0; i < count; i++) out[i] = f[from + i]!
  return out
}

/** An IndexRecord from a raw row of INDEX_COLUMNS: no JSON parsing. */
export const recordFromRaw = (row: ReadonlyArray<unknown>): IndexRecord => {
  const blob = row[9] as Buffer
  const f =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8)
      : new Float64Array(new Uint8Array(blob).buffer)
  const n = waypointsOfPacked(blob.byteLength)
  const legs = n - 1
  const flags = row[6] as number
  return {
    id: row[0] as string,
    departureMs: row[1] as number,
    lat: slice(f, 0, n),
    lon: slice(f, n, n),
    offsetMin: slice(f, 2 * n, n),
    zoneOffsetMin: slice(f, 3 * n, n),
    legPriceMinor: slice(f, 4 * n, legs),
    legDistanceM: slice(f, 4 * n + legs, legs),
    legDurationS: slice(f, 4 * n + 2 * legs, legs),
    currency: row[2] as CurrencyCode,
    seats: row[3] as number,
    seatsLeft: row[4] as number,
    autoBooking: (flags & FLAG_AUTO) !== 0,
    bookingType: row[5] as BookingType,
    short: (flags & FLAG_SHORT) !== 0,
    hasPhoto: (flags & FLAG_PHOTO) !== 0,
    experience: row[7] as number,
    comfortStars: row[8] as number
  }
}
