import polyline from "@mapbox/polyline"
import type { FeedTripInput } from "@tripsearch/core"
import { readFileSync } from "node:fs"
import { beforeAll, expect, it } from "vitest"
import { generateFeed } from "../src/generateFeed.js"
import { type GeneratedMeetingPoint, generateMeetingPoints } from "../src/generateMeetingPoints.js"
import { haversineKm } from "../src/haversineKm.js"

// The API's default data set: DEFAULT_SEED_TRIPS trips of DATASET_SEED, read from its config so
// that this test follows them.
const config = readFileSync(new URL("../../../apps/api/src/config.ts", import.meta.url), "utf8")
const constant = (name: string) => Number(new RegExp(`export const ${name} = ([\\d_]+)`).exec(config)![1]!.replace(/_/g, ""))
const SEED = constant("DATASET_SEED")
const TRIPS = constant("DEFAULT_SEED_TRIPS")
const NOW = Date.parse("2026-11-26T09:00:00Z")
const CORRIDOR_KM = 1

type Leg = FeedTripInput["legs"][number] & { readonly path?: string }

let trips: Array<FeedTripInput> = []
let points: Array<GeneratedMeetingPoint> = []
beforeAll(() => {
  trips = [...generateFeed({ trips: TRIPS, seed: SEED, nowMs: NOW })]
  points = [...generateMeetingPoints()]
}, 120_000)

/** The largest town of that name among the meeting points' towns: its centre (CITY_CENTER). */
const centreOf = (city: string): GeneratedMeetingPoint => {
  const centres = points.filter((p) => p.city === city && p.tags.includes("CITY_CENTER"))
  expect(centres.length, city).toBeGreaterThan(0)
  return centres[0]!
}

/**
 * Trips a search from `from` to `to` (at the default radii, SEMANTICS §3: max(5, 10% of the
 * distance)) finds only along the road (§11), by brute force: an active trip that takes detours,
 * with no waypoint within the departure radius, whose road passes within 1 km of an active meeting
 * point of `from`'s town lying within the departure radius, and with a later waypoint within the
 * arrival radius.
 */
const passingThrough = (from: string, to: string): Array<string> => {
  const f = centreOf(from)
  const t = centreOf(to)
  const radius = Math.max(5, 0.1 * haversineKm(f.lat, f.lon, t.lat, t.lon))
  const near = points.filter((p) => p.status !== "removed" && p.city === from && haversineKm(p.lat, p.lon, f.lat, f.lon) <= radius)
  const found: Array<string> = []
  for (const trip of trips) {
    if (trip.status === "cancelled" || trip.detour === "ON_TIME") continue
    const ws = trip.waypoints
    if (ws.some((w) => haversineKm(w.lat, w.lon, f.lat, f.lon) <= radius)) continue
    const own = new Set(ws.map((w) => w.meeting_point_id))
    let passedOn = -1
    ;(trip.legs as ReadonlyArray<Leg>).forEach((leg, k) => {
      if (passedOn >= 0) return
      // Only a time saver: no generated road strays 150 km from the box of its leg's ends.
      const a = ws[k]!
      const b = ws[k + 1]!
      const box = (m: GeneratedMeetingPoint) =>
        m.lat >= Math.min(a.lat, b.lat) - 1.4 && m.lat <= Math.max(a.lat, b.lat) + 1.4 && m.lon >= Math.min(a.lon, b.lon) - 2 && m.lon <= Math.max(a.lon, b.lon) + 2
      const candidates = near.filter((m) => !own.has(m.id) && box(m))
      if (candidates.length === 0) return
      const road = polyline.decode(leg.path!, 5)
      const passes = candidates.some((m) => road.some(([lat, lon]) => haversineKm(lat, lon, m.lat, m.lon) <= CORRIDOR_KM))
      if (passes) passedOn = k
    })
    if (passedOn >= 0 && ws.slice(passedOn + 1).some((w) => haversineKm(w.lat, w.lon, t.lat, t.lon) <= radius)) found.push(trip.id)
  }
  return found
}

it.each([
  ["Mâcon", "Lyon"],
  ["Orléans", "Tours"],
  ["Augsburg", "Munich"]
])("the default data set has drivers who pass %s without stopping, on their way to %s", (from, to) => {
  const found = passingThrough(from, to)
  console.log(`${from} -> ${to}: ${found.length} trips pass through (${found.slice(0, 3).join(", ")}, ...)`)
  expect(found.length, `${from} -> ${to}: ${found.slice(0, 5).join(", ")}`).toBeGreaterThanOrEqual(5)
})
