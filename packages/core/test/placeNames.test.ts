import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import {
  decodeFeedLine, InMemoryTripMatcher, InMemoryTripStore, PlaceNames, PlaceResolver, searchTrips, suggestPlaces, tripDetails, TripSearchClient,
  type FeedTripInput, type JsonObject, type LocaleCode, type RequestContext
} from "@tripsearch/core"

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)
const STOPS = [
  { city: "Munich", lat: 48.1374, lon: 11.5755, country: "DE" },
  { city: "Regensburg", lat: 49.0134, lon: 12.1016, country: "DE", address: "Hauptbahnhof, Regensburg" },
  { city: "Praha", lat: 50.088, lon: 14.4208, country: "CZ" }
]

const input: FeedTripInput = {
  id: "M",
  departure_time: "2026-11-23T08:00:00+01:00",
  waypoints: STOPS.map((s, k) => ({ ...s, offset_min: k * 90 })),
  legs: [{ price: 10, distance_km: 120, duration_s: 5400 }, { price: 12, distance_km: 250, duration_s: 9000 }],
  currency: "EUR",
  seats: 3,
  seats_left: 2,
  booking_mode: "auto",
  booking_type: "online",
  car: { id: "c1", make: "SKODA", model: "OCTAVIA", comfort: "Comfortable", comfort_nb_star: 3, category: "CATEGORY_TOURISM" },
  driver: { id: "d1", display_name: "Jan", picture: null, experience: 2 }
}
const decoded = decodeFeedLine(JSON.stringify(input))
if (Either.isLeft(decoded)) throw new Error(JSON.stringify(decoded.left))
const store = InMemoryTripStore.layer([{ trip: decoded.right, zoneOffsets: [60, 60, 60] }])
const Env = Layer.mergeAll(
  Layer.provide(InMemoryTripMatcher.layer, store),
  store,
  Layer.succeed(PlaceResolver, { resolve: () => Effect.succeed(Option.none()) })
)

// Names that show which place, which locale and which country the port was asked about.
const calls: Array<string> = []
const Names = Layer.succeed(PlaceNames, {
  cityName: (text, country, lat, lon, locale) => {
    calls.push(`${text}|${country}|${lat}|${lon}|${locale}`)
    return `${text.toUpperCase()} (${locale})`
  },
  suggest: (q, locale, limit) => [{ id: 1, name: `${q}@${locale}`, countryCode: "CZ", lat: 1.5, lon: 2.5, population: limit }]
})

const ctx: RequestContext = { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", path: "/api/v2/trips", query: "" }
const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(NOW)
    return yield* Effect.provide(effect, Env)
  }) as Effect.Effect<A, E>

const search = (locale: LocaleCode) =>
  searchTrips({ locale, cur: locale === "cs_CZ" ? "CZK" : "EUR", fc: `${STOPS[0]!.lat}|${STOPS[0]!.lon}`, tc: `${STOPS[1]!.lat}|${STOPS[1]!.lon}` }, ctx)

describe("the PlaceNames port", () => {
  it.effect("names every place of a search result and of a trip's details through the port, in the asked locale", () =>
    run(
      Effect.gen(function* () {
        calls.length = 0
        const body = (yield* Effect.provide(search("cs_CZ"), Names)) as { trips: Array<JsonObject & Record<string, any>> }
        const trip = body.trips[0]!
        expect(trip.departure_place.city_name).toBe("MUNICH (cs_CZ)")
        expect(trip.arrival_place.city_name).toBe("REGENSBURG (cs_CZ)")
        expect(trip.locations_to_display).toEqual(["MUNICH (cs_CZ)", "REGENSBURG (cs_CZ)", "PRAHA (cs_CZ)"])
        // The address is never translated.
        expect(trip.arrival_place.address).toBe("Hauptbahnhof, Regensburg")
        expect(calls).toContain("Praha|CZ|50.088|14.4208|cs_CZ")

        const detail = (yield* Effect.provide(tripDetails("M_0_1", { locale: "ru_RU" }, ctx), Names)) as Record<string, any>
        expect(detail.departure_place.city_name).toBe("MUNICH (ru_RU)")
        expect(detail.stop_overs.map((s: Record<string, unknown>) => s.city_name)).toEqual(["MUNICH (ru_RU)", "REGENSBURG (ru_RU)", "PRAHA (ru_RU)"])
        expect(detail.trip_plan.map((s: Record<string, unknown>) => s.city)).toEqual(["MUNICH (ru_RU)", "REGENSBURG (ru_RU)", "PRAHA (ru_RU)"])
      })
    ))

  it.effect("without a PlaceNames provided, places are shown as the feed wrote them and nothing is suggested", () =>
    run(
      Effect.gen(function* () {
        const body = (yield* search("cs_CZ")) as { trips: Array<Record<string, any>> }
        expect(body.trips[0]!.locations_to_display).toEqual(["Munich", "Regensburg", "Praha"])
        const places = (yield* suggestPlaces({ locale: "cs_CZ", q: "Mnich" }, { ...ctx, path: "/api/v2/places", query: "locale=cs_CZ&q=Mnich" })) as Record<string, any>
        expect(places).toEqual({ links: { _self: "https://api.test/api/v2/places?locale=cs_CZ&q=Mnich" }, places: [] })
      })
    ))

  it("the Promise client suggests places through the layer's PlaceNames, none without one, and rejects a query without q", async () => {
    const withNames = await TripSearchClient.make(Layer.merge(Env, Names), { apiBaseUrl: "https://api.test" })
    const without = await TripSearchClient.make(Env)
    try {
      expect(await withNames.places({ locale: "de_DE", q: "Mün", key: "secret" })).toEqual({
        links: { _self: "https://api.test/api/v2/places?locale=de_DE&q=M%C3%BCn" },
        places: [{ id: 1, name: "Mün@de_DE", country_code: "CZ", latitude: 1.5, longitude: 2.5, population: 10 }]
      })
      expect(((await without.places({ locale: "de_DE", q: "Mün" })) as { places: unknown }).places).toEqual([])
      await expect(withNames.places({ locale: "de_DE" })).rejects.toMatchObject({ _tag: "InvalidParameter", parameter: "q" })
      // Called without its parameters, a method rejects as the API answers a query without them.
      const TypeErrorOf = async (p: Promise<unknown>) => (await p.catch((e: unknown) => e)) instanceof TypeError
      for (const call of [() => withNames.details("t1"), () => withNames.threads("t1"), () => withNames.places(), () => withNames.search()]) {
        expect(await TypeErrorOf(call())).toBe(false)
        await expect(call()).rejects.toMatchObject({ _tag: "InvalidParameter" })
      }
    } finally {
      await withNames.close()
      await without.close()
    }
  })

  it.effect("suggestPlaces asks the port for 10 and renders its answer", () =>
    run(
      Effect.gen(function* () {
        const places = (yield* Effect.provide(suggestPlaces({ locale: "pl_PL", q: "Kra" }, { ...ctx, path: "/api/v2/places", query: "" }), Names)) as Record<string, any>
        expect(places.places).toEqual([{ id: 1, name: "Kra@pl_PL", country_code: "CZ", latitude: 1.5, longitude: 2.5, population: 10 }])
      })
    ))
})
