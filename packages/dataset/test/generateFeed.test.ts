import { decodeFeedLine, type FeedTripInput, LOCALE_COUNTRIES, LOCALE_TABLE, LOCALES } from "@tripsearch/core"
import { zoneOf, zoneOffsetMinutes } from "@tripsearch/gazetteer"
import { Either } from "effect"
import { createHash } from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import { feedLines } from "../src/feedLines.js"
import { generateFeed } from "../src/generateFeed.js"
import { haversineKm } from "../src/haversineKm.js"

const NOW = Date.parse("2026-03-01T10:07:31Z")
const DAY = 86_400_000

const hashOf = (lines: Iterable<string>): string => {
  const hash = createHash("sha256")
  for (const line of lines) hash.update(line).update("\n")
  return hash.digest("hex")
}

describe("generateFeed determinism", () => {
  it("gives the same feed for the same seed and a different one for another seed", () => {
    const a = hashOf(feedLines({ trips: 1500, seed: "alpha", nowMs: NOW }))
    const b = hashOf(feedLines({ trips: 1500, seed: "alpha", nowMs: NOW }))
    const c = hashOf(feedLines({ trips: 1500, seed: "beta", nowMs: NOW }))
    expect(b).toBe(a)
    expect(c).not.toBe(a)
  })

  it("makes a shorter feed a prefix of a longer one", () => {
    const short = [...feedLines({ trips: 200, seed: 3, nowMs: NOW })]
    const long = [...feedLines({ trips: 400, seed: 3, nowMs: NOW })]
    expect(long.slice(0, 200)).toEqual(short)
  })

  it("yields nothing for zero trips", () => {
    expect([...generateFeed({ trips: 0, seed: 1, nowMs: NOW })]).toEqual([])
  })
})

describe("generateFeed over 5,000 trips", () => {
  let lines: Array<string> = []
  let trips: Array<FeedTripInput> = []
  beforeAll(() => {
    lines = [...feedLines({ trips: 5000, seed: "feed-test", nowMs: NOW })]
    trips = lines.map((l) => JSON.parse(l) as FeedTripInput)
  })
  const share = (p: (t: FeedTripInput) => boolean) => trips.filter(p).length / trips.length

  it("writes lines that all decode with the core's feed schema", () => {
    const bad = lines.flatMap((line, k) => {
      const r = decodeFeedLine(line)
      return Either.isLeft(r) ? [`line ${k + 1}: ${r.left.map((i) => `${i.field}: ${i.reason}`).join("; ")}`] : []
    })
    expect(bad).toEqual([])
  })

  it("uses unique ids of the allowed characters", () => {
    expect(new Set(trips.map((t) => t.id)).size).toBe(trips.length)
    expect(trips.every((t) => /^[A-Za-z0-9-]{1,64}$/.test(t.id))).toBe(true)
  })

  it("starts trips in every locale country, in that country's currency", () => {
    const origins = new Set(trips.map((t) => t.waypoints[0]!.country))
    for (const country of LOCALE_COUNTRIES) expect([country, origins.has(country)]).toEqual([country, true])
    const currencyOf = new Map(LOCALES.map((l) => [LOCALE_TABLE[l].country, LOCALE_TABLE[l].currency]))
    expect(trips.filter((t) => t.currency !== currencyOf.get(t.waypoints[0]!.country))).toEqual([])
  })

  it("has some cross-border trips, some cancelled and some full ones", () => {
    expect(share((t) => t.waypoints.some((w) => w.country !== t.waypoints[0]!.country))).toBeGreaterThan(0.03)
    expect(share((t) => t.status === "cancelled")).toBeGreaterThan(0.01)
    expect(share((t) => t.status === "cancelled")).toBeLessThan(0.03)
    expect(share((t) => t.seats_left === 0)).toBeGreaterThan(0.03)
  })

  it("has short-service trips only in France and under 60 km", () => {
    const short = trips.filter((t) => t.service === "short")
    expect(short.length).toBeGreaterThan(50)
    for (const t of short) {
      expect(t.waypoints.every((w) => w.country === "FR")).toBe(true)
      expect(t.legs.reduce((s, l) => s + l.distance_km, 0)).toBeLessThan(60)
    }
  })

  it("mostly goes 30 to 700 km, on roads about 1.2 times the great circle", () => {
    const km = (t: FeedTripInput) => t.legs.reduce((s, l) => s + l.distance_km, 0)
    expect(share((t) => km(t) >= 30 && km(t) <= 700)).toBeGreaterThan(0.8)
    for (const t of trips) {
      t.legs.forEach((leg, k) => {
        const a = t.waypoints[k]!
        const b = t.waypoints[k + 1]!
        const crow = haversineKm(a.lat, a.lon, b.lat, b.lon)
        expect(Math.abs(leg.distance_km - crow * 1.2)).toBeLessThanOrEqual(crow * 0.1 + 0.1)
        expect(Math.round(leg.distance_km * 10) / 10).toBe(leg.distance_km)
      })
    }
  })

  it("has 2 to 10 waypoints, with stop-overs on some trips", () => {
    const counts = new Set(trips.map((t) => t.waypoints.length))
    expect(Math.min(...counts)).toBe(2)
    expect(Math.max(...counts)).toBeLessThanOrEqual(10)
    expect(counts.size).toBeGreaterThan(5)
  })

  it("departs within 30 days after now, with the offset of waypoint 0's zone", () => {
    for (const t of trips) {
      const ms = Date.parse(t.departure_time)
      expect(ms).toBeGreaterThanOrEqual(NOW)
      expect(ms).toBeLessThanOrEqual(NOW + 30 * DAY)
      const offset = zoneOffsetMinutes(zoneOf(t.waypoints[0]!.lat, t.waypoints[0]!.lon), ms)
      const sign = offset < 0 ? "-" : "+"
      const abs = Math.abs(offset)
      expect(t.departure_time.slice(19)).toBe(`${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`)
    }
  })

  it("puts most departures in the first two weeks, and some in each of the last ones", () => {
    const lead = (t: FeedTripInput) => (Date.parse(t.departure_time) - NOW) / DAY
    // 70% within 14 days, the other 30% uniform over 30: 0.7 + 0.3 * 14 / 30 = 84% in all.
    expect(share((t) => lead(t) < 14)).toBeGreaterThan(0.8)
    expect(share((t) => lead(t) < 14)).toBeLessThan(0.88)
    expect(share((t) => lead(t) >= 22)).toBeGreaterThan(0.05)
  })

  it("covers every booking mode and type, drivers with and without pictures, all comforts", () => {
    expect(new Set(trips.map((t) => t.booking_mode))).toEqual(new Set(["auto", "manual"]))
    expect(new Set(trips.map((t) => t.booking_type))).toEqual(new Set(["online", "onboard", "no_booking"]))
    expect(share((t) => t.driver.picture === null)).toBeGreaterThan(0.1)
    expect(share((t) => t.driver.picture !== null)).toBeGreaterThan(0.1)
    expect(new Set(trips.map((t) => t.driver.experience))).toEqual(new Set([0, 1, 2, 3, 4]))
    expect(new Set(trips.map((t) => t.car.comfort_nb_star))).toEqual(new Set([1, 2, 3, 4]))
    expect(new Set(trips.map((t) => t.car.category)).size).toBeGreaterThanOrEqual(4)
  })

  it("includes the optional parts: passengers, vehicle pictures, questions with and without answers, meeting points", () => {
    expect(share((t) => (t.passengers ?? []).length > 0)).toBeGreaterThan(0.05)
    expect(share((t) => (t.vehicle_pictures ?? []).length > 0)).toBeGreaterThan(0.05)
    const questions = trips.flatMap((t) => t.questions ?? [])
    expect(questions.some((q) => q.answer !== undefined && q.answered_at !== undefined)).toBe(true)
    expect(questions.some((q) => q.answer === undefined)).toBe(true)
    expect(questions.every((q) => Date.parse(q.asked_at) <= NOW && (q.answered_at === undefined || Date.parse(q.answered_at) <= NOW))).toBe(true)
    expect(share((t) => t.waypoints.some((w) => w.meeting_point_id !== undefined))).toBeGreaterThan(0.05)
    expect(share((t) => t.comment !== undefined)).toBeGreaterThan(0.3)
  })

  it("gives a driver the same name, picture and car on each of their trips", () => {
    const seen = new Map<string, string>()
    for (const t of trips) {
      const profile = JSON.stringify([t.driver, t.car])
      expect(seen.get(t.driver.id) ?? profile).toBe(profile)
      seen.set(t.driver.id, profile)
    }
  })
})
