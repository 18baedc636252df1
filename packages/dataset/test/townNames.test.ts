import type { FeedTripInput } from "@tripsearch/core"
import { beforeAll, describe, expect, it } from "vitest"
import { FeedWorld } from "../src/FeedWorld.js"
import { generateFeed } from "../src/generateFeed.js"
import { type GeneratedMeetingPoint, generateMeetingPoints } from "../src/generateMeetingPoints.js"
import { MEETING_POINT_IDS } from "../src/meetingPointIds.js"

const NOW = Date.parse("2026-03-01T10:07:31Z")

let points: Array<GeneratedMeetingPoint> = []
let trips: Array<FeedTripInput> = []
beforeAll(() => {
  points = [...generateMeetingPoints()]
  trips = [...generateFeed({ trips: 5000, seed: "town-names", nowMs: NOW })]
}, 60_000)

/** The largest town of the generator's world with this GeoNames name in this country. */
const townOf = (name: string, country: string): number => {
  const world = FeedWorld.shared()
  let best = -1
  for (let i = 0; i < world.size; i++) {
    if (world.name[i] === name && world.country[i] === country && (best < 0 || world.population[i]! > world.population[best]!)) best = i
  }
  if (best < 0) throw new Error(`no ${name} in ${country}`)
  return best
}

// GeoNames name, country, the town as its country's language writes it, that town's centre.
const TOWNS: ReadonlyArray<readonly [string, string, string, string]> = [
  ["Munich", "DE", "München", "München Zentrum"],
  // GeoNames' own name already.
  ["Köln", "DE", "Köln", "Köln Zentrum"],
  ["Vienna", "AT", "Wien", "Wien Zentrum"],
  ["Prague", "CZ", "Praha", "Praha centrum"],
  ["Warsaw", "PL", "Warszawa", "Warszawa Centrum"],
  ["Belgrade", "RS", "Beograd", "Beograd centar"],
  ["Rome", "IT", "Roma", "Roma Centro"],
  ["Lisbon", "PT", "Lisboa", "Lisboa Centro"],
  // North of the language line the generator draws across Belgium: Dutch.
  ["Brussels", "BE", "Brussel", "Brussel Centrum"]
]

describe("town names in meeting points", () => {
  it("names a town's meeting points, full names and addresses with the town as its country's language writes it", () => {
    const byId = new Map(points.map((p) => [p.id, p]))
    let addresses = 0
    for (const [geonames, country, local, centre] of TOWNS) {
      const town = townOf(geonames, country)
      const own = [MEETING_POINT_IDS.centre(town), MEETING_POINT_IDS.station(town), MEETING_POINT_IDS.exit(town), MEETING_POINT_IDS.parkAndRide(town)]
        .map((id) => byId.get(id))
        .filter((p) => p !== undefined)
      expect(own.length, geonames).toBeGreaterThanOrEqual(2)
      expect(byId.get(MEETING_POINT_IDS.centre(town))!.name).toBe(centre)
      for (const p of own) {
        expect(p.name, p.name).toContain(local)
        expect(p.full_name).toBe(`${p.name}, ${local}`)
        // The API names `city` in the reader's locale, from the GeoNames name.
        expect(p.city).toBe(geonames)
        if (p.address !== undefined) {
          expect(p.address).toMatch(new RegExp(`, ${local}$`))
          addresses++
        }
        if (geonames !== local) expect(`${p.name} ${p.full_name} ${p.address ?? ""}`).not.toContain(geonames)
      }
    }
    expect(addresses).toBeGreaterThanOrEqual(4)
  })

  it("writes no German meeting point with Munich nor any Serbian one with Belgrade", () => {
    const texts = (p: GeneratedMeetingPoint) => `${p.name}|${p.full_name}|${p.address ?? ""}`
    const german = points.filter((p) => p.country === "DE")
    const serbian = points.filter((p) => p.country === "RS")
    expect(german.filter((p) => texts(p).includes("München")).length).toBeGreaterThan(1)
    expect(german.filter((p) => texts(p).includes("Munich"))).toEqual([])
    expect(serbian.filter((p) => texts(p).includes("Beograd")).length).toBeGreaterThan(1)
    expect(serbian.filter((p) => texts(p).includes("Belgrade"))).toEqual([])
    // Serbian in Latin, as the sr_Latn_RS locale reads it.
    expect(serbian.filter((p) => /\p{Script=Cyrillic}/u.test(texts(p)))).toEqual([])
  })

  it("keeps GeoNames' local names where English only stands in for the country's language", () => {
    const names = points.map((p) => p.full_name)
    expect(names).toContain("Malmö Town Centre, Malmö")
    expect(names.some((n) => n.includes("Malmo"))).toBe(false)
  })
})

describe("town names in trip addresses", () => {
  it("writes a waypoint's address with the town in the driver's language", () => {
    const addresses = trips.flatMap((t) => t.waypoints.flatMap((w) => (w.address === undefined ? [] : [w.address])))
    const german = addresses.filter((a) => /^(Hauptbahnhof, |Marktplatz, |Busbahnhof |Rathaus, )/.test(a))
    const russian = addresses.filter((a) => /^(Ж\/д вокзал, |Автовокзал, |Центральная площадь, )/.test(a))
    expect(german.filter((a) => /(München|Wien|Köln)$/.test(a)).length).toBeGreaterThan(0)
    expect(german.filter((a) => /(Munich|Vienna|Cologne)$/.test(a))).toEqual([])
    expect(russian.filter((a) => a.endsWith("Москва")).length).toBeGreaterThan(0)
    expect(russian.filter((a) => /(Moscow|Saint Petersburg)$/.test(a))).toEqual([])
  })
})
