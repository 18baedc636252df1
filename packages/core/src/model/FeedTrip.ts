import { Schema } from "effect"
import { CurrencyCode, MINOR_DIGITS } from "./Locale.js"

/**
 * One line of the trip feed (NDJSON), the import format. Decoding with
 * `onExcessProperty: "error"` (see `decodeFeedTrip`) rejects unknown fields.
 */

const Int = Schema.Number.pipe(Schema.int())
const NonNegInt = Int.pipe(Schema.nonNegative())
const Iso8601 = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: () => "expected ISO 8601 date-time with offset, like 2026-11-22T08:30:00+01:00"
  }),
  Schema.filter((s) => !Number.isNaN(Date.parse(s)) || "not a valid date-time")
)
const Url = Schema.String.pipe(Schema.pattern(/^https?:\/\/\S+$/, { message: () => "expected an http(s) URL" }))
const CountryCode = Schema.String.pipe(Schema.pattern(/^[A-Z]{2}$/, { message: () => "expected ISO 3166-1 alpha-2 code" }))

export const FeedWaypoint = Schema.Struct({
  city: Schema.String.pipe(Schema.minLength(1)),
  address: Schema.optional(Schema.String),
  lat: Schema.Number.pipe(Schema.between(-90, 90)),
  lon: Schema.Number.pipe(Schema.between(-180, 180)),
  country: CountryCode,
  meeting_point_id: Schema.optional(NonNegInt),
  offset_min: NonNegInt
})
export type FeedWaypoint = typeof FeedWaypoint.Type

export const FeedLeg = Schema.Struct({
  price: Schema.Number.pipe(Schema.positive(), Schema.finite()),
  distance_km: Schema.Number.pipe(Schema.nonNegative(), Schema.finite()),
  duration_s: NonNegInt
})
export type FeedLeg = typeof FeedLeg.Type

export const Comfort = Schema.Literal("Basic", "Normal", "Comfortable", "Luxury")
export type Comfort = typeof Comfort.Type
export const COMFORT_STARS: Readonly<Record<Comfort, number>> = { Basic: 1, Normal: 2, Comfortable: 3, Luxury: 4 }

export const FeedCar = Schema.Struct({
  id: Schema.String,
  make: Schema.String,
  model: Schema.String,
  color: Schema.optional(Schema.String),
  color_hexa: Schema.optional(Schema.String.pipe(Schema.pattern(/^[0-9A-Fa-f]{6}$/, { message: () => "expected 6 hex digits" }))),
  comfort: Comfort,
  comfort_nb_star: Int.pipe(Schema.between(1, 4)),
  number_of_seat: Schema.optional(Int.pipe(Schema.between(1, 9))),
  category: Schema.String.pipe(Schema.minLength(1)),
  picture: Schema.optional(Url)
})
export type FeedCar = typeof FeedCar.Type

export const FeedDriver = Schema.Struct({
  id: Schema.String,
  display_name: Schema.String,
  picture: Schema.NullOr(Url),
  experience: Int.pipe(Schema.between(0, 4))
})
export type FeedDriver = typeof FeedDriver.Type

export const FeedPassenger = Schema.Struct({
  id: Schema.String,
  display_name: Schema.String,
  picture: Schema.optional(Url)
})

export const FeedQuestion = Schema.Struct({
  id: Schema.String,
  question: Schema.String,
  answer: Schema.optional(Schema.String),
  asked_at: Iso8601,
  answered_at: Schema.optional(Iso8601)
})
export type FeedQuestion = typeof FeedQuestion.Type

export const Luggage = Schema.Literal("SMALL", "MIDDLE", "BIG")
export const Detour = Schema.Literal("ON_TIME", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS")
export const TripSchedule = Schema.Literal("NONE", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "WHATEVER_IT_TAKES")
export const BookingMode = Schema.Literal("auto", "manual")
export const BookingType = Schema.Literal("online", "onboard", "no_booking")
export type BookingType = typeof BookingType.Type

const withDefault = <S extends Schema.Schema.Any>(schema: S, value: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { default: value })

const minorDigitsOk = (value: number, digits: number): boolean => {
  const scaled = value * 10 ** digits
  return Math.abs(scaled - Math.round(scaled)) < 1e-6
}

const FeedTripFields = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{1,64}$/, { message: () => "expected 1 to 64 characters of A-Z, a-z, 0-9 or -" })),
  status: withDefault(Schema.Literal("active", "cancelled"), () => "active" as const),
  departure_time: Iso8601,
  waypoints: Schema.Array(FeedWaypoint).pipe(Schema.minItems(2), Schema.maxItems(10)),
  legs: Schema.Array(FeedLeg),
  currency: CurrencyCode,
  seats: Int.pipe(Schema.between(1, 8)),
  seats_left: NonNegInt,
  seats_count_origin: Schema.optional(Int.pipe(Schema.between(1, 8))),
  booking_mode: BookingMode,
  booking_type: BookingType,
  service: withDefault(Schema.Literal("standard", "short"), () => "standard" as const),
  viaggio_rosa: withDefault(Schema.Boolean, () => false),
  is_comfort: withDefault(Schema.Boolean, () => false),
  luggage: withDefault(Luggage, () => "MIDDLE" as const),
  detour: withDefault(Detour, () => "FIFTEEN_MINUTES" as const),
  schedule: withDefault(TripSchedule, () => "FIFTEEN_MINUTES" as const),
  comment: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  messaging_status: withDefault(Schema.Literal("public", "private"), () => "public" as const),
  answer_delay: withDefault(NonNegInt, () => 0),
  view_count: withDefault(NonNegInt, () => 0),
  car: FeedCar,
  driver: FeedDriver,
  passengers: Schema.optional(Schema.Array(FeedPassenger)),
  vehicle_pictures: Schema.optional(Schema.Array(Url)),
  questions: Schema.optional(Schema.Array(FeedQuestion))
})

/** The rules that tie fields together, each reported on the field it concerns. */
export const FeedTrip = FeedTripFields.pipe(
  Schema.filter((t) => {
    const issues: Array<{ path: ReadonlyArray<PropertyKey>; message: string }> = []
    if (t.legs.length !== t.waypoints.length - 1) {
      issues.push({ path: ["legs"], message: `expected ${t.waypoints.length - 1} legs (waypoints - 1), got ${t.legs.length}` })
    }
    t.waypoints.forEach((w, k) => {
      if (k === 0 && w.offset_min !== 0) issues.push({ path: ["waypoints", 0, "offset_min"], message: "must be 0 on the first waypoint" })
      if (k > 0 && w.offset_min <= t.waypoints[k - 1]!.offset_min) {
        issues.push({ path: ["waypoints", k, "offset_min"], message: "must be strictly greater than the previous waypoint's" })
      }
    })
    const digits = MINOR_DIGITS[t.currency]
    t.legs.forEach((l, k) => {
      if (!minorDigitsOk(l.price, digits)) {
        issues.push({ path: ["legs", k, "price"], message: `has more than ${digits} minor digits for ${t.currency}` })
      }
    })
    if (t.seats_left > t.seats) issues.push({ path: ["seats_left"], message: `must be at most seats (${t.seats})` })
    if (COMFORT_STARS[t.car.comfort] !== t.car.comfort_nb_star) {
      issues.push({ path: ["car", "comfort_nb_star"], message: `must be ${COMFORT_STARS[t.car.comfort]} for comfort ${t.car.comfort}` })
    }
    return issues.length === 0 ? true : issues
  })
)
export type FeedTrip = typeof FeedTrip.Type
/** What a feed line may look like before defaults are applied. */
export type FeedTripInput = typeof FeedTrip.Encoded
