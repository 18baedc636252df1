import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { SearchResponse, TripDetail } from "@tripsearch/core"

// The recordings live beside the repository (CI checks it out there), not in it: a plain clone
// has no such folder, and its test run must still pass while saying that these did not run.
const ROOT = new URL("../../../../shared/fixtures/real/", import.meta.url).pathname
const present = existsSync(ROOT)
const files = present ? readdirSync(ROOT, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json")) : []
const searches = files.filter((f) => f.includes("search_"))
const details = files.filter((f) => f.includes("trip_detail_"))

if (present) console.log(`recorded responses: decoding ${searches.length} searches and ${details.length} trip details from ${ROOT}`)
else console.warn(`recorded responses: NOT RUN, no folder ${ROOT} (a clone without the recordings beside it; CI has them)`)

describe("the core's Schemas decode the recorded responses of the historical service", () => {
  if (!present) it.skip(`NOT RUN: the recordings are absent (${ROOT})`, () => {})

  it.runIf(present)("finds the recordings", () => {
    expect(searches.length).toBeGreaterThanOrEqual(4)
    expect(details.length).toBeGreaterThanOrEqual(1)
  })

  it.each(searches)("search %s", (file) => {
    const json = JSON.parse(readFileSync(join(ROOT, file), "utf8"))
    const decoded = Schema.decodeUnknownSync(SearchResponse)(json)
    expect(decoded.trips.length).toBe(json.trips.length)
    expect(decoded.trips.length).toBeGreaterThan(0)
  })

  it.each(details)("detail %s", (file) => {
    const json = JSON.parse(readFileSync(join(ROOT, file), "utf8"))
    const decoded = Schema.decodeUnknownSync(TripDetail)(json)
    expect(decoded.permanent_id).toBe(json.permanent_id)
    expect(decoded.stop_overs.length).toBeGreaterThan(1)
  })

  it.runIf(present)("rejects a response missing a required field", () => {
    const json = JSON.parse(readFileSync(join(ROOT, details[0]!), "utf8"))
    delete json.stop_overs
    expect(() => Schema.decodeUnknownSync(TripDetail)(json)).toThrow(/stop_overs/)
  })
})
