import { MINOR_DIGITS } from "@tripsearch/core"
import { describe, expect, it } from "vitest"
import { legPrice } from "../src/legPrice.js"

describe("legPrice", () => {
  it("rounds to the drivers' steps in each currency", () => {
    expect(legPrice(100, 0.07, "EUR", false)).toBe(7)
    expect(legPrice(110, 0.07, "EUR", false)).toBe(7.5)
    expect(legPrice(100, 0.07, "HUF", false)).toBe(2800)
    expect(legPrice(100, 0.07, "CZK", false)).toBe(175)
    expect(legPrice(100, 0.07, "RUB", false)).toBe(700)
  })

  it("rounds exact prices to the currency's minor digits", () => {
    expect(legPrice(123.4, 0.0731, "EUR", true)).toBe(9.02)
    expect(legPrice(123.4, 0.0731, "HRK", true)).toBe(67.97)
    expect(legPrice(123.4, 0.0731, "INR", true)).toBe(812)
  })

  it("is never zero, and has no more minor digits than its currency", () => {
    for (const currency of Object.keys(MINOR_DIGITS) as Array<keyof typeof MINOR_DIGITS>) {
      for (const exact of [false, true]) {
        for (const km of [0, 0.1, 3.7, 48.2, 612.9]) {
          const price = legPrice(km, 0.05, currency, exact)
          expect(price).toBeGreaterThan(0)
          const scaled = price * 10 ** MINOR_DIGITS[currency]
          expect(Math.abs(scaled - Math.round(scaled))).toBeLessThan(1e-9)
        }
      }
    }
  })
})
