import polyline from "@mapbox/polyline"
import { CITY_NAME_LANGUAGES, Gazetteer, type GazetteerCity } from "@tripsearch/gazetteer"
import { describe, expect, it } from "vitest"
import { translatorOf } from "../src/messages/catalogue.js"
import { editDistance, nearestPlaces } from "../src/nearestPlaces.js"
import { suggestionLabels } from "../src/suggestionLabels.js"
import { placeNotice, readPlaces } from "../src/placeReading.js"
import { alongTheRoad, formatPriceRange, moreSet, priceRanges } from "../src/searchPage.js"
import { OSM_TILES, passengerEnds, roadOf, tripMapData } from "../src/tripMapData.js"
import { tripIdOf, websiteFiltered } from "../src/websiteFilters.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A small deterministic generator (mulberry32), so that failures replay. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const city = (id: number, name: string, country: string, lat: number, lon: number, population: number): GazetteerCity => ({
  id,
  name,
  country,
  lat,
  lon,
  population,
  featureCode: "PPL",
  adminCode: "01"
})

describe("the driver's road", () => {
  const round5 = (x: number) => Math.round(x * 1e5) / 1e5
  it("follows each leg's decoded path between the waypoints, straight where a leg has none or a broken one", () => {
    const rnd = random(7)
    for (let run = 0; run < 200; run++) {
      const n = 2 + Math.floor(rnd() * 4)
      const waypoints = Array.from({ length: n }, () => ({ lat: round5(40 + rnd() * 10), lon: round5(-2 + rnd() * 15) }))
      const expected: Array<readonly [number, number]> = [[waypoints[0]!.lat, waypoints[0]!.lon]]
      const legs = waypoints.slice(0, -1).map((a, k) => {
        const b = waypoints[k + 1]!
        const kind = rnd()
        if (kind < 0.3) {
          expected.push([b.lat, b.lon])
          return {}
        }
        if (kind < 0.4) {
          expected.push([b.lat, b.lon])
          return { path: "\u0000not a polyline" }
        }
        const inner = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => [round5(a.lat + (b.lat - a.lat) * rnd() + 0.1), round5(a.lon + (b.lon - a.lon) * rnd())] as [number, number])
        // The path's ends lie within metres of the waypoints; the waypoints replace them.
        const points: Array<[number, number]> = [[a.lat + 0.00003, a.lon], ...inner, [b.lat, b.lon - 0.00002]]
        for (const p of inner) expected.push(p)
        expected.push([b.lat, b.lon])
        return { path: polyline.encode(points, 5) }
      })
      // Consecutive equal points are drawn once.
      const deduped = expected.filter((p, i) => i === 0 || p[0] !== expected[i - 1]![0] || p[1] !== expected[i - 1]![1])
      expect(roadOf(waypoints, legs)).toEqual(deduped)
    }
  })

  it("labels every stop, and this passenger's pickup and drop-off from the trip's places, a meeting point along the road included", () => {
    const waypoints = [
      { lat: 48.85, lon: 2.35 },
      { lat: 46.3, lon: 4.83 },
      { lat: 45.76, lon: 4.84 }
    ]
    const path0 = polyline.encode([[48.85, 2.35], [47.5, 3.5], [47.0, 4.0], [46.3, 4.83]], 5)
    const trip: Json = {
      // A segment from a meeting point along the first leg (CORRIDORING) to the last waypoint.
      corridoring_type: "CORRIDORING",
      departure_place: { city_name: "Auxerre", address: "Aire de service, A6", latitude: 47.5, longitude: 3.5, meeting_point_id: 77 },
      arrival_place: { city_name: "Lyon", latitude: 45.76, longitude: 4.84 },
      stop_overs: [
        { city_name: "Paris", latitude: 48.85, longitude: 2.35 },
        { city_name: "Auxerre", address: "Aire de service, A6", latitude: 47.5, longitude: 3.5, meeting_point_id: 77, departure_place: true },
        { city_name: "Mâcon", latitude: 46.3, longitude: 4.83 },
        { city_name: "Lyon", latitude: 45.76, longitude: 4.84, arrival_place: true }
      ]
    }
    const data = tripMapData(trip, { waypoints, legs: [{ path: path0 }, {}] }, { pickup: (p) => `Pick-up: ${p}`, dropoff: (p) => `Drop-off: ${p}` }, OSM_TILES)
    expect(data.road).toEqual([[48.85, 2.35], [47.5, 3.5], [47.0, 4.0], [46.3, 4.83], [45.76, 4.84]])
    expect(data.part).toEqual([[47.5, 3.5], [47.0, 4.0], [46.3, 4.83], [45.76, 4.84]])
    expect(data.stops.map((s) => [s.role, s.label])).toEqual([
      ["stop", "Paris"],
      ["pickup", "Pick-up: Auxerre · Aire de service"],
      ["stop", "Mâcon"],
      ["dropoff", "Drop-off: Lyon"]
    ])
    // Without the stored trip: straight through the stop-overs.
    expect(tripMapData(trip, undefined, { pickup: (p) => p, dropoff: (p) => p }, OSM_TILES).road).toEqual(trip.stop_overs.map((s: Json) => [s.latitude, s.longitude]))
  })
})

/** Optimal string alignment distance, by its recursive definition: the reference. */
const osa = (a: string, b: string): number => {
  const memo = new Map<string, number>()
  const d = (i: number, j: number): number => {
    if (i === 0) return j
    if (j === 0) return i
    const key = `${i},${j}`
    const known = memo.get(key)
    if (known !== undefined) return known
    let best = Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1))
    if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d(i - 2, j - 2) + 1)
    memo.set(key, best)
    return best
  }
  return d(a.length, b.length)
}

describe("nearest names", () => {
  it("measures edit distance as the reference does, up to the bound", () => {
    const rnd = random(11)
    const word = () => Array.from({ length: Math.floor(rnd() * 8) }, () => "abcd"[Math.floor(rnd() * 4)]).join("")
    for (let run = 0; run < 3000; run++) {
      const a = word()
      const b = word()
      const max = Math.floor(rnd() * 4)
      const exact = osa(a, b)
      expect(editDistance(a, b, max), `${a} ${b} ${max}`).toBe(exact <= max ? exact : max + 1)
    }
  })

  it("offers the towns a slip away, fewest edits first, then the locale's country, then the largest", () => {
    const g = new Gazetteer([
      city(1, "Marseille", "FR", 43.3, 5.37, 870_000),
      city(2, "Marsella", "CO", 4.9, -75.7, 20_000),
      city(3, "Lyon", "FR", 45.76, 4.84, 500_000),
      city(4, "Marseilles", "US", 41.3, -88.7, 5_000),
      city(5, "Marseille", "FR", 43.0, 5.0, 1_000)
    ])
    // Marsella and Marseilles are both two edits away: the larger first; the small Marseille is left out.
    expect(nearestPlaces(g, "Marseile", "FR").map((c) => c.id)).toEqual([1, 2, 4])
    expect(nearestPlaces(g, "Lyn", "FR").map((c) => c.id)).toEqual([3])
    expect(nearestPlaces(g, "Zzzzzz", "FR")).toEqual([])
  })

  it("reads every name a town has, in every script, the page's language's first, and ue/oe/ae as umlauts", () => {
    const entries = (names: Partial<Record<(typeof CITY_NAME_LANGUAGES)[number], string>>) => CITY_NAME_LANGUAGES.map((l) => names[l] ?? "")
    const g = new Gazetteer(
      [
        city(1, "Warsaw", "PL", 52.23, 21.01, 1_700_000),
        city(2, "Warsaw", "US", 41.24, -85.85, 14_000),
        city(3, "Munich", "DE", 48.14, 11.58, 1_260_000),
        city(4, "Renchen", "DE", 48.59, 8.01, 7_000),
        city(5, "Moscow", "RU", 55.75, 37.62, 10_000_000),
        city(6, "Prague", "CZ", 50.09, 14.42, 1_160_000)
      ],
      new Map([
        [1, entries({ pl: "Warszawa", de: "Warschau", ru: "Варшава" })],
        [3, entries({ de: "München", cs: "Mnichov", ru: "Мюнхен" })],
        [5, entries({ ru: "Москва", uk: "Москва", pl: "Moskwa" })],
        [6, entries({ cs: "Praha", de: "Prag" })]
      ])
    )
    expect(nearestPlaces(g, "Warszwa", "PL", 5, "pl_PL").map((c) => c.id)).toEqual([1])
    expect(nearestPlaces(g, "Мосвка", "RU", 5, "ru_RU").map((c) => c.id)).toEqual([5])
    expect(nearestPlaces(g, "Prha", "CZ", 5, "cs_CZ").map((c) => c.id)).toEqual([6])
    // Muenchen is München with no slip: before Renchen, two slips away.
    expect(nearestPlaces(g, "Muenchen", "DE", 5, "de_DE").map((c) => c.id)).toEqual([3, 4])
    // One slip from Warsaw: the Polish town first on a Polish page, as its country is the locale's.
    expect(nearestPlaces(g, "Warsaww", "PL", 5, "pl_PL").map((c) => c.id)).toEqual([1, 2])
    expect(nearestPlaces(g, "Warsaww", "US", 5, "en_GB").map((c) => c.id)).toEqual([2, 1])
  })

  it("offers the towns a traveller meant in the gazetteer, in a few milliseconds, without making a search place of a misspelling", () => {
    const g = Gazetteer.shared()
    const first = (text: string, locale: "pl_PL" | "ru_RU" | "sr_Latn_RS" | "cs_CZ" | "de_DE") => {
      const c = nearestPlaces(g, text, { pl_PL: "PL", ru_RU: "RU", sr_Latn_RS: "RS", cs_CZ: "CZ", de_DE: "DE" }[locale], 5, locale)[0]
      return c === undefined ? undefined : (g.nameIn(c, locale) ?? c.name)
    }
    expect(first("Warszwa", "pl_PL")).toBe("Warszawa")
    expect(first("Мосвка", "ru_RU")).toBe("Москва")
    expect(first("Берлн", "ru_RU")).toBe("Берлин")
    expect(first("Beogrd", "sr_Latn_RS")).toBe("Beograd")
    expect(first("Prha", "cs_CZ")).toBe("Praha")
    expect(first("Muenchen", "de_DE")).toBe("München")
    expect(first("Koeln", "de_DE")).toBe("Köln")
    // The rules of place names are unchanged: Muenchen is no search place (docs/API.md).
    expect(g.resolveCity("Muenchen", "DE")._tag).toBe("None")
    // The same answer every time; a call takes milliseconds once the names are indexed.
    const started = performance.now()
    for (let k = 0; k < 20; k++) expect(first("Muenchen", "de_DE")).toBe("München")
    expect((performance.now() - started) / 20).toBeLessThan(200)
  })
})

describe("what a name was read as", () => {
  const g = new Gazetteer([
    city(1, "Paris", "FR", 48.85, 2.35, 2_100_000),
    city(2, "Paris", "US", 33.66, -95.55, 25_000),
    city(3, "London", "GB", 51.5, -0.12, 8_900_000),
    city(4, "Lyon", "FR", 45.76, 4.84, 500_000)
  ])
  const t = translatorOf("en_GB")
  it("says which town a name in another country is, offers its namesakes, and nothing for a name at home", () => {
    const { reads } = readPlaces(g, new Map([["fn", "Paris"], ["tn", "London"]]), "en_GB")
    expect(reads.map((r) => [r.param, r.city?.id, r.surprising, r.others.map((c) => c.id)])).toEqual([
      ["fn", 1, true, [2]],
      ["tn", 3, false, []]
    ])
    const notice = placeNotice(g, reads, new Map([["fn", "Paris"], ["tn", "London"], ["locale", "en_GB"]]), "en_GB", t)!.text
    expect(notice).toContain("“Paris” is read as Paris, France.")
    expect(notice).toContain('href="/search?tn=London&amp;locale=en_GB&amp;fn=Paris%2C+United+States&amp;fid=2"')
    // Far from the other end (over 1,000 km), at home: said too. A country named: no namesakes.
    const far = readPlaces(g, new Map([["fn", "Paris"], ["tc", "33.6|-95.5"]]), "fr_FR").reads[0]!
    expect([far.surprising, far.others.length]).toEqual([true, 1])
    expect(readPlaces(g, new Map([["fn", "Paris, FR"], ["tn", "Lyon"]]), "fr_FR").reads.map((r) => r.surprising)).toEqual([false, false])
  })

  it("reads a picked town by its id while the field names it, and the name alone once it does not", () => {
    const picked = readPlaces(g, new Map([["fn", "Paris, United States"], ["fid", "2"]]), "en_GB").reads[0]!
    expect([picked.city?.id, picked.picked, picked.others.map((c) => c.id)]).toEqual([2, true, []])
    const edited = readPlaces(g, new Map([["fn", "London"], ["fid", "2"]]), "en_GB").reads[0]!
    expect([edited.city?.id, edited.picked]).toEqual([3, false])
    expect(readPlaces(g, new Map([["fn", "Paris"], ["fid", "x"]]), "en_GB").reads[0]!.city?.id).toBe(1)
  })

  it("names an unknown place and the nearest names", () => {
    const { reads } = readPlaces(g, new Map([["fn", "Pariss"]]), "fr_FR")
    expect(reads[0]!.city).toBeUndefined()
    expect(reads[0]!.nearest.map((c) => c.id)).toEqual([1, 2])
    const notice = placeNotice(g, reads, new Map([["fn", "Pariss"]]), "fr_FR", translatorOf("fr_FR"))!.text
    expect(notice).toContain("Nous ne connaissons pas de lieu appelé «\u202fPariss\u202f».")
    expect(notice).toContain(">Paris, France</a>")
  })
})

describe("the website's own filters", () => {
  it("keeps the rides of that experience and comfort, pages them, and counts each facet without its own filter, as a scan would", () => {
    const rnd = random(3)
    for (let run = 0; run < 100; run++) {
      const trips = Array.from({ length: Math.floor(rnd() * 250) }, (_, i) => ({
        permanent_id: rnd() < 0.5 ? `t${i}` : `t${i}_0_${1 + Math.floor(rnd() * 3)}`,
        car: { comfort_nb_star: 1 + Math.floor(rnd() * 4) }
      }))
      const experienceOf = new Map(trips.map((t) => [tripIdOf(t.permanent_id), Math.floor(rnd() * 5)]))
      const answers = [0, 100, 200].filter((start) => start === 0 || start < trips.length).map((start) => ({
        trips: trips.slice(start, start + 100),
        pager: { page: 1 + start / 100, pages: Math.ceil(trips.length / 100), total: trips.length, limit: 100 },
        facets: [{ name: "seats", type: "radio", items: [] }, { name: "experience", type: "radio", items: [] }, { name: "car_comfort", type: "checkbox", items: [] }]
      }))
      const experience = rnd() < 0.7 ? Math.floor(rnd() * 5) : undefined
      const comfort = rnd() < 0.7 ? 1 + Math.floor(rnd() * 4) : undefined
      const limit = 1 + Math.floor(rnd() * 20)
      const kept = trips.filter((t) => (experience === undefined || experienceOf.get(tripIdOf(t.permanent_id)) === experience) && (comfort === undefined || t.car.comfort_nb_star === comfort))
      const pages = Math.max(1, Math.ceil(kept.length / limit))
      const page = 1 + Math.floor(rnd() * pages)
      const out = websiteFiltered(answers, experienceOf, { experience, comfort }, page, limit)
      expect(out.trips).toEqual(kept.slice((page - 1) * limit, page * limit))
      expect(out.pager).toEqual({ page, pages, total: kept.length, limit })
      const facet = (name: string) => (out.facets as Array<Json>).find((f) => f.name === name)!.items
      expect(facet("experience")).toEqual(
        [0, 1, 2, 3, 4].map((v) => ({
          value: v,
          count: trips.filter((t) => experienceOf.get(tripIdOf(t.permanent_id)) === v && (comfort === undefined || t.car.comfort_nb_star === comfort)).length,
          is_selected: v === experience
        }))
      )
      expect(facet("car_comfort")).toEqual(
        [1, 2, 3, 4].map((v) => ({
          value: v,
          count: trips.filter((t) => t.car.comfort_nb_star === v && (experience === undefined || experienceOf.get(tripIdOf(t.permanent_id)) === experience)).length,
          is_selected: v === comfort
        }))
      )
      expect(facet("seats")).toEqual([])
    }
  })

  it("reads a stored trip's id from every form of permanent id", () => {
    expect(["3321-lyon-paris", "3321-lyon-paris_1_2", "3321-lyon-paris_m20365_2", "a_b_0_m7"].map(tripIdOf)).toEqual(["3321-lyon-paris", "3321-lyon-paris", "3321-lyon-paris", "a_b"])
  })
})

describe("a ride matched along the driver's road", () => {
  const place = (city: string, mp?: number) => ({ city_name: city, latitude: 46, longitude: 4.8, country_code: "FR", ...(mp !== undefined ? { meeting_point_id: mp } : {}) })
  const routing = (m: number) => ({ proximity: "CLOSE", routes: [{ distance_in_meters: m, type: "AS_THE_CROW_FLIES" }] })
  const ride = (id: string, type: string, extra: Json = {}): Json => ({
    permanent_id: id,
    corridoring_type: type,
    departure_place: place("Mâcon", id.includes("_m5_") ? 5 : undefined),
    arrival_place: place("Villefranche-sur-Saône", /_m9$/.test(id) ? 9 : undefined),
    departure_passenger_routing: routing(640),
    arrival_passenger_routing: routing(12_345),
    ...extra
  })
  const along = { from: "Mâcon", to: "Lyon", meetingPointName: (id: number) => (id === 9 ? "Aire de Lyon-Nord" : undefined) }
  const mp = { departure_meeting_point: { id: 5, name: "Gare de Mâcon-Ville" } }
  const en = translatorOf("en_GB")
  const said = (trip: Json, locale: "en_GB" | "fr_FR" | "cs_CZ" = "en_GB", a = along) => alongTheRoad(trip, a, locale, translatorOf(locale)).map((l) => `${l.end}|${l.text}`)

  it("says where the traveller is picked up and dropped off, how far from the towns searched, in the page's language", () => {
    expect(said(ride("t1_m5_2", "CORRIDORING", mp))).toEqual(["pickup|Picked up at Gare de Mâcon-Ville, 0.6 km from Mâcon"])
    expect(said(ride("t1_m5_2", "CORRIDORING", mp), "fr_FR")).toEqual(["pickup|Prise en charge\u202f: Gare de Mâcon-Ville (Mâcon à 0,6\u202fkm)"])
    // No preposition before the town: none that fits every town's name ("de Orléans", "à Le Havre").
    expect(said(ride("t1_m5_m9", "CORRIDORING", mp), "fr_FR", { ...along, from: "Orléans", to: "Le Havre" })).toEqual([
      "pickup|Prise en charge\u202f: Gare de Mâcon-Ville (Orléans à 0,6\u202fkm)",
      "dropoff|Dépose\u202f: Aire de Lyon-Nord (Le Havre à 12\u202fkm)"
    ])
    expect(said(ride("t1_0_m9", "CORRIDORING"))).toEqual(["dropoff|Dropped off at Aire de Lyon-Nord, 12 km from Lyon"])
    expect(said(ride("t1_m5_m9", "CORRIDORING", mp), "cs_CZ")).toEqual([
      "pickup|Nástup: Gare de Mâcon-Ville, 0,6 km od místa Mâcon",
      "dropoff|Výstup: Aire de Lyon-Nord, 12 km od místa Lyon"
    ])
    // A meeting point the store no longer names: the place's town.
    expect(said(ride("t1_0_m9", "CORRIDORING"), "en_GB", { ...along, meetingPointName: () => undefined })).toEqual(["dropoff|Dropped off at Villefranche-sur-Saône, 12 km from Lyon"])
  })

  it("says nothing of ends that are the driver's waypoints, even with their own meeting point", () => {
    expect(said(ride("t1_1_2", "PLANNED", mp))).toEqual([])
    expect(said(ride("t1", "PLANNED"))).toEqual([])
    // A waypoint's own meeting point at the departure, the arrival along the road: the arrival alone.
    expect(said(ride("t1_1_m9", "CORRIDORING", mp))).toEqual(["dropoff|Dropped off at Aire de Lyon-Nord, 12 km from Lyon"])
    expect(en("picked_up_along", { place: "A", distance: "1 km", town: "B" })).toBe("Picked up at A, 1 km from B")
  })

  it("names this passenger's ends by their meeting points: the departure's from the answer, the arrival's from the store", () => {
    const detail = ride("t1_m5_m9", "CORRIDORING", mp)
    expect(passengerEnds(detail, along.meetingPointName)).toEqual({ pickup: "Mâcon · Gare de Mâcon-Ville", dropoff: "Villefranche-sur-Saône · Aire de Lyon-Nord" })
    expect(passengerEnds(ride("t1_1_2", "PLANNED"))).toEqual({ pickup: "Mâcon", dropoff: "Villefranche-sur-Saône" })
  })
})

describe("the price facet's ranges", () => {
  it("maps each range onto pmin/pmax, cut where the next whole unit has no ride so that the facet's count is exact", () => {
    const rnd = random(5)
    for (let run = 0; run < 300; run++) {
      // Prices in cents, a third of them whole (the API's 28.00 is in both 27 to 28 and 28 to 29).
      const prices = Array.from({ length: Math.floor(rnd() * 60) }, () => {
        const cents = Math.floor(rnd() * (rnd() < 0.5 ? 3000 : 40000))
        return (rnd() < 0.3 ? cents - (cents % 100) : cents) / 100
      })
      const floors = new Map<number, number>()
      for (const p of prices) floors.set(Math.floor(p), (floors.get(Math.floor(p)) ?? 0) + 1)
      const items = [...floors].map(([value, count]) => ({ value, count }))
      const ranges = priceRanges(items)
      for (const r of ranges) {
        expect(Number.isInteger(r.min) && Number.isInteger(r.max) && r.min < r.max).toBe(true)
        // What the API would select with pmin=min&pmax=max (inclusive); a count, when given, is that.
        if (r.count !== undefined) expect(r.count).toBe(prices.filter((p) => p >= r.min && p <= r.max).length)
      }
      // Every ride's price lies in a range.
      for (const p of prices) expect(ranges.some((r) => p >= r.min && p <= r.max)).toBe(true)
      // A range holding over 60% of the rides, counted by brute force, is left only when the
      // balanced ranges (cut at a fifth of the rides, gap or not) are those very ranges.
      const sorted = [...items].sort((a, b) => a.value - b.value)
      const balanced: Array<[number, number]> = []
      let start = 0
      let sum = 0
      sorted.forEach((item, k) => {
        sum += item.count
        if (k === sorted.length - 1 || sum >= prices.length / 5) {
          balanced.push([sorted[start]!.value, item.value + 1])
          start = k + 1
          sum = 0
        }
      })
      const lopsided = ranges.some((r) => r.count !== undefined && prices.filter((p) => p >= r.min && p <= r.max).length > 0.6 * prices.length)
      if (lopsided && items.length >= 2) expect(ranges.map((r) => [r.min, r.max])).toEqual(balanced)
    }
    // Paris–Lyon: 808 rides from 23 to 53, 2 at 54: five balanced ranges rather than 808 beside 2.
    const paris = [...Array.from({ length: 30 }, (_, k) => ({ value: 23 + k, count: k < 28 ? 27 : 26 })), { value: 54, count: 2 }]
    expect(paris.reduce((n, i) => n + i.count, 0)).toBe(810)
    const ranges = priceRanges(paris)
    expect(ranges.length).toBeGreaterThanOrEqual(4)
    expect(ranges.every((r) => (r.count ?? 0) <= 0.6 * 810)).toBe(true)
    expect(ranges[0]!.min).toBe(23)
    expect(ranges.at(-1)!.max).toBe(55)
    // Whole prices side by side: 27 and 28 cannot be told apart; the range says 27 to 28, no count.
    expect(priceRanges([{ value: 27, count: 27 }, { value: 28, count: 3 }])).toEqual([{ min: 27, max: 28, count: undefined }, { min: 28, max: 29, count: 3 }])
    expect(priceRanges([{ value: 12, count: 4 }, { value: 30, count: 2 }])).toEqual([{ min: 12, max: 13, count: 4 }, { min: 30, max: 31, count: 2 }])
  })

  it("writes a range in the locale's way with the search's currency", () => {
    expect(formatPriceRange(27, 28, "EUR", "fr_FR").replace(/\s/g, " ")).toBe("27–28 €")
    expect(formatPriceRange(27, 28, "GBP", "en_GB")).toBe("£27 – £28")
    expect(formatPriceRange(1000, 2000, "CZK", "cs_CZ").replace(/\s/g, " ")).toBe("1 000–2 000 Kč")
  })
})

describe("a place field's suggestions", () => {
  it("read differently, each town named with the larger town near it when the list has its namesake", () => {
    const g = Gazetteer.shared()
    for (const [q, locale] of [["Lyons", "fr_FR"], ["Берлингтон", "ru_RU"], ["Burlington", "uk_UA"], ["Springfield", "en_GB"], ["Paris", "pl_PL"]] as const) {
      const labels = suggestionLabels(g.suggest(q, locale, 8), locale, translatorOf(locale))
      expect(new Set(labels).size, labels.join("; ")).toBe(labels.length)
    }
    const fr = suggestionLabels(g.suggest("Lyons", "fr_FR", 8), "fr_FR", translatorOf("fr_FR"))
    expect(fr.every((l) => /^Lyons \(vers [^)]+\), (États-Unis|Australie)$/.test(l)), fr.join("; ")).toBe(true)
    const ru = suggestionLabels(g.suggest("Берлингтон", "ru_RU", 8), "ru_RU", translatorOf("ru_RU"))
    expect(ru).toContain("Берлингтон (недалеко от населённого пункта Гринсборо), Соединенные Штаты")
  })

  it("fall back on coordinates when the larger town near them is the same", () => {
    const same = { name: "Lyons", countryCode: "US", population: 3_000, near: "Geneva" }
    const labels = suggestionLabels(
      [{ ...same, id: 1, lat: 43.06, lon: -76.99 }, { ...same, id: 2, lat: 42.9, lon: -77.1 }, { id: 3, name: "Lyon", countryCode: "FR", population: 500_000, lat: 45.76, lon: 4.84 }],
      "en_GB",
      translatorOf("en_GB")
    )
    expect(labels).toEqual(["Lyons (near Geneva), United States (43.06°, -76.99°)", "Lyons (near Geneva), United States (42.90°, -77.10°)", "Lyon, France"])
  })
})

describe("the form's folded criteria", () => {
  it("open when one of them is set, not for the order every search sends nor for blank fields", () => {
    const params = (q: string) => new Map(new URLSearchParams(q))
    expect(moreSet(params("fn=Paris&tn=Lyon&order=asc"))).toBe(false)
    expect(moreSet(params("fn=Paris&tn=Lyon&fc=&tc=&hb=&he=&pmin=&pmax=&sort=&order=asc"))).toBe(false)
    expect(moreSet(params("fn=Paris&tn=Lyon&order=desc"))).toBe(true)
    expect(moreSet(params("fn=Paris&tn=Lyon&hb=8&order=asc"))).toBe(true)
    expect(moreSet(params("fn=Paris&sort=trip_price"))).toBe(true)
  })
})
