import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { applyMeetingPointChanges, type StoredMeetingPoint } from "../src/model/FeedMeetingPoint.js"

// The store's held set, the pool's writer and each worker keep the active meeting points this way,
// batch by batch as imports change them; a batch may be applied again when an import commits
// between reading the version and reading the rows.
const row = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  status: fc.constantFrom("active", "removed"),
  name: fc.constantFrom("Gare", "Centre", "Aire de Beaune")
}).map(({ id, status, name }) => ({ id, status, name, full_name: name, city: "Beaune", lat: 47.02, lon: 4.84, country: "FR", tags: [] }) as StoredMeetingPoint)

describe("applyMeetingPointChanges", () => {
  it("leaves, batch after batch, each meeting point's last row if it is active, whatever batch is applied twice", () => {
    fc.assert(
      fc.property(fc.array(fc.array(row, { maxLength: 8 }), { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 3 }), (batches, twice) => {
        const held = new Map<number, StoredMeetingPoint>()
        batches.forEach((batch, b) => {
          applyMeetingPointChanges(held, batch)
          if (twice.some((k) => k % batches.length === b)) applyMeetingPointChanges(held, batch)
        })
        const last = new Map<number, StoredMeetingPoint>()
        for (const mp of batches.flat()) last.set(mp.id, mp)
        const expected = [...last.values()].filter((mp) => mp.status === "active")
        expect([...held.values()].sort((a, b) => a.id - b.id)).toEqual(expected.sort((a, b) => a.id - b.id))
      })
    )
  })
})
