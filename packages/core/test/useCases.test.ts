import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, Schema, TestClock } from "effect"
import {
  decodeFeedLine, InMemoryTripMatcher, InMemoryTripStore, PlaceResolver, SearchResponse, searchTrips, TripDetail, tripDetails,
  tripThreads, type FeedTripInput, type RequestContext, type StoredTrip
} from "@tripsearch/core"

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)
const PARIS = { city: "Paris", lat: 48.8566, lon: 2.3522, country: "FR" }
const AUXERRE = { city: "Auxerre", lat: 47.7986, lon: 3.5673, country: "FR" }
const LYON = { city: "Lyon", lat: 45.764, lon: 4.8357, country: "FR" }
const LILLE = { city: "Lille", lat: 50.6292, lon: 3.0573, country: "FR" }
const MARSEILLE = { city: "Marseille", lat: 43.2965, lon: 5.3698, country: "FR" }

const trip = (id: string, stops: Array<typeof PARIS>, extra: Partial<FeedTripInput> = {}): StoredTrip => {
  const input: FeedTripInput = {
    id,
    departure_time: "2026-11-23T08:00:00+01:00",
    waypoints: stops.map((s, k) => ({ ...s, offset_min: k * 90 })),
    legs: stops.slice(1).map((_, k) => ({ price: 10 + k, distance_km: 150.5, duration_s: 5400 })),
    currency: "EUR",
    seats: 3,
    seats_left: 2,
    booking_mode: "auto",
    booking_type: "online",
    car: { id: "c1", make: "PEUGEOT", model: "308", comfort: "Comfortable", comfort_nb_star: 3, category: "CATEGORY_TOURISM" },
    driver: { id: "d1", display_name: "Ana", picture: null, experience: 2 },
    questions: [{ id: "q1", question: "Pets?", answer: "No", asked_at: "2026-11-20T10:00:00+01:00", answered_at: "2026-11-20T11:00:00+01:00" }],
    ...extra
  }
  const decoded = decodeFeedLine(JSON.stringify(input))
  if (Either.isLeft(decoded)) throw new Error(JSON.stringify(decoded.left))
  return { trip: decoded.right, zoneOffsets: stops.map(() => 60) }
}

const TRIPS = [
  trip("A", [PARIS, AUXERRE, LYON]),
  trip("B", [LILLE, PARIS, LYON, MARSEILLE], { booking_type: "no_booking" }),
  trip("C", [LYON, PARIS]),
  trip("D", [PARIS, LYON], { status: "cancelled" }),
  trip("E", [PARIS, LYON], { departure_time: "2026-11-21T08:00:00+01:00" })
]

const Resolver = Layer.succeed(PlaceResolver, {
  resolve: (text) => Effect.succeed(text === "Paris" ? Option.some({ name: "Paris", country: "FR", lat: PARIS.lat, lon: PARIS.lon }) : Option.none())
})
const store = InMemoryTripStore.layer(TRIPS)
const Env = Layer.mergeAll(Layer.provide(InMemoryTripMatcher.layer, store), store, Resolver)

const ctx: RequestContext = { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", path: "/api/v2/trips", query: "" }
// The clock is set before the layers start: the index refresh loop sleeps on the TestClock.
const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(NOW)
    return yield* Effect.provide(effect, Env)
  }) as Effect.Effect<A, E>

describe("searchTrips and tripDetails over an in-memory store", () => {
  it.effect("finds whole trips and sub-trips through stop-overs, in date order, shaped as the spec says", () =>
    run(
      Effect.gen(function* () {
        const body = yield* searchTrips({ locale: "fr_FR", cur: "EUR", fc: `${PARIS.lat}|${PARIS.lon}`, tc: `${LYON.lat}|${LYON.lon}` }, ctx)
        const response = Schema.decodeUnknownSync(SearchResponse)(body)
        expect(response.pager).toEqual({ page: 1, pages: 1, total: 2, limit: 10 })
        expect(response.trips.map((t) => t.permanent_id)).toEqual(["A", "B_1_2"])
        const sub = response.trips[1]!
        expect(sub.departure_place.city_name).toBe("Paris")
        expect(sub.arrival_place.city_name).toBe("Lyon")
        expect(sub.departure_date).toBe("23/11/2026 09:30:00")
        expect(sub.price_without_commission.value).toBe(11)
        expect(sub.commission.value).toBe(0)
        expect(sub.distance).toEqual({ value: 151, unity: "km" })
        expect(sub.links._self).toBe("https://api.test/api/v2/trips/B_1_2?locale=fr_FR&cur=EUR")
        expect(response.trips[0]!.price.value).toBe(24.15)
        expect(response.trips[0]!.price.string_value).toBe("24,15\u00a0€")
        expect(response.distance).toBeGreaterThan(0)
        expect(response.full_trips_count).toBe(0)
        expect(response.top_trips!.map((t) => t.permanent_id)).toEqual(["B_1_2", "A"])
      })
    ))

  it.effect("with no place answers no trips", () =>
    run(
      Effect.gen(function* () {
        const body = yield* searchTrips({ locale: "fr_FR", cur: "EUR" }, ctx)
        expect(body.pager).toEqual({ page: 1, pages: 0, total: 0, limit: 10 })
        expect(body.trips).toEqual([])
        expect("lowest_price" in body).toBe(false)
      })
    ))

  it.effect("an unknown place name is place.not_found naming the text", () =>
    run(
      Effect.gen(function* () {
        const error = yield* Effect.flip(searchTrips({ locale: "fr_FR", cur: "EUR", fn: "Atlantis" }, ctx))
        expect(error._tag).toBe("PlaceNotFound")
        expect(error.message).toContain("Atlantis")
      })
    ))

  it.effect("fields trims the response and each trip", () =>
    run(
      Effect.gen(function* () {
        const body = yield* searchTrips({ locale: "fr_FR", cur: "EUR", fn: "Paris", fields: "pager,trips.permanent_id" }, ctx)
        expect(Object.keys(body)).toEqual(["pager", "trips"])
        expect(body.trips).toEqual([{ permanent_id: "A" }, { permanent_id: "B_1_3" }])
      })
    ))

  it.effect("fields as real clients send it: bare trip names trim every trip, in JSON order", () =>
    run(
      Effect.gen(function* () {
        const fields = "trips,seats,seats_left,departure_date,permanent_id,price"
        const body = yield* searchTrips({ locale: "fr_FR", cur: "EUR", fn: "Paris", fields }, ctx)
        expect(Object.keys(body)).toEqual(["trips"])
        const trips = body.trips as ReadonlyArray<Record<string, unknown>>
        expect(trips.map((t) => t.permanent_id)).toEqual(["A", "B_1_3"])
        for (const t of trips) expect(Object.keys(t)).toEqual(["departure_date", "price", "seats_left", "seats", "permanent_id"])
        const both = yield* searchTrips({ locale: "fr_FR", cur: "EUR", fn: "Paris", fields: "top_trips,trips,seats" }, ctx)
        expect(Object.keys(both)).toEqual(["trips", "top_trips"])
        expect(both.top_trips).toEqual([{ seats: 3 }, { seats: 3 }])
      })
    ))

  it.effect("_front carries the search's own parameters, _self the query as asked", () =>
    run(
      Effect.gen(function* () {
        const query = "locale=fr_FR&_format=xml&cur=EUR&fields=links&fn=Paris&%5Fformat2=x&limit=1"
        const params = { locale: "fr_FR", _format: "xml", cur: "EUR", fields: "links", fn: "Paris", _format2: "x", limit: "1" }
        const body = yield* searchTrips(params, { ...ctx, query })
        expect(body.links).toEqual({
          _self: `https://api.test/api/v2/trips?${query}`,
          _front: "https://www.test/search?locale=fr_FR&cur=EUR&fn=Paris&%5Fformat2=x&limit=1"
        })
        const encoded = yield* searchTrips(params, { ...ctx, query: "fn=Paris&%5Fformat=xml&field%73=links&locale=fr_FR&cur=EUR" })
        expect((encoded.links as Record<string, string>)._front).toBe("https://www.test/search?fn=Paris&locale=fr_FR&cur=EUR")
      })
    ))

  it.effect("details answer color_hexa as six upper-case digits, also for a trip stored before with lower case", () =>
    Effect.gen(function* () {
      const decoded = (hexa: string) => trip("H", [PARIS, LYON], { car: { ...TRIPS[0]!.trip.car, color_hexa: hexa } })
      const fresh = decoded("#d8c8a8")
      expect(fresh.trip.car.color_hexa).toBe("D8C8A8")
      expect(decoded("d8C8a8").trip.car.color_hexa).toBe("D8C8A8")
      // A row imported before the rule, as the store kept it.
      const old: StoredTrip = { ...fresh, trip: { ...fresh.trip, id: "OLD", car: { ...fresh.trip.car, color_hexa: "a0b1c2" } } }
      const oldStore = InMemoryTripStore.layer([old])
      yield* TestClock.setTime(NOW)
      const body = yield* Effect.provide(tripDetails("OLD", { locale: "fr_FR" }, ctx), oldStore)
      expect((body.car as Record<string, unknown>).color_hexa).toBe("A0B1C2")
    }))

  it.effect("details of a sub-trip carry main_permanent_id, stop-over marks and the plan", () =>
    run(
      Effect.gen(function* () {
        const body = yield* tripDetails("B_1_2", { locale: "en_GB" }, ctx)
        const detail = Schema.decodeUnknownSync(TripDetail)(body)
        expect(detail.permanent_id).toBe("B_1_2")
        expect(detail.main_permanent_id).toBe("B")
        expect(detail.price.currency).toBe("GBP")
        expect(detail.stop_overs.map((s) => [s.city_name, s.departure_place, s.arrival_place])).toEqual([
          ["Lille", undefined, undefined],
          ["Paris", true, undefined],
          ["Lyon", undefined, true],
          ["Marseille", undefined, undefined]
        ])
        expect(detail.departure_date_iso8601).toBe("2026-11-23T09:30:00+01:00")
        expect(detail.trip_plan.map((p) => p.date)).toEqual(["23/11/2026 08:00:00", "23/11/2026 09:30:00", "23/11/2026 11:00:00", "23/11/2026 12:30:00"])
        expect(detail.display_contact).toBe(true)
        expect(detail.is_booking_allowed).toBe(false)
        expect(detail.question_response_count).toBe(1)
      })
    ))

  it.effect("details are 404 for cancelled trips and impossible sub-trips, but kept for passed trips", () =>
    run(
      Effect.gen(function* () {
        for (const id of ["D", "A_2_1", "A_0_3", "nope", "A_x", "B_01_2", "B_1_02", "B_m01_2"]) {
          const error = yield* Effect.flip(tripDetails(id, { locale: "fr_FR" }, ctx))
          expect(error._tag).toBe("TripNotFound")
        }
        const passed = yield* tripDetails("E", { locale: "fr_FR" }, ctx)
        expect(passed.is_passed).toBe(true)
        // `{id}_0_{n}` names the whole trip: the same answer as `{id}`, under its canonical id.
        const whole = yield* tripDetails("A", { locale: "fr_FR" }, ctx)
        const asSegment = yield* tripDetails("A_0_2", { locale: "fr_FR" }, ctx)
        expect(asSegment).toEqual(whole)
        expect(asSegment.permanent_id).toBe("A")
        expect(asSegment).not.toHaveProperty("main_permanent_id")
      })
    ))

  it.effect("threads list the public questions", () =>
    run(
      Effect.gen(function* () {
        const body = yield* tripThreads("A", { locale: "fr_FR" }, ctx)
        expect(body.threads).toEqual([
          { id: "q1", question: "Pets?", asked_at: "2026-11-20T10:00:00+01:00", answer: "No", answered_at: "2026-11-20T11:00:00+01:00" }
        ])
      })
    ))
})
