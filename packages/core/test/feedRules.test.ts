import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { COUNTRY_CODES, hasAtMostDecimals, isCountryCode, isHttpUrl, isIsoDateTime, loneSurrogateAt } from "@tripsearch/core"

const pad = (n: number, width: number) => String(n).padStart(width, "0")

describe("isIsoDateTime", () => {
  it("takes a date-time exactly when its day is on the calendar, against Date.UTC's own calendar", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom("Z", "+01:00", "-05:30", "+14:00"),
        (year, month, day, hour, minute, offset) => {
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:00${offset}`
          const back = new Date(Date.UTC(year, month - 1, day))
          const onCalendar = back.getUTCDate() === day && back.getUTCMonth() === month - 1
          return isIsoDateTime(text) === onCalendar
        }
      ),
      { numRuns: 5_000 }
    )
  })

  it("the cases: leap years, the end of a day, what Date.parse alone would take", () => {
    expect(isIsoDateTime("2028-02-29T08:00:00+01:00")).toBe(true)
    expect(isIsoDateTime("2000-02-29T08:00:00Z")).toBe(true)
    expect(isIsoDateTime("2100-02-29T08:00:00Z")).toBe(false)
    expect(isIsoDateTime("2027-02-30T08:00:00+01:00")).toBe(false)
    expect(isIsoDateTime("2027-06-31T08:00:00+01:00")).toBe(false)
    expect(isIsoDateTime("2027-03-01T24:00:00Z")).toBe(true)
    expect(isIsoDateTime("2027-03-01T24:00:01Z")).toBe(false)
    expect(isIsoDateTime("2027-03-01T08:60:00Z")).toBe(false)
    expect(isIsoDateTime("2027-03-01T08:00+01:00")).toBe(true)
    expect(isIsoDateTime("2027-03-01T08:00:00.123Z")).toBe(true)
    expect(isIsoDateTime("2027-03-01 08:00:00Z")).toBe(false)
    expect(isIsoDateTime("2027-03-01T08:00:00+0100")).toBe(false)
  })
})

describe("country codes", () => {
  it("are the 249 ISO 3166-1 codes and XK, each a region the runtime's ICU names", () => {
    expect(COUNTRY_CODES.size).toBe(250)
    const names = new Intl.DisplayNames("en", { type: "region", fallback: "none" })
    for (const code of COUNTRY_CODES) expect([code, names.of(code) !== undefined]).toEqual([code, true])
  })

  it("refuse reserved, withdrawn and made-up codes, and lower case", () => {
    for (const code of ["UK", "EU", "UN", "YU", "SU", "AN", "XX", "ZZ", "QM", "AA", "fr", "FRA", ""]) expect([code, isCountryCode(code)]).toEqual([code, false])
    for (const code of ["FR", "DE", "GB", "RS", "ME", "XK", "SS", "BQ"]) expect([code, isCountryCode(code)]).toEqual([code, true])
  })
})

describe("hasAtMostDecimals", () => {
  it("is true of every number written with at most that many decimals, and false with one more", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.constantFrom(0, 2), fc.integer({ min: 1, max: 9 }), (units, digits, extra) => {
        const value = Number(`${Math.floor(units / 10 ** digits)}.${pad(units % 10 ** digits, digits)}`)
        const finer = Number(`${value}${Number.isInteger(value) ? "." : ""}${"0".repeat(digits - decimalsOf(value))}${extra}`)
        return hasAtMostDecimals(value, digits) && !hasAtMostDecimals(finer, digits)
      }),
      { numRuns: 5_000 }
    )
  })

  it("forgives the noise of floating-point sums, and nothing more", () => {
    expect(hasAtMostDecimals(25.5, 2)).toBe(true)
    expect(hasAtMostDecimals(25.50000001, 2)).toBe(false)
    expect(hasAtMostDecimals(0.010000001, 2)).toBe(false)
    expect(hasAtMostDecimals(21.005, 2)).toBe(false)
    expect(hasAtMostDecimals(0.1 + 0.2, 2)).toBe(true)
    expect(hasAtMostDecimals(1.1 + 1 + 0.05, 2)).toBe(true)
    expect(hasAtMostDecimals(1e-7, 2)).toBe(false)
    expect(hasAtMostDecimals(1e15, 0)).toBe(true)
    expect(hasAtMostDecimals(100.5, 0)).toBe(false)
    expect(hasAtMostDecimals(100.000001, 0)).toBe(false)
  })

  it("takes any sum of prices of at most two decimals, as doubles add them", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 10 }), (cents) =>
        hasAtMostDecimals(cents.reduce((sum, c) => sum + c / 100, 0), 2)
      ),
      { numRuns: 5_000 }
    )
  })
})

const decimalsOf = (value: number): number => (String(value).split(".")[1] ?? "").length

describe("isHttpUrl and loneSurrogateAt", () => {
  it("take a URL's scheme in any case, and nothing but http(s)", () => {
    expect(["https://a.test/x.jpg", "HTTPS://a.test/x.jpg", "Http://a.test"].map(isHttpUrl)).toEqual([true, true, true])
    expect(["ftp://a.test", "https://", "https://a b", "javascript:alert(1)"].map(isHttpUrl)).toEqual([false, false, false, false])
  })

  it("finds the first string holding half of a surrogate pair, and none in whole pairs", () => {
    expect(loneSurrogateAt({ a: "ok \u{1F697}", b: [{ c: "x" }, "y\uD800z"] })).toEqual(["b", 1])
    expect(loneSurrogateAt({ a: ["\uDC00"] })).toEqual(["a", 0])
    expect(loneSurrogateAt({ a: "\uD83D\uDE97", b: 5, c: null })).toBeUndefined()
  })
})
