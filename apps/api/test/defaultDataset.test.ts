import {
  decodeFeedLine, defaultRadiusKm, haversineKm, InMemoryTripMatcher, InMemoryTripStore, type StoredTrip, TripSearchClient
} from "@tripsearch/core"
import { generateFeed } from "@tripsearch/dataset"
import { Gazetteer, GazetteerPlaceResolver, zoneOf } from "@tripsearch/gazetteer"
import { zoneOffsetsOf } from "@tripsearch/storage-sqlite"
import { Either, Layer, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATASET_SEED, DEFAULT_SEED_TRIPS } from "../src/config.js"

const DAY_MS = 86_400_000
const DAYS = 14

/** The busiest axis of each of seven countries, as a visitor types it, in that country's locale. */
const AXES = [
  { country: "FR", params: { locale: "fr_FR", cur: "EUR", fn: "Paris", tn: "Lyon" } },
  { country: "ES", params: { locale: "es_ES", cur: "EUR", fn: "Madrid", tn: "Barcelona" } },
  { country: "IT", params: { locale: "it_IT", cur: "EUR", fn: "Milano", tn: "Roma" } },
  { country: "DE", params: { locale: "de_DE", cur: "EUR", fn: "München", tn: "Berlin" } },
  { country: "GB", params: { locale: "en_GB", cur: "GBP", fn: "London", tn: "Manchester" } },
  { country: "PL", params: { locale: "pl_PL", cur: "PLN", fn: "Warszawa", tn: "Kraków" } },
  { country: "RU", params: { locale: "ru_RU", cur: "RUB", fn: "Москва", tn: "Санкт-Петербург" } }
].map(({ country, params }) => {
  const place = (name: string) => Option.getOrThrow(Gazetteer.shared().resolveCity(name, country))
  const from = place(params.fn)
  const to = place(params.tn)
  return { ...params, from, to, radiusKm: defaultRadiusKm(from, to) }
})

/**
 * Whether a trip could match an axis at all: a waypoint within twice the radius of its start,
 * a later one within twice the radius of its end. Looser than the search, so the search over the
 * trips kept finds exactly what it finds over all of them; it only spares decoding the rest.
 */
const mayServe = (waypoints: ReadonlyArray<{ readonly lat: number; readonly lon: number }>): boolean =>
  AXES.some(({ from, to, radiusKm }) => {
    const i = waypoints.findIndex((w) => haversineKm(w.lat, w.lon, from.lat, from.lon) <= 2 * radiusKm)
    return i >= 0 && waypoints.slice(i + 1).some((w) => haversineKm(w.lat, w.lon, to.lat, to.lon) <= 2 * radiusKm)
  })

/** `YYYY-MM-DD` of an instant in a zone: the `db` a visitor of that city picks. */
const localDate = (ms: number, zone: string): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(ms)

// What `npm start` builds on a first start: the default seed and size, now = the start instant
// (apps/api/src/main.ts -> ensureDataset), searched right after with the real clock. The store is
// in memory instead of SQLite (same decoding and zone offsets as the import) and holds only the
// trips that may serve an axis, to keep the test fast; the place resolver and the matcher are the
// API's own.
let client: TripSearchClient
beforeAll(async () => {
  const nowMs = Date.now()
  const stored: Array<StoredTrip> = []
  // The same trips as feedLines (which ensureDataset imports), before their JSON encoding.
  for (const generated of generateFeed({ trips: DEFAULT_SEED_TRIPS, seed: DATASET_SEED, nowMs })) {
    if (!mayServe(generated.waypoints)) continue
    const trip = Either.getOrThrow(decodeFeedLine(JSON.stringify(generated)))
    stored.push({ trip, zoneOffsets: zoneOffsetsOf(trip) })
  }
  const store = InMemoryTripStore.layer(stored)
  client = await TripSearchClient.make(Layer.mergeAll(store, GazetteerPlaceResolver.layer, Layer.provide(InMemoryTripMatcher.layer, store)))
}, 60_000)
afterAll(() => client?.close())

describe(`the default data set (${DEFAULT_SEED_TRIPS} trips, seed ${DATASET_SEED})`, () => {
  it.each(AXES)("has $fn -> $tn trips on at least 10 of the first 14 days", async ({ locale, cur, fn, tn, from }) => {
    const zone = zoneOf(from.lat, from.lon)
    const perDay: Array<number> = []
    for (let k = 0; k < DAYS; k++) {
      const db = localDate(Date.now() + k * DAY_MS, zone)
      const result = await client.search({ locale, cur, fn, tn, db, limit: "0" })
      perDay.push((result.pager as { total: number }).total)
    }
    const served = perDay.filter((n) => n > 0).length
    expect(served, `trips per day: ${perDay.join(", ")}`).toBeGreaterThanOrEqual(10)
  })
})
