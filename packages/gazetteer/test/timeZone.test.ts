import { describe, expect, it } from "vitest"
import { offsetAt, zoneOf, zoneOffsetMinutes } from "../src/timeZone.js"

describe("time zones", () => {
  it("finds the zone of a point", () => {
    expect(zoneOf(48.85, 2.35)).toBe("Europe/Paris")
    expect(zoneOf(51.5, -0.12)).toBe("Europe/London")
  })

  it("follows daylight saving time", () => {
    expect(zoneOffsetMinutes("Europe/Paris", Date.UTC(2026, 0, 15))).toBe(60)
    expect(zoneOffsetMinutes("Europe/Paris", Date.UTC(2026, 6, 15))).toBe(120)
    expect(offsetAt(19.43, -99.13, Date.UTC(2026, 6, 15))).toBe(-360)
    expect(zoneOffsetMinutes("Asia/Kolkata", Date.UTC(2026, 6, 15))).toBe(330)
  })
})
