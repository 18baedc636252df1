import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { referenceSearch, TripIndex } from "@tripsearch/core"
import { indexRecord, indexRecords, matchRequest } from "./arbitraries.js"

describe("TripIndex against the brute-force reference", () => {
  it("gives the reference's total, page, top trips, facets and aggregates", () => {
    fc.assert(
      fc.property(indexRecords(60), matchRequest, (records, req) => {
        const index = TripIndex.from(records)
        expect(index.search(req)).toEqual(referenceSearch(records, req))
      }),
      { numRuns: 400 }
    )
  })

  it("pages partition the whole result in sort order", () => {
    fc.assert(
      fc.property(indexRecords(60), matchRequest, fc.integer({ min: 1, max: 7 }), (records, req, limit) => {
        const index = TripIndex.from(records)
        const all = index.search({ ...req, offset: 0, limit: 10_000 })
        const paged = []
        for (let offset = 0; offset < all.total + limit; offset += limit) paged.push(...index.search({ ...req, offset, limit }).page)
        expect(paged).toEqual(all.page)
        expect(all.page.length).toBe(all.total)
      }),
      { numRuns: 150 }
    )
  })

  it("follows updates and removals like a rebuilt index", () => {
    fc.assert(
      fc.property(
        indexRecords(40),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 45 }), fc.boolean()), { maxLength: 30 }),
        fc.array(indexRecord("x"), { minLength: 30, maxLength: 30 }),
        matchRequest,
        (records, ops, replacements, req) => {
          const index = TripIndex.from(records)
          const live = new Map(records.map((r) => [r.id, r]))
          ops.forEach(([k, remove], n) => {
            const id = `t${k}`
            if (remove) {
              index.remove(id)
              live.delete(id)
            } else {
              const r = { ...replacements[n]!, id }
              index.upsert(r)
              live.set(id, r)
            }
          })
          expect(index.size).toBe(live.size)
          expect(index.search(req)).toEqual(referenceSearch([...live.values()], req))
        }
      ),
      { numRuns: 150 }
    )
  })
})
