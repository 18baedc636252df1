import type { RoadStop } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { encodeRoadStops, readRoadStops, sameRoadStops } from "../src/index.js"

const stop = (k: number, over: Partial<RoadStop> = {}): RoadStop => ({
  mp: 10_000_000 + k,
  leg: k % 3,
  fraction: (k * 0.1234567890123) % 1,
  lat: 45.123456789012345 + k / 7,
  lon: -4.987654321098765 - k / 3,
  offsetMin: 15 * k,
  zoneOffsetMin: 60,
  ...over
})

describe("the road_stops column", () => {
  it("gives back the stops it was given, the same doubles and keys, as JSON did", () => {
    const stops = [
      ...Array.from({ length: 25 }, (_, k) => stop(k)),
      stop(30, { mp: 2_147_483_647, leg: 0, fraction: Number.MIN_VALUE, lat: -90, lon: 180, offsetMin: 0, zoneOffsetMin: -720 }),
      stop(31, { fraction: 1 - Number.EPSILON, lat: 0.1 + 0.2, lon: -179.99999, offsetMin: 100_000, zoneOffsetMin: 840 })
    ]
    const column = encodeRoadStops(stops)
    expect(column.byteLength).toBe(36 * stops.length)
    const back = readRoadStops(column)!
    expect(back).toEqual(stops)
    back.forEach((s, k) => expect(Object.is(s.fraction, stops[k]!.fraction) && Object.is(s.lat, stops[k]!.lat) && Object.is(s.lon, stops[k]!.lon)).toBe(true))
    // The earlier column, JSON text, read back to the same values, key order included.
    expect(JSON.stringify(back)).toBe(JSON.stringify(stops))
  })

  it("reads -0 as 0, as the JSON column did", () => {
    const [back] = readRoadStops(encodeRoadStops([stop(1, { fraction: -0, lat: -0, lon: -0 })]))!
    expect([Object.is(back!.fraction, 0), Object.is(back!.lat, 0), Object.is(back!.lon, 0)]).toEqual([true, true, true])
  })

  it("refuses what it cannot hold, and a column that is not whole stops", () => {
    expect(() => encodeRoadStops([stop(1, { zoneOffsetMin: 40_000 })])).toThrow(/zoneOffsetMin/)
    expect(() => encodeRoadStops([stop(1, { offsetMin: 1.5 })])).toThrow(/offsetMin/)
    expect(() => readRoadStops(new Uint8Array(35))).toThrow(/whole number of stops/)
    expect(readRoadStops(null)).toBeUndefined()
  })

  it("compares two columns by their bytes", () => {
    const a = encodeRoadStops([stop(1), stop(2)])
    expect(sameRoadStops(a, encodeRoadStops([stop(1), stop(2)]))).toBe(true)
    expect(sameRoadStops(a, new Uint8Array(a))).toBe(true)
    expect(sameRoadStops(a, encodeRoadStops([stop(1), stop(3)]))).toBe(false)
    expect(sameRoadStops(a, null)).toBe(false)
    expect(sameRoadStops(null, null)).toBe(true)
  })
})
