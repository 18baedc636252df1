import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { localHour } from "../src/search/tripIndex/facets.js"

describe("localHour", () => {
  it("is the UTC hour of the local instant, before 1970 and after 2038 too, on the hour's last millisecond too", () => {
    const instant = fc.oneof(
      fc.integer({ min: -8_640_000_000_000, max: 8_640_000_000_000 }),
      fc.integer({ min: -100_000_000, max: 100_000_000 }).map((h) => h * 3_600_000 - 1)
    )
    fc.assert(fc.property(instant, (local) => localHour(local) === new Date(local).getUTCHours()), { numRuns: 20_000 })
    expect(localHour(-1)).toBe(23)
  })
})
