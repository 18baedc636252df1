import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { decodeSearchQuery, type JsonObject, SEARCH_FIELD_NAMES, TRIP_FIELD_NAMES } from "@tripsearch/core"
import { applyFields } from "../src/render/applyFields.js"

const TRIP_ONLY = TRIP_FIELD_NAMES.filter((n) => !SEARCH_FIELD_NAMES.includes(n))
const LISTS = ["trips", "top_trips"] as const
const NAMES = [...SEARCH_FIELD_NAMES, ...TRIP_ONLY, ...LISTS.flatMap((list) => TRIP_FIELD_NAMES.map((n) => `${list}.${n}`))]

// A trip with some of the trip fields, each value unique so that a moved value would show.
const tripArb = fc.subarray([...TRIP_FIELD_NAMES]).map((keys) => Object.fromEntries(keys.map((k) => [k, { of: k }])) as JsonObject)
const responseArb = fc.subarray([...SEARCH_FIELD_NAMES]).chain((keys) =>
  fc.record({ trips: fc.array(tripArb, { maxLength: 3 }), top_trips: fc.array(tripArb, { maxLength: 3 }) }).map(
    (lists) =>
      Object.fromEntries(keys.map((k) => [k, k === "trips" || k === "top_trips" ? lists[k] : { top: k }])) as JsonObject
  )
)
const fieldsArb = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 8 })

/** The rules of docs/DECISIONS.md, written out name by name. */
const expected = (response: JsonObject, fields: ReadonlyArray<string>): JsonObject => {
  const bareTrip = fields.filter((f) => TRIP_ONLY.includes(f))
  const dottedOf = (list: string) => fields.filter((f) => f.startsWith(`${list}.`)).map((f) => f.slice(list.length + 1))
  const namesAList = LISTS.some((list) => fields.includes(list) || dottedOf(list).length > 0)
  const kept = (k: string) =>
    fields.includes(k) || (LISTS.includes(k as never) && (dottedOf(k).length > 0 || (k === "trips" && bareTrip.length > 0 && !namesAList)))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(response)) {
    if (!kept(k)) continue
    const tripNames = LISTS.includes(k as never) ? [...bareTrip, ...dottedOf(k)] : []
    out[k] =
      tripNames.length === 0
        ? v
        : (v as ReadonlyArray<JsonObject>).map((t) => Object.fromEntries(Object.entries(t).filter(([name]) => tripNames.includes(name))))
  }
  return out as JsonObject
}

describe("fields (SEMANTICS §8)", () => {
  it("keeps the named top-level fields and trims trips to the named trip fields, in response order", () => {
    fc.assert(
      fc.property(responseArb, fieldsArb, (response, fields) => {
        const out = applyFields(response, fields)
        expect(out).toEqual(expected(response, fields))
        // Response order, never the order of `fields`.
        const order = Object.keys(response)
        expect(Object.keys(out)).toEqual(order.filter((k) => k in out))
      }),
      { numRuns: 500 }
    )
  })

  it("accepts every name it can apply, and refuses every other", () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const decoded = decodeSearchQuery({ locale: "fr_FR", cur: "EUR", fields: fields.join(",") })
        expect(Either.isRight(decoded) && decoded.right.fields).toEqual(fields)
      })
    )
    fc.assert(
      fc.property(fieldsArb, fc.stringMatching(/^[a-z_.]{1,20}$/), (fields, other) => {
        fc.pre(!NAMES.includes(other))
        const decoded = decodeSearchQuery({ locale: "fr_FR", cur: "EUR", fields: [...fields, other].join(",") })
        expect(Either.isLeft(decoded) && decoded.left.message).toContain(`"${other}"`)
      })
    )
  })

  const response: JsonObject = {
    pager: { page: 1 },
    trips: [{ links: { a: "1" }, price: { value: 1 }, seats_left: 2, seats: 3, permanent_id: "t1" }],
    top_trips: [{ price: { value: 2 }, seats: 4, permanent_id: "t2" }],
    distance: 10
  }

  it("trims trips as real clients ask (fields=trips,seats,price) and leaves out top_trips unless listed", () => {
    expect(applyFields(response, ["trips", "seats", "price"])).toEqual({ trips: [{ price: { value: 1 }, seats: 3 }] })
    expect(applyFields(response, ["trips", "top_trips", "seats"])).toEqual({ trips: [{ seats: 3 }], top_trips: [{ seats: 4 }] })
  })

  it("adds a list's dotted names to the bare ones; a name of both kinds is the top-level field", () => {
    expect(applyFields(response, ["trips", "seats", "trips.permanent_id", "top_trips.price"])).toEqual({
      trips: [{ seats: 3, permanent_id: "t1" }],
      top_trips: [{ price: { value: 2 }, seats: 4 }]
    })
    expect(applyFields(response, ["trips", "distance"])).toEqual({ trips: response.trips, distance: 10 })
    expect(applyFields(response, ["trips", "trips.distance"])).toEqual({ trips: [{}] })
  })

  it("keeps trips for bare trip names alone, and trips whole when no trip name is given", () => {
    expect(applyFields(response, ["seats"])).toEqual({ trips: [{ seats: 3 }] })
    expect(applyFields(response, ["pager", "trips"])).toEqual({ pager: { page: 1 }, trips: response.trips })
  })
})
