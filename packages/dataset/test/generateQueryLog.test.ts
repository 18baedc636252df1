import { LOCALE_TABLE, LOCALES } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { feedLines } from "../src/feedLines.js"
import { busyRoadSearches } from "../src/busyRoadSearches.js"
import { generateQueryLog, type QueryLogTrip } from "../src/generateQueryLog.js"
import { haversineKm } from "../src/haversineKm.js"

const NOW = Date.UTC(2024, 4, 1)
const trips = [...feedLines({ trips: 400, seed: 7, nowMs: NOW })].map((l) => JSON.parse(l) as QueryLogTrip)
const log = (seed: number, count = 3000) => [...generateQueryLog({ trips, count, seed, startMs: NOW })]

describe("generateQueryLog", () => {
  it("is deterministic for a seed", () => {
    expect(log(1, 200)).toEqual(log(1, 200))
    expect(log(2, 200)).not.toEqual(log(1, 200))
  })

  it("writes the query log's record shape, in time order", () => {
    const records = log(3)
    expect(records).toHaveLength(3000)
    let last = 0
    for (const r of records) {
      expect(Object.keys(r)).toEqual(["time", "path", "query", "status", "duration_ms"])
      expect(r.path).toMatch(/^\/api\/v2\/trips(\/[^/]+(\/threads)?)?$/)
      const t = Date.parse(r.time)
      expect(t).toBeGreaterThanOrEqual(last)
      last = t
    }
    expect(Date.parse(records[0]!.time)).toBe(NOW)
  })

  it("covers the parameters, every locale with a currency of it, and reads details and threads", () => {
    const records = log(4)
    const params = records.map((r) => new URLSearchParams(r.query))
    const has = (name: string) => params.filter((p) => p.has(name)).length
    for (const name of ["fn", "tn", "fc", "tc", "db", "de", "hb", "he", "seats", "pmin", "pmax", "sort", "order", "page", "limit"]) {
      expect(has(name), name).toBeGreaterThan(10)
    }
    const values = (name: string) => new Set(params.map((p) => p.get(name)).filter((v) => v !== null))
    expect(values("sort")).toEqual(new Set(["trip_date", "trip_price"]))
    expect(values("order")).toEqual(new Set(["asc", "desc"]))
    expect(values("_format")).toEqual(new Set(["json", "xml"]))
    expect(new Set(values("locale"))).toEqual(new Set(LOCALES))
    for (const p of params) {
      const info = LOCALE_TABLE[p.get("locale") as (typeof LOCALES)[number]]
      expect([info.currency, info.alternative]).toContain(p.get("cur"))
      expect(p.get("fc") ?? "0.0|0.0").toMatch(/^-?\d+\.\d+\|-?\d+\.\d+$/)
    }
    expect(new Set(params.map((p) => p.get("cur")))).toContain("UAH")
    const single = params.filter((p) => (p.has("fn") || p.has("fc")) !== (p.has("tn") || p.has("tc")))
    expect(single.length).toBeGreaterThan(50)
    expect(records.some((r) => r.path.endsWith("/threads"))).toBe(true)
    expect(records.some((r) => /^\/api\/v2\/trips\/[^/]+$/.test(r.path))).toBe(true)
  })

  it("asks for busy city pairs more often than rare ones", () => {
    const counts = new Map<string, number>()
    for (const r of log(5)) {
      const p = new URLSearchParams(r.query)
      if (p.has("fn") && p.has("tn")) counts.set(`${p.get("fn")}>${p.get("tn")}`, (counts.get(`${p.get("fn")}>${p.get("tn")}`) ?? 0) + 1)
    }
    const sorted = [...counts.values()].sort((a, b) => b - a)
    expect(sorted[0]!).toBeGreaterThan(3 * sorted[Math.floor(sorted.length / 2)]!)
  })

  describe("the heavy mix", () => {
    const heavy = (seed: number, count = 3000) => [...generateQueryLog({ trips, count, seed, startMs: NOW, mix: "heavy" })]

    it("is deterministic for a seed and differs from the default mix", () => {
      expect(heavy(1, 200)).toEqual(heavy(1, 200))
      expect(heavy(1, 200)).not.toEqual(log(1, 200))
    })

    it("asks only searches: pairs and single places, radii of 1-300 km, every filter, later pages", () => {
      const params = heavy(6).map((r) => {
        expect(r.path).toBe("/api/v2/trips")
        return new URLSearchParams(r.query)
      })
      const share = (test: (p: URLSearchParams) => boolean) => params.filter(test).length / params.length
      const from = (p: URLSearchParams) => p.has("fn") || p.has("fc")
      const to = (p: URLSearchParams) => p.has("tn") || p.has("tc")
      expect(share((p) => from(p) !== to(p))).toBeGreaterThan(0.25)
      expect(share((p) => from(p) && to(p))).toBeGreaterThan(0.5)
      expect(share((p) => !from(p) && !to(p))).toBe(0)
      const radii = params.flatMap((p) => ["radius", "radius_from", "radius_to"].map((k) => p.get(k)).filter((v) => v !== null).map(Number))
      expect(Math.min(...radii)).toBe(1)
      expect(Math.max(...radii)).toBeGreaterThanOrEqual(290)
      expect(radii.filter((r) => r >= 100).length).toBeGreaterThan(100)
      for (const name of ["db", "de", "hb", "he", "seats", "pmin", "pmax", "photo", "aa", "shortlines", "sort", "order", "limit"]) {
        expect(share((p) => p.has(name)), name).toBeGreaterThan(0.02)
      }
      expect(share((p) => Number(p.get("page") ?? 1) >= 5)).toBeGreaterThan(0.1)
      for (const p of params) {
        const info = LOCALE_TABLE[p.get("locale") as (typeof LOCALES)[number]]
        expect([info.currency, info.alternative]).toContain(p.get("cur"))
        for (const k of ["radius", "radius_from", "radius_to"]) {
          const v = p.get(k)
          if (v !== null) expect(Number(v)).toSatisfy((r: number) => Number.isInteger(r) && r >= 1 && r <= 300)
        }
      }
    })

    it("lands on the busy roads: a third of its searches from a town a busy road passes to the road's end or beyond", () => {
      const roads = busyRoadSearches()
      // A place of the query: named, or given by coordinates within 3 km of the town's centre.
      type Named = { readonly name: string | null; readonly lat: number; readonly lon: number }
      const parse = (name: string | null, coords: string | null): Named => {
        const [lat, lon] = (coords ?? "NaN|NaN").split("|").map(Number)
        return { name, lat: lat!, lon: lon! }
      }
      const atPlace = (q: Named, p: { city: string; lat: number; lon: number }) =>
        q.name === p.city || (Math.abs(q.lat - p.lat) < 0.05 && Math.abs(q.lon - p.lon) < 0.05 && haversineKm(q.lat, q.lon, p.lat, p.lon) <= 3)
      const along = heavy(8).filter((r) => {
        const p = new URLSearchParams(r.query)
        const from = parse(p.get("fn"), p.get("fc"))
        const to = parse(p.get("tn"), p.get("tc"))
        return roads.some((road) => road.along.some((a) => atPlace(from, a)) && road.ends.some((e) => atPlace(to, e)))
      })
      expect(along.length / 3000).toBeGreaterThan(0.3)
      expect(along.length / 3000).toBeLessThan(0.45)
      // Not only the trips' own pairs: none of these towns is a waypoint of the sample's trips.
      const waypoints = new Set(trips.flatMap((t) => t.waypoints.map((w) => w.city)))
      const from = along.map((r) => new URLSearchParams(r.query)).filter((p) => p.has("fn")).map((p) => p.get("fn")!)
      expect(from.filter((city) => !waypoints.has(city)).length).toBeGreaterThan(from.length / 2)
      expect([...generateQueryLog({ trips, count: 300, seed: 8, startMs: NOW, mix: "heavy", roads: [] })]).not.toEqual(heavy(8, 300))
    })
  })

  describe("the wide mix", () => {
    it("asks single places and pairs with radius, radius_from or radius_to of 100 to 500 km", () => {
      const params = [...generateQueryLog({ trips, count: 2000, seed: 9, startMs: NOW, mix: "wide" })].map((r) => new URLSearchParams(r.query))
      const from = (p: URLSearchParams) => p.has("fn") || p.has("fc")
      const to = (p: URLSearchParams) => p.has("tn") || p.has("tc")
      expect(params.filter((p) => from(p) && to(p)).length).toBeGreaterThan(600)
      expect(params.filter((p) => from(p) !== to(p)).length).toBeGreaterThan(1000)
      for (const p of params) {
        const radii = ["radius", "radius_from", "radius_to"].map((k) => p.get(k)).filter((v) => v !== null).map(Number)
        expect(radii.length).toBeGreaterThan(0)
        for (const r of radii) expect(r).toSatisfy((x: number) => Number.isInteger(x) && x >= 100 && x <= 500)
      }
      for (const k of ["radius", "radius_from", "radius_to"]) expect(params.some((p) => p.has(k)), k).toBe(true)
    })
  })

  describe("the dense mix", () => {
    it("asks pairs of the feed's own towns at the default radius, by coordinates or names", () => {
      const log = [...generateQueryLog({ trips, count: 1000, seed: 10, startMs: NOW, mix: "dense" })]
      const towns = new Set(trips.flatMap((t) => t.waypoints.map((w) => w.city)))
      const params = log.map((r) => new URLSearchParams(r.query))
      for (const p of params) {
        expect((p.has("fn") || p.has("fc")) && (p.has("tn") || p.has("tc"))).toBe(true)
        for (const k of ["radius", "radius_from", "radius_to"]) expect(p.has(k)).toBe(false)
        for (const k of ["fn", "tn"]) if (p.has(k)) expect(towns.has(p.get(k)!)).toBe(true)
      }
      expect(params.filter((p) => p.has("fn")).length).toBeGreaterThan(200)
      expect(params.filter((p) => p.has("fc")).length).toBeGreaterThan(500)
      expect(log.every((r) => r.path === "/api/v2/trips")).toBe(true)
    })
  })
})
