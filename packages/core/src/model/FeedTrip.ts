import { type ParseResult, Schema } from "effect"
import { hasAtMostDecimals, isCountryCode, isHttpUrl, isIsoDateTime, isWaypointTime } from "./feedRules.js"
import { CURRENCIES, MINOR_DIGITS } from "./Locale.js"
import { pathProblem } from "../road/roadPath.js"

/**
 * One line of the trip feed (NDJSON), the import format. Decoding with
 * `onExcessProperty: "error"` (see `decodeFeedTrip`) rejects unknown fields.
 */

/** A value as an import message shows it: short, and never a whole object. */
export const shown = (value: unknown): string => {
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? "" : "s"}`
  if (typeof value === "object" && value !== null) return "an object"
  const text = value === undefined ? "nothing" : typeof value === "string" ? JSON.stringify(value) : String(value)
  if (text.length <= 60) return text
  // Cut between characters: a cut through an emoji's two UTF-16 units would print U+FFFD.
  const unit = text.charCodeAt(56)
  const cut = unit >= 0xd800 && unit <= 0xdbff ? 56 : 57
  return `${text.slice(0, cut)}...`
}

/**
 * A string of `min` to `max` characters as the feed's rules count them: code points, so that an
 * emoji outside the Basic Multilingual Plane (two UTF-16 units) is one, as for the places' `q`.
 */
export const TextOfLength = (min: number, max: number, message: string) =>
  Schema.String.pipe(Schema.filter((s) => {
    const n = [...s].length
    return n >= min && n <= max
  }, { jsonSchema: { minLength: min, maxLength: max } })).annotations(rule(message))

/**
 * The rule of a leaf field, as the one sentence of its import message. `override` replaces every
 * message of Effect's underneath (`Expected string, actual 5`), so that a field says its rule once.
 */
export const rule = (text: string) => ({ message: (issue: ParseResult.ParseIssue) => ({ message: `${text}, got ${shown(issue.actual)}`, override: true }) })
/**
 * The rule of an object or array, used only when the value itself is of the wrong kind: the
 * issues of its members keep their own messages.
 */
const shape = (text: string) => ({ message: (issue: ParseResult.ParseIssue) => `${text}, got ${shown(issue.actual)}` })

const oneOf = <const L extends ReadonlyArray<string>>(values: L) => Schema.Literal(...values).annotations(rule(`must be one of ${values.join(", ")}`))
const Text = Schema.String.annotations(rule("must be a string"))
const NonEmptyText = Schema.String.pipe(Schema.minLength(1)).annotations(rule("must be a non-empty string"))
const Bool = Schema.Boolean.annotations(rule("must be true or false"))
const IntBetween = (min: number, max: number) => Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations(rule(`must be an integer from ${min} to ${max}`))
const NonNegInt = Schema.Number.pipe(Schema.int(), Schema.nonNegative()).annotations(rule("must be an integer, 0 or more"))
const NumberBetween = (min: number, max: number) => Schema.Number.pipe(Schema.between(min, max)).annotations(rule(`must be a number from ${min} to ${max}`))
const Iso8601 = Schema.String.pipe(Schema.filter(isIsoDateTime)).annotations(
  rule("must be an ISO 8601 date-time with offset, on a day of the calendar, like 2026-11-22T08:30:00+01:00")
)
const Url = Schema.String.pipe(Schema.filter(isHttpUrl)).annotations(rule("must be an http(s) URL"))
/** Shared with the meeting point feed. */
export const CountryCode = Schema.String.pipe(Schema.filter(isCountryCode)).annotations(
  rule("must be an ISO 3166-1 alpha-2 country code, in upper case, like FR")
)
const ArrayOf = <S extends Schema.Schema.Any>(item: S, what: string) => Schema.Array(item).annotations(shape(`must be an array of ${what}`))

/** A colour as the API answers it: six upper-case hex digits without `#` (the feed format, `FeedTrip`). */
export const canonicalColorHexa = (hexa: string): string => hexa.replace("#", "").toUpperCase()

/** `RRGGBB` or `#RRGGBB`, either case, kept as six upper-case hex digits without `#`. */
export const ColorHexa = Schema.transform(
  Schema.String.pipe(Schema.pattern(/^#?[0-9A-Fa-f]{6}$/)).annotations(rule("must be 6 hex digits (RRGGBB or #RRGGBB)")),
  Schema.String.pipe(Schema.pattern(/^[0-9A-F]{6}$/)),
  { strict: true, decode: canonicalColorHexa, encode: (s) => s }
)

export const FeedWaypoint = Schema.Struct({
  city: NonEmptyText,
  address: Schema.optional(Text),
  lat: NumberBetween(-90, 90),
  lon: NumberBetween(-180, 180),
  country: CountryCode,
  meeting_point_id: Schema.optional(NonNegInt),
  offset_min: NonNegInt
}).annotations(shape("must be an object"))
export type FeedWaypoint = typeof FeedWaypoint.Type

export const FeedLeg = Schema.Struct({
  price: Schema.Number.pipe(Schema.positive(), Schema.finite()).annotations(rule("must be a number greater than 0")),
  distance_km: Schema.Number.pipe(Schema.nonNegative(), Schema.finite()).annotations(rule("must be a number, 0 or more")),
  duration_s: NonNegInt,
  /** The driver's road from this leg's first waypoint to its second: an encoded polyline (checked in `FeedTrip`). */
  path: Schema.optional(Schema.String.annotations(rule("must be a string (an encoded polyline)")))
}).annotations(shape("must be an object"))
export type FeedLeg = typeof FeedLeg.Type

export const Comfort = oneOf(["Basic", "Normal", "Comfortable", "Luxury"])
export type Comfort = typeof Comfort.Type
export const COMFORT_STARS: Readonly<Record<Comfort, number>> = { Basic: 1, Normal: 2, Comfortable: 3, Luxury: 4 }

export const FeedCar = Schema.Struct({
  id: Text,
  make: Text,
  model: Text,
  color: Schema.optional(Text),
  color_hexa: Schema.optional(ColorHexa),
  comfort: Comfort,
  comfort_nb_star: IntBetween(1, 4),
  number_of_seat: Schema.optional(IntBetween(1, 9)),
  category: NonEmptyText,
  picture: Schema.optional(Url)
}).annotations(shape("must be an object"))
export type FeedCar = typeof FeedCar.Type

export const FeedDriver = Schema.Struct({
  id: Text,
  display_name: Text,
  picture: Schema.NullOr(Url).annotations(rule("must be an http(s) URL or null")),
  experience: IntBetween(0, 4)
}).annotations(shape("must be an object"))
export type FeedDriver = typeof FeedDriver.Type

export const FeedPassenger = Schema.Struct({
  id: Text,
  display_name: Text,
  picture: Schema.optional(Url)
}).annotations(shape("must be an object"))

export const FeedQuestion = Schema.Struct({
  id: Text,
  question: Text,
  answer: Schema.optional(Text),
  asked_at: Iso8601,
  answered_at: Schema.optional(Iso8601)
}).annotations(shape("must be an object"))
export type FeedQuestion = typeof FeedQuestion.Type

export const Luggage = oneOf(["SMALL", "MIDDLE", "BIG"])
export const Detour = oneOf(["ON_TIME", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS"])
export const TripSchedule = oneOf(["NONE", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "WHATEVER_IT_TAKES"])
export const BookingMode = oneOf(["auto", "manual"])
export const BookingType = oneOf(["online", "onboard", "no_booking"])
export type BookingType = typeof BookingType.Type

const withDefault = <S extends Schema.Schema.Any>(schema: S, value: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(schema, { default: value })

const FeedTripFields = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{1,64}$/)).annotations(rule("must be 1 to 64 characters of A-Z, a-z, 0-9 or -")),
  status: withDefault(oneOf(["active", "cancelled"]), () => "active" as const),
  departure_time: Iso8601,
  waypoints: ArrayOf(FeedWaypoint, "2 to 10 waypoints").pipe(
    Schema.minItems(2, shape("must be an array of 2 to 10 waypoints")),
    Schema.maxItems(10, shape("must be an array of 2 to 10 waypoints"))
  ),
  legs: ArrayOf(FeedLeg, "legs"),
  currency: oneOf(CURRENCIES),
  seats: IntBetween(1, 8),
  seats_left: NonNegInt,
  seats_count_origin: Schema.optional(IntBetween(1, 8)),
  booking_mode: BookingMode,
  booking_type: BookingType,
  service: withDefault(oneOf(["standard", "short"]), () => "standard" as const),
  viaggio_rosa: withDefault(Bool, () => false),
  is_comfort: withDefault(Bool, () => false),
  luggage: withDefault(Luggage, () => "MIDDLE" as const),
  detour: withDefault(Detour, () => "FIFTEEN_MINUTES" as const),
  schedule: withDefault(TripSchedule, () => "FIFTEEN_MINUTES" as const),
  comment: Schema.optional(TextOfLength(0, 2000, "must be a string of at most 2,000 characters")),
  messaging_status: withDefault(oneOf(["public", "private"]), () => "public" as const),
  answer_delay: withDefault(NonNegInt, () => 0),
  view_count: withDefault(NonNegInt, () => 0),
  car: FeedCar,
  driver: FeedDriver,
  passengers: Schema.optional(ArrayOf(FeedPassenger, "passengers")),
  vehicle_pictures: Schema.optional(ArrayOf(Url, "URLs")),
  questions: Schema.optional(ArrayOf(FeedQuestion, "questions"))
})

/** The rules that tie fields together, each reported on the field it concerns. */
export const FeedTrip = FeedTripFields.pipe(
  Schema.filter((t) => {
    const issues: Array<{ path: ReadonlyArray<PropertyKey>; message: string }> = []
    if (t.legs.length !== t.waypoints.length - 1) {
      issues.push({ path: ["legs"], message: `must have ${t.waypoints.length - 1} legs (one fewer than waypoints), got ${t.legs.length}` })
    }
    const departureMs = Date.parse(t.departure_time)
    t.waypoints.forEach((w, k) => {
      if (!isWaypointTime(departureMs, w.offset_min)) {
        issues.push({ path: ["waypoints", k, "offset_min"], message: `must put the waypoint at a time a date can hold (before the year 275760), got ${w.offset_min}` })
      }
      if (k === 0 && w.offset_min !== 0) issues.push({ path: ["waypoints", 0, "offset_min"], message: `must be 0 on the first waypoint, got ${w.offset_min}` })
      const previous = k > 0 ? t.waypoints[k - 1]!.offset_min : undefined
      if (previous !== undefined && w.offset_min <= previous) {
        issues.push({ path: ["waypoints", k, "offset_min"], message: `must be greater than the previous waypoint's (${previous}), got ${w.offset_min}` })
      }
    })
    const digits = MINOR_DIGITS[t.currency]
    t.legs.forEach((l, k) => {
      if (!hasAtMostDecimals(l.price, digits)) {
        issues.push({ path: ["legs", k, "price"], message: `must have at most ${digits} decimal digits in ${t.currency}, got ${l.price}` })
      }
      const from = t.waypoints[k]
      const to = t.waypoints[k + 1]
      if (l.path !== undefined && from !== undefined && to !== undefined) {
        const problem = pathProblem(l.path, from.lat, from.lon, to.lat, to.lon)
        if (problem !== undefined) issues.push({ path: ["legs", k, "path"], message: problem })
      }
    })
    if (t.seats_left > t.seats) issues.push({ path: ["seats_left"], message: `must be at most seats (${t.seats}), got ${t.seats_left}` })
    if (COMFORT_STARS[t.car.comfort] !== t.car.comfort_nb_star) {
      issues.push({ path: ["car", "comfort_nb_star"], message: `must be ${COMFORT_STARS[t.car.comfort]} for comfort ${t.car.comfort}, got ${t.car.comfort_nb_star}` })
    }
    return issues.length === 0 ? true : issues
  })
)
export type FeedTrip = typeof FeedTrip.Type
/** What a feed line may look like before defaults are applied. */
export type FeedTripInput = typeof FeedTrip.Encoded
