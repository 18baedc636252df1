import { decodeFeedLine } from "@tripsearch/core"
import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { acceptFeedTrip, cachedOffsetAt, decodeFeedLineFast } from "../src/index.js"
import { offsetAt } from "@tripsearch/gazetteer"
import { tripInput } from "@tripsearch/store-tests"

const base = tripInput("f1")
const full = {
  ...base,
  seats_count_origin: 3,
  car: { ...(base.car as object), color_hexa: "#d8c8a8", number_of_seat: 5, picture: "https://x.test/car.jpg" },
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

describe("acceptFeedTrip says yes only when the Schema says yes, with the same value", () => {
  // Values that sit on or near a rule of some field: bounds, wrong types, near-patterns.
  const edgy = fc.oneof(
    fc.constantFrom<unknown>(0, -0, 1, -1, 1.5, 2, 3, 4, 5, 8, 9, 10, 90, 90.5, -90, 180, -181, 1e21, 2 ** 53, 24.555, 0.01, 0.001, 100.1),
    fc.constantFrom<unknown>("", "x", "ABC", "FR", "fr", "F", "#d8c8a8", "D8C8A8", "d8c8a", "https://x.test/a.jpg", "http:// x", "ftp://x",
      "2026-07-15T08:30:00+02:00", "2026-07-15T08:30Z", "2026-02-30T08:30:00Z", "2026-07-15 08:30", "active", "cancelled", "short", "auto",
      "manual", "online", "EUR", "HUF", "Basic", "Luxury", "MIDDLE", "NONE", "public", "private", "a-b-C-9", "bad id!", "x".repeat(2001)),
    fc.constantFrom<unknown>(null, true, false, [], {}, [1], { a: 1 }),
    fc.jsonValue({ maxDepth: 2 })
  )
  const paths = (value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> => {
    if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, i]))]
    if (typeof value === "object" && value !== null) return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))]
    return [prefix]
  }
  const optionalNames = ["status", "service", "viaggio_rosa", "is_comfort", "luggage", "detour", "schedule", "messaging_status", "answer_delay", "view_count", "seats_count_origin"]
  const every = paths(full).filter((p) => p.length > 0)
  const mutation = fc.record({
    edits: fc.array(fc.record({ path: fc.constantFrom(...every, ...optionalNames.map((n) => [n])), value: fc.option(edgy, { nil: undefined }) }), { minLength: 1, maxLength: 3 })
  })

  it("on thousands of trips with one to three fields changed, removed or added", () => {
    let accepted = 0
    fc.assert(
      fc.property(mutation, ({ edits }) => {
        const trip = JSON.parse(JSON.stringify(full)) as Record<string, unknown>
        for (const { path, value } of edits) {
          let parent = trip as Record<string | number, unknown>
          for (const k of path.slice(0, -1)) {
            const next = parent[k]
            if (typeof next !== "object" || next === null) return
            parent = next as Record<string | number, unknown>
          }
          const last = path[path.length - 1]!
          if (value === undefined) delete parent[last]
          else parent[last] = value
        }
        const line = JSON.stringify(trip)
        const fast = decodeFeedLineFast(line)
        const strict = decodeFeedLine(line)
        expect(fast).toStrictEqual(strict)
        if (Either.isRight(fast) && Either.isRight(strict)) {
          accepted++
          expect(JSON.stringify(fast.right)).toBe(JSON.stringify(strict.right))
        }
      }),
      { numRuns: 3_000, seed: 7 }
    )
    // Enough of the mutants stay valid for the "same value" half to mean something.
    expect(accepted).toBeGreaterThan(100)
  })

  it("gives byte for byte the trip_json of the Schema's value on the valid cases", () => {
    for (const name of ["minimal", "full", "null picture"]) {
      const line = cases[name]!
      const trip = acceptFeedTrip(JSON.parse(line))
      expect(trip).toBeDefined()
      expect(JSON.stringify(trip)).toBe(JSON.stringify(Either.getOrThrow(decodeFeedLine(line))))
    }
  })
})
