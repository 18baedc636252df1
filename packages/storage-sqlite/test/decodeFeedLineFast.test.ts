import { decodeFeedLine } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { cachedOffsetAt, decodeFeedLineFast } from "../src/index.js"
import { offsetAt } from "@tripsearch/gazetteer"
import { tripInput } from "./fixtures.js"

const base = tripInput("f1")
const full = {
  ...base,
  status: "cancelled",
  service: "short",
  viaggio_rosa: true,
  comment: "ok",
  passengers: [{ id: "p1", display_name: "Ana" }],
  vehicle_pictures: ["https://x.test/v.jpg"],
  questions: [{ id: "q1", question: "Dog?", answer: "Yes", asked_at: "2026-01-01T10:00:00Z", answered_at: "2026-01-01T11:00:00+01:00" }]
}

const cases: Record<string, string> = {
  minimal: JSON.stringify(base),
  full: JSON.stringify(full),
  "unknown top-level": JSON.stringify({ ...base, extra: 1 }),
  "unknown in waypoint": JSON.stringify({ ...base, waypoints: [{ ...(base.waypoints as Array<object>)[0], tz: "x" }, ...(base.waypoints as Array<object>).slice(1)] }),
  "unknown in passenger": JSON.stringify({ ...full, passengers: [{ id: "p1", display_name: "Ana", age: 3 }] }),
  "unknown in question": JSON.stringify({ ...full, questions: [{ ...full.questions[0], likes: 2 }] }),
  "unknown in car": JSON.stringify({ ...base, car: { ...(base.car as object), vin: "x" } }),
  "null picture": JSON.stringify({ ...base, driver: { ...(base.driver as object), picture: null } }),
  "bad and unknown": JSON.stringify({ ...base, seats: 0, zzz: true }),
  "not json": "{",
  array: "[]",
  "null": "null"
}

describe("decodeFeedLineFast", () => {
  for (const [name, line] of Object.entries(cases)) {
    it(`gives what core's decodeFeedLine gives: ${name}`, () => {
      expect(decodeFeedLineFast(line)).toStrictEqual(decodeFeedLine(line))
    })
  }
})

describe("cachedOffsetAt", () => {
  it("equals the gazetteer's offsetAt around DST changes, minute by minute", () => {
    const places: Array<[number, number]> = [[48.8566, 2.3522], [51.5072, -0.1276], [-33.87, 151.21], [-34.93, 138.6], [19.43, -99.13], [28.61, 77.21]]
    const instants = [Date.UTC(2026, 2, 29, 0, 0), Date.UTC(2026, 9, 25, 0, 0), Date.UTC(2026, 3, 4, 15, 0), Date.UTC(2026, 9, 3, 15, 0)]
    for (const [lat, lon] of places) {
      for (const start of instants) {
        for (let m = 0; m < 240; m += 7) {
          const t = start + m * 60_000
          expect(cachedOffsetAt(lat, lon, t)).toBe(offsetAt(lat, lon, t))
        }
      }
    }
  })
})
