import type { BookingType, CurrencyCode, IndexRecord, StoredTrip } from "@tripsearch/core"
import { encodeShown, toIndexRecord } from "@tripsearch/core"

/**
 * The `trips` row columns derived from a stored trip. `packed` holds the whole IndexRecord but its
 * id, as float64 little-endian, so that a scan reads two columns per row and parses no JSON:
 *
 *   [0] n (waypoints)  [1] departureMs  [2] currency (index in PACKED_CURRENCIES)  [3] seats
 *   [4] seatsLeft  [5] flags (FLAG_*)  [6] bookingType (index in PACKED_BOOKING_TYPES)
 *   [7] experience  [8] comfortStars
 *   then lat[n], lon[n], offsetMin[n], zoneOffsetMin[n], legPriceMinor[n-1], legDistanceM[n-1],
 *   legDurationS[n-1].
 *
 * The scalar columns repeat the header for SQL queries and inspection.
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
  /** What a search shows beyond `packed` (core's `encodeShown`). */
  readonly shown: Buffer
  readonly zone_offsets: string
  readonly trip_json: string
}

export const FLAG_AUTO = 1
export const FLAG_SHORT = 2
export const FLAG_PHOTO = 4

/** Codes stored in `packed`: append only (existing databases hold these indexes). */
export const PACKED_CURRENCIES: ReadonlyArray<CurrencyCode> = ["EUR", "GBP", "CZK", "HRK", "HUF", "INR", "MXN", "PLN", "RON", "RSD", "RUB", "TRY", "UAH"]
export const PACKED_BOOKING_TYPES: ReadonlyArray<BookingType> = ["online", "onboard", "no_booking"]

// The BLOB is the platform's Float64Array bytes; refuse to run where that is not little-endian.
if (new Uint8Array(new Float64Array([1]).buffer)[7] !== 0x3f) throw new Error("store-common: packed trips need a little-endian platform")

const HEADER = 9
export const packedLength = (waypoints: number): number => 8 * (HEADER + 7 * waypoints - 3)

const codeOf = <A>(list: ReadonlyArray<A>, value: A, what: string): number => {
  const i = list.indexOf(value)
  if (i < 0) throw new Error(`cannot pack ${what} ${String(value)}`)
  return i
}

/** Packs an IndexRecord (but its id). */
export const packRecord = (r: IndexRecord): Buffer => {
  const n = r.lat.length
  const f = new Float64Array(packedLength(n) / 8)
  const flags = (r.autoBooking ? FLAG_AUTO : 0) | (r.short ? FLAG_SHORT : 0) | (r.hasPhoto ? FLAG_PHOTO : 0)
  f[0] = n
  f[1] = r.departureMs
  f[2] = codeOf(PACKED_CURRENCIES, r.currency, "currency")
  f[3] = r.seats
  f[4] = r.seatsLeft
  f[5] = flags
  f[6] = codeOf(PACKED_BOOKING_TYPES, r.bookingType, "booking type")
  f[7] = r.experience
  f[8] = r.comfortStars
  let o = HEADER
  for (const values of [r.lat, r.lon, r.offsetMin, r.zoneOffsetMin, r.legPriceMinor, r.legDistanceM, r.legDurationS]) {
    for (const v of values) f[o++] = v
  }
  return Buffer.from(f.buffer)
}

/** Derives the row to store from a trip. The numbers are those of core's `toIndexRecord`. */
export const toTripRow = (stored: StoredTrip): TripRow => {
  const { trip } = stored
  const r = toIndexRecord(stored)
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
    comfort_stars: r.comfortStars,
    packed: packRecord(r),
    shown: Buffer.from(encodeShown(trip)),
    zone_offsets: JSON.stringify(stored.zoneOffsets),
    // `seats_count_origin` is `seats` when absent (docs/FEED.md): written out, it is stored as absent, so
    // that a trip imported again with that default spelled out is no change (details show it either way).
    trip_json: JSON.stringify(trip.seats_count_origin === trip.seats ? { ...trip, seats_count_origin: undefined } : trip)
  }
}

/** The columns an index record is unpacked from, in order (for `.raw()` statements). */
export const INDEX_COLUMNS = "id, packed"

const slice = (f: Float64Array, from: number, count: number): Array<number> => {
  const out = new Array<number>(count)
  for (let i = 0; i < count; i++) out[i] = f[from + i]!
  return out
}

/** Unpacks an IndexRecord (with `shown` when given): no JSON parsing. */
export const unpackRecord = (id: string, blob: Uint8Array, shown?: Uint8Array): IndexRecord => {
  const f =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8)
      : new Float64Array(blob.slice().buffer)
  const n = f[0]!
  const legs = n - 1
  const flags = f[5]!
  const w = HEADER
  return {
    id,
    departureMs: f[1]!,
    lat: slice(f, w, n),
    lon: slice(f, w + n, n),
    offsetMin: slice(f, w + 2 * n, n),
    zoneOffsetMin: slice(f, w + 3 * n, n),
    legPriceMinor: slice(f, w + 4 * n, legs),
    legDistanceM: slice(f, w + 4 * n + legs, legs),
    legDurationS: slice(f, w + 4 * n + 2 * legs, legs),
    currency: PACKED_CURRENCIES[f[2]!]!,
    seats: f[3]!,
    seatsLeft: f[4]!,
    autoBooking: (flags & FLAG_AUTO) !== 0,
    bookingType: PACKED_BOOKING_TYPES[f[6]!]!,
    short: (flags & FLAG_SHORT) !== 0,
    hasPhoto: (flags & FLAG_PHOTO) !== 0,
    experience: f[7]!,
    comfortStars: f[8]!,
    ...(shown !== undefined ? { shown } : {})
  }
}

