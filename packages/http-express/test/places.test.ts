import { feedLines } from "@tripsearch/dataset"
import { Gazetteer } from "@tripsearch/gazetteer"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { XMLParser } from "fast-xml-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listenOverStore, type RealStack } from "./testServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

interface Stop {
  readonly city: string
  readonly lat: number
  readonly lon: number
  readonly country: string
}

/** A trip of the generator's shape over the given stops, departing tomorrow. */
const tripOver = (template: Json, id: string, stops: ReadonlyArray<Stop>, nowMs: number): string =>
  JSON.stringify({
    ...template,
    id,
    status: "active",
    departure_time: new Date(nowMs + 86_400_000).toISOString().replace(/\.\d{3}Z$/, "+00:00"),
    waypoints: stops.map((s, k) => ({ ...s, offset_min: k * 90 })),
    legs: stops.slice(1).map(() => ({ price: 12, distance_km: 150, duration_s: 5400 })),
    seats: 3,
    seats_left: 3,
    seats_count_origin: 3
  })

// As feeds write them: in the English of GeoNames, in the country's own language, in a third one.
const MOSCOW: Stop = { city: "Moscow", lat: 55.75222, lon: 37.61556, country: "RU" }
const TVER: Stop = { city: "Tver", lat: 56.85836, lon: 35.90057, country: "RU" }
const SPB: Stop = { city: "Saint Petersburg", lat: 59.93863, lon: 30.31413, country: "RU" }
const MUENCHEN: Stop = { city: "München", lat: 48.13743, lon: 11.57549, country: "DE" }
const PRAHA: Stop = { city: "Praha", lat: 50.08804, lon: 14.42076, country: "CZ" }
// A place whose text names no city near it: shown as written.
const NOWHERE: Stop = { city: "Aire de Ruffec", lat: 46.03, lon: 0.2, country: "FR" }

describe("place names in the locale and GET /api/v2/places, on a listening server over the real stack", () => {
  const nowMs = Date.now()
  const db = openDatabase(":memory:")
  let running: RealStack

  beforeAll(async () => {
    const template = JSON.parse([...feedLines({ trips: 1, seed: "places", nowMs })][0]!) as Json
    const lines = [
      tripOver(template, "t-moscow-spb", [MOSCOW, TVER, SPB], nowMs),
      tripOver(template, "t-munich-prague", [MUENCHEN, PRAHA], nowMs),
      tripOver(template, "t-nowhere-prague", [NOWHERE, PRAHA], nowMs)
    ]
    const result = await importFeed(db, lines)
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true })
    running = await listenOverStore(db, "places")
  })

  afterAll(async () => {
    await running?.close()
    db.close()
  })

  const get = (path: string, headers: Record<string, string> = { key: running.key }) => fetch(`${running.base}${path}`, { headers })
  const json = async (path: string): Promise<Json> => {
    const response = await get(path)
    expect(response.status, path).toBe(200)
    return (await response.json()) as Json
  }

  it("ru_RU: Москва -> Санкт-Петербург finds the trip and names every place in Russian", async () => {
    const body = await json(`/api/v2/trips?locale=ru_RU&cur=RUB&fn=${encodeURIComponent("Москва")}&tn=${encodeURIComponent("Санкт-Петербург")}`)
    const trip = (body.trips as Array<Json>).find((t) => t.permanent_id === "t-moscow-spb")!
    expect(trip).toBeDefined()
    expect([trip.departure_place.city_name, trip.arrival_place.city_name]).toEqual(["Москва", "Санкт-Петербург"])
    expect(trip.locations_to_display).toEqual(["Москва", "Тверь", "Санкт-Петербург"])
    const detail = await json(`/api/v2/trips/t-moscow-spb?locale=ru_RU`)
    expect(detail.stop_overs.map((s: Json) => s.city_name)).toEqual(["Москва", "Тверь", "Санкт-Петербург"])
    expect(detail.trip_plan.map((s: Json) => s.city)).toEqual(["Москва", "Тверь", "Санкт-Петербург"])
    // Another locale, the same trip: the names follow the locale, not the feed.
    const english = await json(`/api/v2/trips/t-moscow-spb?locale=en_GB`)
    expect(english.stop_overs.map((s: Json) => s.city_name)).toEqual(["Moscow", "Tver'", "Saint Petersburg"])
    const serbian = await json(`/api/v2/trips/t-moscow-spb_0_1?locale=sr_Latn_RS`)
    expect([serbian.departure_place.city_name, serbian.arrival_place.city_name]).toEqual(["Moskva", "Tver"])
  })

  it("cs_CZ: Mnichov -> Praha, named Mnichov and Praha; a place naming no city nearby keeps its text", async () => {
    const body = await json(`/api/v2/trips?locale=cs_CZ&cur=CZK&fn=Mnichov&tn=Praha`)
    const trip = (body.trips as Array<Json>).find((t) => t.permanent_id === "t-munich-prague")!
    expect([trip.departure_place.city_name, trip.arrival_place.city_name]).toEqual(["Mnichov", "Praha"])
    const polish = await json(`/api/v2/trips/t-munich-prague?locale=pl_PL`)
    expect(polish.trip_plan.map((s: Json) => s.city)).toEqual(["Monachium", "Praga"])
    const nowhere = await json(`/api/v2/trips/t-nowhere-prague?locale=uk_UA`)
    expect(nowhere.stop_overs.map((s: Json) => s.city_name)).toEqual(["Aire de Ruffec", "Прага"])
  })

  // Five kinds of writing: plain Latin, Latin with marks, Cyrillic, Turkish dotted capital I,
  // and Serbian Latin (a transliteration the catalogues do not write).
  it.each([
    ["Mnichov", "cs_CZ", "Mnichov", "DE"],
    ["Krakó", "pl_PL", "Kraków", "PL"],
    ["Мюнх", "ru_RU", "Мюнхен", "DE"],
    ["İstanb", "tr_TR", "İstanbul", "TR"],
    ["Beč", "sr_Latn_RS", "Beč", "AT"],
    ["Odes", "uk_UA", "Одеса", "UA"]
  ])("suggests for %s in %s: %s first", async (q, locale, name, country) => {
    const body = await json(`/api/v2/places?locale=${locale}&q=${encodeURIComponent(q)}`)
    expect(body.links).toEqual({ _self: `https://api.test/api/v2/places?locale=${locale}&q=${encodeURIComponent(q)}` })
    const places = body.places as Array<Json>
    expect(places.length).toBeGreaterThan(0)
    expect(places.length).toBeLessThanOrEqual(10)
    expect(places[0]).toMatchObject({ name, country_code: country })
    // What the API answers is the gazetteer's own suggestion list.
    const expected = Gazetteer.shared().suggest(q, locale as "cs_CZ", 10)
    expect(places.map((p) => p.id)).toEqual(expected.map((p) => p.id))
    places.forEach((p, k) => {
      // `near` only on a city with a namesake of its country in the list.
      expect(Object.keys(p)).toEqual(["id", "name", "country_code", "latitude", "longitude", "population", ...(expected[k]!.near !== undefined ? ["near"] : [])])
      expect(p.near).toBe(expected[k]!.near)
      expect(Number.isInteger(p.id) && Number.isInteger(p.population)).toBe(true)
    })
  })

  it("Mnich in cs_CZ: the town named Mnich first (an exact name), Czech towns next, Mnichov among them", async () => {
    const body = await json(`/api/v2/places?locale=cs_CZ&q=Mnich`)
    const places = body.places as Array<Json>
    expect(places[0]).toMatchObject({ name: "Mnich" })
    expect(places[1]).toMatchObject({ country_code: "CZ" })
    expect(places.map((p) => p.name)).toContain("Mnichov")
  })

  it("a suggested name given as fn resolves to that city", async () => {
    const body = await json(`/api/v2/places?locale=cs_CZ&q=Mnichov`)
    expect(body.places[0]).toMatchObject({ name: "Mnichov", country_code: "DE", latitude: MUENCHEN.lat, longitude: MUENCHEN.lon })
    const search = await json(`/api/v2/trips?locale=cs_CZ&cur=CZK&fn=${encodeURIComponent(body.places[0].name)}&tn=Praha`)
    expect(search.trips.map((t: Json) => t.permanent_id)).toContain("t-munich-prague")
  })

  it("answers XML with one place element per city", async () => {
    const response = await get(`/api/v2/places?locale=de_DE&q=Wien&_format=xml`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8")
    const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === "place" }).parse(await response.text()) as Json
    const places = xml.response.places.place as Array<Json>
    expect(places[0]).toMatchObject({ name: "Wien", country_code: "AT" })
    expect(places.length).toBe(Gazetteer.shared().suggest("Wien", "de_DE").length)
  })

  it("counts against the key's quota and needs a key", async () => {
    const first = await get(`/api/v2/places?locale=fr_FR&q=Lyo`)
    const second = await get(`/api/v2/places?locale=fr_FR&q=Lyon`)
    expect(Number(second.headers.get("x-ratelimit-remaining-day"))).toBe(Number(first.headers.get("x-ratelimit-remaining-day")) - 1)
    const none = await get(`/api/v2/places?locale=fr_FR&q=Lyon`, {})
    expect(none.status).toBe(401)
    const wrong = await get(`/api/v2/places?locale=fr_FR&q=Lyon`, { key: "not-a-key" })
    expect(wrong.status).toBe(403)
  })

  it.each([
    ["locale=fr_FR", "parameter.missing", "q"],
    ["locale=fr_FR&q=", "parameter.invalid", "q"],
    ["locale=fr_FR&q=%20%20", "parameter.invalid", "q"],
    [`locale=fr_FR&q=${"a".repeat(101)}`, "parameter.invalid", "q"],
    ["locale=fr_FR&q=Lyon&q=Paris", "parameter.invalid", "q"],
    ["q=Lyon", "parameter.missing", "locale"],
    ["q=Lyon&locale=xx_XX", "parameter.invalid", "locale"]
  ])("refuses %s: 400 %s naming %s", async (query, token, parameter) => {
    const response = await get(`/api/v2/places?${query}`)
    expect(response.status).toBe(400)
    const body = (await response.json()) as Json
    expect(body.error["developper-message"]).toBe(token)
    expect(body.error.message.startsWith(`${parameter}:`)).toBe(true)
  })

  it("a q of 100 characters is taken, and one that names nothing answers no places", async () => {
    const body = await json(`/api/v2/places?locale=fr_FR&q=${"z".repeat(100)}`)
    expect(body.places).toEqual([])
  })
})
