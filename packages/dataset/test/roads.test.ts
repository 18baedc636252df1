import polyline from "@mapbox/polyline"
import type { FeedTripInput } from "@tripsearch/core"
import { beforeAll, describe, expect, it } from "vitest"
import { FeedWorld } from "../src/FeedWorld.js"
import { generateFeed } from "../src/generateFeed.js"
import { type GeneratedMeetingPoint, generateMeetingPoints } from "../src/generateMeetingPoints.js"
import { haversineKm } from "../src/haversineKm.js"
import { meetingPointLines } from "../src/meetingPointLines.js"
import { RoadNetwork } from "../src/RoadNetwork.js"
import { TripNetwork } from "../src/TripNetwork.js"

const NOW = Date.parse("2026-03-01T10:07:31Z")
type Leg = FeedTripInput["legs"][number] & { readonly path?: string }
const legsOf = (t: FeedTripInput) => t.legs as ReadonlyArray<Leg>
const lengthKm = (points: ReadonlyArray<[number, number]>) => {
  let km = 0
  for (let k = 1; k < points.length; k++) km += haversineKm(points[k - 1]![0], points[k - 1]![1], points[k]![0], points[k]![1])
  return km
}

let trips: Array<FeedTripInput> = []
let points: Array<GeneratedMeetingPoint> = []
beforeAll(() => {
  trips = [...generateFeed({ trips: 4000, seed: "roads", nowMs: NOW })]
  points = [...generateMeetingPoints()]
}, 60_000)

describe("roads on the legs", () => {
  it("gives every leg a path that decodes, with 2..10,000 points, from within 0.1 km of its waypoint to within 0.1 km of the next", () => {
    const bad: Array<string> = []
    for (const t of trips) {
      legsOf(t).forEach((leg, k) => {
        const road = polyline.decode(leg.path!, 5)
        const a = t.waypoints[k]!
        const b = t.waypoints[k + 1]!
        const first = haversineKm(road[0]![0], road[0]![1], a.lat, a.lon)
        const last = haversineKm(road[road.length - 1]![0], road[road.length - 1]![1], b.lat, b.lon)
        if (road.length < 2 || road.length > 10_000 || first > 0.1 || last > 0.1) bad.push(`${t.id} leg ${k}: ${road.length} points, ${first} km, ${last} km`)
      })
    }
    expect(bad).toEqual([])
  })

  it("has a point every 1 to 3 km on average, on each leg of 10 km or more and over all", () => {
    let totalKm = 0
    let totalGaps = 0
    const bad: Array<string> = []
    for (const t of trips) {
      for (const leg of legsOf(t)) {
        const road = polyline.decode(leg.path!, 5)
        const km = lengthKm(road)
        totalKm += km
        totalGaps += road.length - 1
        const spacing = km / (road.length - 1)
        if (km >= 10 && (spacing < 1 || spacing > 3)) bad.push(`${t.id}: ${km.toFixed(1)} km in ${road.length} points`)
      }
    }
    expect(bad).toEqual([])
    expect(totalKm / totalGaps).toBeGreaterThan(1.5)
    expect(totalKm / totalGaps).toBeLessThan(2.5)
  })

  it("is a road, not a straight line: never shorter than the great circle, a few percent longer at the median, under 1.6 times it for 95%", () => {
    const ratios: Array<number> = []
    for (const t of trips) {
      legsOf(t).forEach((leg, k) => {
        const a = t.waypoints[k]!
        const b = t.waypoints[k + 1]!
        const crow = haversineKm(a.lat, a.lon, b.lat, b.lon)
        if (crow >= 50) ratios.push(lengthKm(polyline.decode(leg.path!, 5)) / crow)
      })
    }
    ratios.sort((x, y) => x - y)
    expect(ratios.length).toBeGreaterThan(500)
    expect(ratios[0]!).toBeGreaterThanOrEqual(1)
    // Median and 95th percentile: roads wind, a few a lot, none absurdly.
    expect(ratios[Math.floor(ratios.length / 2)]!).toBeGreaterThan(1.03)
    expect(ratios[Math.floor(ratios.length * 0.95)]!).toBeLessThan(1.6)
  })

  it("gives trips between the same towns the same road", () => {
    const byPair = new Map<string, Set<string>>()
    for (const t of trips) {
      if (t.waypoints.length !== 2) continue
      const [a, b] = t.waypoints
      const key = `${a!.lat},${a!.lon}>${b!.lat},${b!.lon}`
      byPair.set(key, (byPair.get(key) ?? new Set()).add(legsOf(t)[0]!.path!))
    }
    const shared = [...byPair.values()].filter((paths) => paths.size >= 1)
    expect(shared.length).toBeGreaterThan(100)
    expect([...byPair.entries()].filter(([, paths]) => paths.size > 1)).toEqual([])
    // And the network's busy pairs do repeat.
    const repeated = new Map<string, number>()
    for (const t of trips) {
      if (t.waypoints.length !== 2) continue
      const key = `${t.waypoints[0]!.city}>${t.waypoints[1]!.city}`
      repeated.set(key, (repeated.get(key) ?? 0) + 1)
    }
    expect([...repeated.values()].filter((n) => n >= 2).length).toBeGreaterThan(20)
  })

  it("runs a trip's stop-overs' legs along the road of its ends: every road point of the legs is a point of that road, or on a spur to a stop-over", () => {
    const roads = RoadNetwork.shared(FeedWorld.shared(), TripNetwork.shared(FeedWorld.shared()))
    const world = FeedWorld.shared()
    const indexOf = new Map<string, number>()
    for (let i = 0; i < world.size; i++) indexOf.set(`${world.lat[i]},${world.lon[i]}`, i)
    let checked = 0
    for (const t of trips.filter((t) => t.waypoints.length >= 3).slice(0, 200)) {
      const ws = t.waypoints
      const road = roads.road(indexOf.get(`${ws[0]!.lat},${ws[0]!.lon}`)!, indexOf.get(`${ws[ws.length - 1]!.lat},${ws[ws.length - 1]!.lon}`)!)
      const onRoad = new Set(polyline.decode(road.encoded(), 5).map(([lat, lon]) => `${lat},${lon}`))
      legsOf(t).forEach((leg, k) => {
        const path = polyline.decode(leg.path!, 5)
        const off = path.filter(([lat, lon]) => !onRoad.has(`${lat},${lon}`))
        // Off the road: only the straight spurs to and from the stop-overs, within 16 km of them.
        for (const [lat, lon] of off) {
          const nearStop = [ws[k]!, ws[k + 1]!].some((w) => haversineKm(lat, lon, w.lat, w.lon) <= 16)
          expect(nearStop, `${t.id} leg ${k}: ${lat},${lon}`).toBe(true)
        }
        checked++
      })
    }
    expect(checked).toBeGreaterThan(400)
  })

  it("bends through the towns between its ends, as the motorways do", () => {
    const world = FeedWorld.shared()
    const roads = RoadNetwork.shared(world, TripNetwork.shared(world))
    const town = (name: string) => {
      let best = -1
      for (let i = 0; i < world.size; i++) if (world.name[i] === name && (best < 0 || world.population[i]! > world.population[best]!)) best = i
      expect(best, name).toBeGreaterThanOrEqual(0)
      return best
    }
    const passes = (from: string, to: string, through: string) => {
      const road = polyline.decode(roads.road(town(from), town(to)).encoded(), 5)
      const t = town(through)
      return Math.min(...road.map(([lat, lon]) => haversineKm(lat, lon, world.lat[t]!, world.lon[t]!)))
    }
    for (const [from, to, through] of [
      ["Paris", "Lyon", "Auxerre"],
      ["Paris", "Lyon", "Mâcon"],
      ["Paris", "Tours", "Orléans"],
      ["Stuttgart", "Munich", "Ulm"],
      ["Stuttgart", "Munich", "Augsburg"],
      ["Ulm", "Munich", "Augsburg"],
      ["Milan", "Rome", "Florence"],
      ["Moscow", "Saint Petersburg", "Tver"]
    ] as const) {
      expect([from, to, through, passes(from, to, through) <= 3]).toEqual([from, to, through, true])
    }
  })

  it("leaves legs without path with --roads off, and the trips otherwise the same", () => {
    const withRoads = [...generateFeed({ trips: 500, seed: "roads", nowMs: NOW })]
    const without = [...generateFeed({ trips: 500, seed: "roads", nowMs: NOW, roads: false })]
    for (const t of without) expect(legsOf(t).every((l) => l.path === undefined)).toBe(true)
    const stripped = withRoads.map((t) => ({ ...t, legs: legsOf(t).map(({ path: _, ...leg }) => leg) }))
    expect(without).toEqual(stripped)
  })

  it("has about a third of the trips ON_TIME", () => {
    const share = trips.filter((t) => t.detour === "ON_TIME").length / trips.length
    expect(share).toBeGreaterThan(0.3)
    expect(share).toBeLessThan(0.37)
    expect(new Set(trips.map((t) => t.detour))).toEqual(new Set([undefined, "ON_TIME", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS"]))
  })
})

describe("meeting points", () => {
  it("writes lines of the meeting point feed's rules: unique ids, names, full names, tags, coordinates", () => {
    const ids = new Set<number>()
    const bad: Array<string> = []
    for (const p of points) {
      const problems = [
        Number.isInteger(p.id) && p.id >= 1 && p.id <= 2_147_483_647 && !ids.has(p.id) ? "" : "id",
        p.status === undefined || p.status === "active" || p.status === "removed" ? "" : "status",
        p.name.length >= 1 && p.name.length <= 200 ? "" : "name",
        p.full_name.startsWith(`${p.name}, `) && p.full_name.length <= 300 ? "" : "full_name",
        p.city.length > 0 ? "" : "city",
        p.address === undefined || p.address.length > 0 ? "" : "address",
        Math.abs(p.lat) <= 90 && Math.abs(p.lon) <= 180 ? "" : "lat/lon",
        /^[A-Z]{2}$/.test(p.country) ? "" : "country",
        p.tags.length <= 10 && p.tags.every((tag) => /^[A-Z][A-Z_]{0,39}$/.test(tag)) ? "" : "tags"
      ].filter((x) => x !== "")
      if (problems.length > 0) bad.push(`${p.id}: ${problems.join(", ")}`)
      ids.add(p.id)
      expect(Object.keys(p).filter((k) => !["id", "status", "name", "full_name", "city", "address", "lat", "lon", "country", "tags"].includes(k))).toEqual([])
    }
    expect(bad).toEqual([])
    expect(points.some((p) => p.address !== undefined)).toBe(true)
    expect(points.some((p) => p.status === "removed")).toBe(true)
  })

  it("has a town centre in every town of 5,000 and a station in every town of 50,000 of the generator's world", () => {
    const world = FeedWorld.shared()
    const centres = new Set(points.filter((p) => p.tags.includes("CITY_CENTER")).map((p) => `${p.city}|${p.country}`))
    const stations = new Set(points.filter((p) => p.tags.includes("TRAIN_STATION")).map((p) => `${p.city}|${p.country}`))
    for (let i = 0; i < world.size; i++) {
      if (world.population[i]! >= 5000) expect(centres.has(`${world.name[i]}|${world.country[i]}`)).toBe(true)
      if (world.population[i]! >= 50_000) expect(stations.has(`${world.name[i]}|${world.country[i]}`)).toBe(true)
    }
  })

  it("puts exits and service areas on the busy roads, a few just beyond 1 km of them, in the country's language", () => {
    const world = FeedWorld.shared()
    const roads = RoadNetwork.shared(world, TripNetwork.shared(world))
    const busy = roads.busyRoads(["FR", "DE", "IT"], 40, 0.002).map((r) => polyline.decode(roads.road(r.from, r.to).encoded(), 5))
    const distanceToRoads = (p: GeneratedMeetingPoint) =>
      Math.min(...busy.map((road) => Math.min(...road.map(([lat, lon]) => haversineKm(lat, lon, p.lat, p.lon)))))
    const of = (tag: string) => points.filter((p) => p.tags.includes(tag) && ["FR", "DE", "IT"].includes(p.country))
    for (const tag of ["HIGHWAY_EXIT", "SERVICE_AREA"]) {
      const list = of(tag)
      expect(list.length, tag).toBeGreaterThan(100)
      for (const p of list.slice(0, 150)) expect([p.name, distanceToRoads(p) <= 0.4]).toEqual([p.name, true])
    }
    const parks = of("PARK_AND_RIDE").slice(0, 100).map(distanceToRoads)
    expect(parks.filter((km) => km > 1 && km < 2).length).toBeGreaterThan(50)
    const names = points.map((p) => p.name)
    for (const name of ["Sortie 55 Mâcon-Sud", "Ausfahrt Augsburg-Ost", "Gare d'Orléans", "Augsburg Hbf", "Mâcon Centre-ville"]) expect(names).toContain(name)
    for (const pattern of [/^Aire d/, /^Raststätte /, /^Area di servizio /, /^Stazione di /, /^Uscita /, /^Estación de /, /^Węzeł /, /^Вокзал /]) {
      expect(names.some((n) => pattern.test(n)), String(pattern)).toBe(true)
    }
  })

  it("is deterministic, and the same whatever the trip feed's seed", () => {
    const a = [...meetingPointLines({ seed: "a" })]
    const b = [...meetingPointLines({ seed: "b" })]
    expect(b).toEqual(a)
    expect(a).toEqual(points.map((p) => JSON.stringify(p)))
  })

  it("is what the waypoints' meeting_point_id name: their town's centre or station, on about as many waypoints as before", () => {
    const byId = new Map(points.map((p) => [p.id, p]))
    const waypoints = trips.flatMap((t) => t.waypoints)
    const named = waypoints.filter((w) => w.meeting_point_id !== undefined)
    for (const w of named) {
      const p = byId.get(w.meeting_point_id!)
      expect(p?.city).toBe(w.city)
      expect(haversineKm(p!.lat, p!.lon, w.lat, w.lon)).toBeLessThan(2)
      expect(p!.tags.some((tag) => tag === "CITY_CENTER" || tag === "TRAIN_STATION")).toBe(true)
    }
    // 12% of the waypoints drew one before; towns under 5,000 have none.
    expect(named.length / waypoints.length).toBeGreaterThan(0.1)
    expect(named.length / waypoints.length).toBeLessThan(0.13)
    expect(named.some((w) => byId.get(w.meeting_point_id!)!.tags.includes("TRAIN_STATION"))).toBe(true)
  })
})

describe("the dense feed", () => {
  it("runs every trip between two of its country's 100 largest towns, the big pairs many times", () => {
    const world = FeedWorld.shared()
    const largest = new Map<string, Set<string>>()
    const byCountry = new Map<string, Array<number>>()
    for (let i = 0; i < world.size; i++) byCountry.set(world.country[i]!, [...(byCountry.get(world.country[i]!) ?? []), i])
    for (const [country, towns] of byCountry) {
      const top = towns.sort((a, b) => world.population[b]! - world.population[a]! || a - b).slice(0, 100)
      largest.set(country, new Set(top.map((i) => `${world.lat[i]},${world.lon[i]}`)))
    }
    const dense = [...generateFeed({ trips: 2000, seed: "dense", nowMs: NOW, dense: true })]
    for (const t of dense) {
      const ends = [t.waypoints[0]!, t.waypoints[t.waypoints.length - 1]!]
      for (const w of ends) expect([t.id, largest.get(ends[0]!.country)!.has(`${w.lat},${w.lon}`)]).toEqual([t.id, true])
    }
    const pairs = new Map<string, number>()
    for (const t of dense) pairs.set(`${t.waypoints[0]!.city}>${t.waypoints[t.waypoints.length - 1]!.city}`, (pairs.get(`${t.waypoints[0]!.city}>${t.waypoints[t.waypoints.length - 1]!.city}`) ?? 0) + 1)
    expect(Math.max(...pairs.values())).toBeGreaterThanOrEqual(8)
    expect(dense.every((t) => legsOf(t).every((l) => typeof l.path === "string"))).toBe(true)
  })
})
