import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { SearchResponse, TripDetail } from "@tripsearch/core"

const ROOT = new URL("../../../../shared/fixtures/real/", import.meta.url).pathname
const files = readdirSync(ROOT, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"))

describe("the core's Schemas decode the recorded responses of the historical service", () => {
  it("finds the recordings", () => {
    expect(files.filter((f) => f.includes("search_")).length).toBeGreaterThanOrEqual(4)
    expect(files.filter((f) => f.includes("trip_detail_")).length).toBeGreaterThanOrEqual(1)
  })

  it.each(files.filter((f) => f.includes("search_")))("search %s", (file) => {
    const json = JSON.parse(readFileSync(join(ROOT, file), "utf8"))
    const decoded = Schema.decodeUnknownSync(SearchResponse)(json)
    expect(decoded.trips.length).toBe(json.trips.length)
    expect(decoded.trips.length).toBeGreaterThan(0)
  })

  it.each(files.filter((f) => f.includes("trip_detail_")))("detail %s", (file) => {
    const json = JSON.parse(readFileSync(join(ROOT, file), "utf8"))
    const decoded = Schema.decodeUnknownSync(TripDetail)(json)
    expect(decoded.permanent_id).toBe(json.permanent_id)
    expect(decoded.stop_overs.length).toBeGreaterThan(1)
  })

  it("rejects a response missing a required field", () => {
    const json = JSON.parse(readFileSync(join(ROOT, files.find((f) => f.includes("trip_detail_"))!), "utf8"))
    delete json.stop_overs
    expect(() => Schema.decodeUnknownSync(TripDetail)(json)).toThrow(/stop_overs/)
  })
})
