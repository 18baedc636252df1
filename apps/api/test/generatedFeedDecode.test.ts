import { decodeFeedLine } from "@tripsearch/core"
import { feedLines } from "@tripsearch/dataset"
import { acceptFeedTrip } from "@tripsearch/storage-sqlite"
import { Either } from "effect"
import { describe, expect, it } from "vitest"

// The import's hand-written check (storage-sqlite's acceptFeedTrip) against core's Schema on the
// feeds the server and the benchmarks import: every line accepted, the same trip_json to the byte.
describe("the import's fast decode on generated feeds", () => {
  it("accepts every generated line and gives the Schema's value, byte for byte", () => {
    let n = 0
    for (const seed of [1, 20180404]) {
      for (const line of feedLines({ trips: 1_500, seed, nowMs: Date.UTC(2030, 0, 7, 6) })) {
        const fast = acceptFeedTrip(JSON.parse(line))
        const strict = decodeFeedLine(line)
        expect(fast, line).toBeDefined()
        expect(JSON.stringify(fast)).toBe(JSON.stringify(Either.getOrThrow(strict)))
        n++
      }
    }
    expect(n).toBe(3_000)
  })
})
