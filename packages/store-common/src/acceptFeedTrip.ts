import { canonicalColorHexa, checkedPath, COMFORT_STARS, CURRENCIES, type FeedTrip, hasAtMostDecimals, isCountryCode, isHttpUrl, isIsoDateTime, isWaypointTime, MINOR_DIGITS } from "@tripsearch/core"

/*
 * Core's `FeedTrip` Schema decodes a line in ~70 µs (strict, every issue collected: ~180 µs), most
 * of the import's time. This checks the same rules by hand, in a few µs, and builds the same value
 * (keys in the Schema's order, defaults applied, colours canonical), so that `trip_json` is the
 * same bytes. It only ever says yes for certain: `undefined` means "not sure", and the caller then
 * asks the Schema, which gives the verdict and the messages. A rule added to the Schema and not
 * here can make this accept a line the Schema refuses; the tests compare the two on every broken
 * field of the feed and on random mutations of valid trips, so they fail when that happens.
 */

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v)
const UNKNOWN_KEY = 0
const IN_ORDER = 1
const OTHER_ORDER = 2
/**
 * Whether every key of `o` is known (`rank` gives each its place in the Schema's order), and if so
 * whether they come in that order: then the parsed object is already the decoded one, and is kept.
 */
const keysOf = (o: Obj, rank: ReadonlyMap<string, number>): number => {
  let last = -1
  let result = IN_ORDER
  for (const k in o) {
    const r = rank.get(k)
    if (r === undefined) return UNKNOWN_KEY
    if (r < last) result = OTHER_ORDER
    last = r
  }
  return result
}
const onlyKeys = (o: Obj, known: ReadonlyMap<string, number>): boolean => keysOf(o, known) !== UNKNOWN_KEY
const isText = (v: unknown): v is string => typeof v === "string"
const isNonEmptyText = (v: unknown): v is string => typeof v === "string" && v.length >= 1
const isNum = (v: unknown): v is number => typeof v === "number"
const isIntBetween = (v: unknown, min: number, max: number): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= min && v <= max
const isNonNegInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0
const isBetween = (v: unknown, min: number, max: number): v is number => typeof v === "number" && v >= min && v <= max

const HEXA = /^#?[0-9A-Fa-f]{6}$/
const ID = /^[A-Za-z0-9-]{1,64}$/
const isIso = (v: unknown): v is string => typeof v === "string" && isIsoDateTime(v)
const isUrl = (v: unknown): v is string => typeof v === "string" && isHttpUrl(v)
const oneOf = <const L extends ReadonlyArray<string>>(values: L) => {
  const set = new Set<unknown>(values)
  return (v: unknown): v is L[number] => set.has(v)
}
const isStatus = oneOf(["active", "cancelled"])
const isCurrency = oneOf(CURRENCIES)
const isBookingMode = oneOf(["auto", "manual"])
const isBookingType = oneOf(["online", "onboard", "no_booking"])
const isService = oneOf(["standard", "short"])
const isLuggage = oneOf(["SMALL", "MIDDLE", "BIG"])
const isDetour = oneOf(["ON_TIME", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS"])
const isSchedule = oneOf(["NONE", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "WHATEVER_IT_TAKES"])
const isMessaging = oneOf(["public", "private"])
const isComfort = oneOf(["Basic", "Normal", "Comfortable", "Luxury"])

const keys = (...names: ReadonlyArray<string>): ReadonlyMap<string, number> => new Map(names.map((name, k) => [name, k]))
const TRIP_KEYS = keys("id", "status", "departure_time", "waypoints", "legs", "currency", "seats", "seats_left", "seats_count_origin", "booking_mode",
  "booking_type", "service", "viaggio_rosa", "is_comfort", "luggage", "detour", "schedule", "comment", "messaging_status", "answer_delay",
  "view_count", "car", "driver", "passengers", "vehicle_pictures", "questions")
const TRIP_ORDER = [...TRIP_KEYS.keys()]
const WAYPOINT_KEYS = keys("city", "address", "lat", "lon", "country", "meeting_point_id", "offset_min")
const LEG_KEYS = keys("price", "distance_km", "duration_s", "path")
const CAR_KEYS = keys("id", "make", "model", "color", "color_hexa", "comfort", "comfort_nb_star", "number_of_seat", "category", "picture")
const DRIVER_KEYS = keys("id", "display_name", "picture", "experience")
const PASSENGER_KEYS = keys("id", "display_name", "picture")
const QUESTION_KEYS = keys("id", "question", "answer", "asked_at", "answered_at")

/** Builds an object with the given entries in order, leaving out those whose value is absent. */
const pick = (o: Obj, names: ReadonlyArray<string>): Obj => {
  const out: Obj = {}
  for (const k of names) if (o[k] !== undefined) out[k] = o[k]
  return out
}

const waypoint = (w: unknown): Obj | undefined => {
  if (!isObj(w)) return undefined
  const order = keysOf(w, WAYPOINT_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  if (!isNonEmptyText(w["city"]) || (w["address"] !== undefined && !isText(w["address"]))) return undefined
  if (!isBetween(w["lat"], -90, 90) || !isBetween(w["lon"], -180, 180) || !isText(w["country"]) || !isCountryCode(w["country"])) return undefined
  if ((w["meeting_point_id"] !== undefined && !isNonNegInt(w["meeting_point_id"])) || !isNonNegInt(w["offset_min"])) return undefined
  return order === IN_ORDER ? w : pick(w, ["city", "address", "lat", "lon", "country", "meeting_point_id", "offset_min"])
}

const leg = (l: unknown): Obj | undefined => {
  if (!isObj(l)) return undefined
  const order = keysOf(l, LEG_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  const { price, distance_km, duration_s, path } = l
  if (path !== undefined && !isText(path)) return undefined
  if (!isNum(price) || !(price > 0) || !Number.isFinite(price)) return undefined
  if (!isNum(distance_km) || !(distance_km >= 0) || !Number.isFinite(distance_km) || !isNonNegInt(duration_s)) return undefined
  return order === IN_ORDER ? l : path === undefined ? { price, distance_km, duration_s } : { price, distance_km, duration_s, path }
}

const car = (c: unknown): Obj | undefined => {
  if (!isObj(c)) return undefined
  const order = keysOf(c, CAR_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  if (!isText(c["id"]) || !isText(c["make"]) || !isText(c["model"]) || (c["color"] !== undefined && !isText(c["color"]))) return undefined
  const hexa = c["color_hexa"]
  if (hexa !== undefined && !(isText(hexa) && HEXA.test(hexa))) return undefined
  if (!isComfort(c["comfort"]) || !isIntBetween(c["comfort_nb_star"], 1, 4)) return undefined
  if (c["number_of_seat"] !== undefined && !isIntBetween(c["number_of_seat"], 1, 9)) return undefined
  if (!isNonEmptyText(c["category"]) || (c["picture"] !== undefined && !isUrl(c["picture"]))) return undefined
  const canonical = hexa === undefined ? undefined : canonicalColorHexa(hexa as string)
  if (order === IN_ORDER && canonical === hexa) return c
  const out = pick(c, ["id", "make", "model", "color", "color_hexa", "comfort", "comfort_nb_star", "number_of_seat", "category", "picture"])
  if (canonical !== undefined) out["color_hexa"] = canonical
  return out
}

const driver = (d: unknown): Obj | undefined => {
  if (!isObj(d)) return undefined
  const order = keysOf(d, DRIVER_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  if (!isText(d["id"]) || !isText(d["display_name"]) || !(d["picture"] === null || isUrl(d["picture"])) || !isIntBetween(d["experience"], 0, 4)) return undefined
  return order === IN_ORDER ? d : { id: d["id"], display_name: d["display_name"], picture: d["picture"], experience: d["experience"] }
}

const passenger = (p: unknown): Obj | undefined => {
  if (!isObj(p)) return undefined
  const order = keysOf(p, PASSENGER_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  if (!isText(p["id"]) || !isText(p["display_name"]) || (p["picture"] !== undefined && !isUrl(p["picture"]))) return undefined
  return order === IN_ORDER ? p : pick(p, ["id", "display_name", "picture"])
}

const question = (q: unknown): Obj | undefined => {
  if (!isObj(q)) return undefined
  const order = keysOf(q, QUESTION_KEYS)
  if (order === UNKNOWN_KEY) return undefined
  if (!isText(q["id"]) || !isText(q["question"]) || (q["answer"] !== undefined && !isText(q["answer"]))) return undefined
  if (!isIso(q["asked_at"]) || (q["answered_at"] !== undefined && !isIso(q["answered_at"]))) return undefined
  return order === IN_ORDER ? q : pick(q, ["id", "question", "answer", "asked_at", "answered_at"])
}

/** Each item through `item`; undefined when the value is not an array or one item fails. */
const arrayOf = (v: unknown, item: (x: unknown) => unknown): Array<unknown> | undefined => {
  if (!Array.isArray(v)) return undefined
  let out: Array<unknown> | undefined // a copy, made only once an item is not kept as it is
  for (let i = 0; i < v.length; i++) {
    const x = item(v[i])
    if (x === undefined) return undefined
    if (out === undefined && x !== v[i]) out = v.slice(0, i)
    if (out !== undefined) out.push(x)
  }
  return out ?? v
}
const url = (v: unknown): unknown => (isUrl(v) ? v : undefined)

/** Each leg's path decoded (`checkedPath`), undefined for a leg without one. */
export type LegPoints = Array<Array<[number, number]> | undefined>

/**
 * The decoded trip when `json` is certainly a valid feed line (exactly what `FeedTrip`'s decode
 * gives), `undefined` when it is not or may not be. `legPoints`, when given, receives each leg's
 * path as the check decoded it, so that the stops along the road do not decode it again.
 */
export const acceptFeedTrip = (json: unknown, legPoints?: LegPoints): FeedTrip | undefined => {
  if (!isObj(json) || !onlyKeys(json, TRIP_KEYS)) return undefined
  const t = json
  if (!isText(t["id"]) || !ID.test(t["id"]) || (t["status"] !== undefined && !isStatus(t["status"])) || !isIso(t["departure_time"])) return undefined
  const waypoints = arrayOf(t["waypoints"], waypoint) as Array<Obj> | undefined
  if (waypoints === undefined || waypoints.length < 2 || waypoints.length > 10) return undefined
  const legs = arrayOf(t["legs"], leg) as Array<Obj> | undefined
  if (legs === undefined || legs.length !== waypoints.length - 1) return undefined
  const currency = t["currency"]
  if (!isCurrency(currency) || !isIntBetween(t["seats"], 1, 8) || !isNonNegInt(t["seats_left"]) || t["seats_left"] > t["seats"]) return undefined
  if (t["seats_count_origin"] !== undefined && !isIntBetween(t["seats_count_origin"], 1, 8)) return undefined
  if (!isBookingMode(t["booking_mode"]) || !isBookingType(t["booking_type"])) return undefined
  const optional = (name: string, ok: (v: unknown) => boolean, fallback: unknown): unknown => {
    const v = t[name]
    return v === undefined ? fallback : ok(v) ? v : undefined
  }
  const service = optional("service", isService, "standard")
  const viaggio_rosa = optional("viaggio_rosa", (v) => typeof v === "boolean", false)
  const is_comfort = optional("is_comfort", (v) => typeof v === "boolean", false)
  const luggage = optional("luggage", isLuggage, "MIDDLE")
  const detour = optional("detour", isDetour, "FIFTEEN_MINUTES")
  const schedule = optional("schedule", isSchedule, "FIFTEEN_MINUTES")
  const messaging_status = optional("messaging_status", isMessaging, "public")
  const answer_delay = optional("answer_delay", isNonNegInt, 0)
  const view_count = optional("view_count", isNonNegInt, 0)
  if ([service, viaggio_rosa, is_comfort, luggage, detour, schedule, messaging_status, answer_delay, view_count].includes(undefined)) return undefined
  if (t["comment"] !== undefined && !(isText(t["comment"]) && t["comment"].length <= 2000)) return undefined
  const theCar = car(t["car"])
  const theDriver = driver(t["driver"])
  if (theCar === undefined || theDriver === undefined || COMFORT_STARS[theCar["comfort"] as keyof typeof COMFORT_STARS] !== theCar["comfort_nb_star"]) return undefined
  const passengers = t["passengers"] === undefined ? undefined : arrayOf(t["passengers"], passenger)
  const vehicle_pictures = t["vehicle_pictures"] === undefined ? undefined : arrayOf(t["vehicle_pictures"], url)
  const questions = t["questions"] === undefined ? undefined : arrayOf(t["questions"], question)
  if ((t["passengers"] !== undefined && passengers === undefined) || (t["vehicle_pictures"] !== undefined && vehicle_pictures === undefined) ||
    (t["questions"] !== undefined && questions === undefined)) return undefined
  let previous = -1
  for (let k = 0; k < waypoints.length; k++) {
    const offset = waypoints[k]!["offset_min"] as number
    if (k === 0 ? offset !== 0 : offset <= previous) return undefined
    previous = offset
  }
  // The last waypoint's time within a Date's range (the Schema says which waypoint is not).
  if (!isWaypointTime(Date.parse(t["departure_time"] as string), previous)) return undefined
  const digits = MINOR_DIGITS[currency]
  for (const l of legs) if (!hasAtMostDecimals(l["price"] as number, digits)) return undefined
  if (legPoints !== undefined) legPoints.length = 0
  for (let k = 0; k < legs.length; k++) {
    const path = legs[k]!["path"] as string | undefined
    const a = waypoints[k]!
    const b = waypoints[k + 1]!
    const points = path === undefined ? undefined : checkedPath(path, a["lat"] as number, a["lon"] as number, b["lat"] as number, b["lon"] as number)
    if (typeof points === "string") return undefined
    legPoints?.push(points)
  }
  return pick({
    id: t["id"], status: t["status"] ?? "active", departure_time: t["departure_time"], waypoints, legs, currency, seats: t["seats"],
    seats_left: t["seats_left"], seats_count_origin: t["seats_count_origin"], booking_mode: t["booking_mode"], booking_type: t["booking_type"],
    service, viaggio_rosa, is_comfort, luggage, detour, schedule, comment: t["comment"], messaging_status, answer_delay, view_count,
    car: theCar, driver: theDriver, passengers, vehicle_pictures, questions
  }, TRIP_ORDER) as unknown as FeedTrip
}
