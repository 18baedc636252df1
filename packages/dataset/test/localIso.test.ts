import { describe, expect, it } from "vitest"
import { localIso } from "../src/localIso.js"

describe("localIso", () => {
  it("writes local time with the zone's offset, across daylight saving time", () => {
    expect(localIso(Date.UTC(2026, 2, 29, 0, 30), "Europe/Paris")).toBe("2026-03-29T01:30:00+01:00")
    expect(localIso(Date.UTC(2026, 2, 29, 1, 30), "Europe/Paris")).toBe("2026-03-29T03:30:00+02:00")
    expect(localIso(Date.UTC(2026, 0, 1, 12), "America/Mexico_City")).toBe("2026-01-01T06:00:00-06:00")
    expect(localIso(Date.UTC(2026, 0, 1, 12), "Asia/Kolkata")).toBe("2026-01-01T17:30:00+05:30")
    expect(localIso(Date.UTC(2026, 0, 1, 12), "Europe/London")).toBe("2026-01-01T12:00:00+00:00")
  })

  it("stays parseable to the same instant", () => {
    const ms = Date.UTC(2026, 9, 25, 0, 50)
    expect(Date.parse(localIso(ms, "Europe/Kyiv"))).toBe(ms)
  })
})
