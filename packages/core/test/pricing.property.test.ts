import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import {
  CURRENCIES, DEFAULT_RATES, LOCALE_TABLE, LOCALES, MINOR_DIGITS, convertMinor, formatMoney, priceColor, segmentAmounts,
  type CurrencyCode
} from "@tripsearch/core"

// The default rates written as decimal strings, so the reference never touches a binary float.
const RATE_TEXT: Record<CurrencyCode, string> = {
  EUR: "1", GBP: "0.85", CZK: "25", HRK: "7.5345", HUF: "400", INR: "90", MXN: "20", PLN: "4.3", RON: "5", RSD: "117",
  RUB: "100", TRY: "35", UAH: "45"
}
const rational = (text: string): [bigint, bigint] => {
  const [int, frac = ""] = text.split(".")
  return [BigInt(int + frac), 10n ** BigInt(frac.length)]
}
const roundHalfUp = (num: bigint, den: bigint): bigint => (2n * num + den) / (2n * den)
const pow10 = (c: CurrencyCode) => 10n ** BigInt(MINOR_DIGITS[c])

/** `round(p * rate[c] / rate[t])`, `round(net * 0.15)`, price by country: all in exact rationals. */
const reference = (pMinor: number, t: CurrencyCode, c: CurrencyCode, bookingType: string, mode: "with" | "net") => {
  const [cn, cd] = rational(RATE_TEXT[c])
  const [tn, td] = rational(RATE_TEXT[t])
  const net = roundHalfUp(BigInt(pMinor) * cn * td * pow10(c), pow10(t) * cd * tn)
  const commission = bookingType === "no_booking" ? 0n : roundHalfUp(net * 15n, 100n)
  const withC = net + commission
  return { net: Number(net), commission: Number(commission), withCommission: Number(withC), price: Number(mode === "with" ? withC : net) }
}

describe("prices by locale and currency", () => {
  it("equal the exact reference arithmetic for every locale and currency pair", () => {
    const pairs = LOCALES.flatMap((l) => {
      const info = LOCALE_TABLE[l]
      return [info.currency, ...(info.alternative ? [info.alternative] : [])].map((c) => ({ info, c }))
    })
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 1, max: 50_000_000 }),
        fc.constantFrom("online" as const, "onboard" as const, "no_booking" as const),
        ({ info, c }, t, pMinor, bookingType) => {
          expect(segmentAmounts(pMinor, t, bookingType, c, info.priceMode, DEFAULT_RATES)).toEqual(
            reference(pMinor, t, c, bookingType, info.priceMode)
          )
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("rounds the exact value: 10.00 EUR is 75.345 HRK, which is 75.35", () => {
    expect(convertMinor(1000, "EUR", "HRK", DEFAULT_RATES)).toBe(7535)
  })

  it("colours against round(0.065 * km * rate) to the currency's digits", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), fc.integer({ min: 0, max: 3_000_000 }), fc.integer({ min: 0, max: 10_000_000 }), (c, distanceM, net) => {
        const [cn, cd] = rational(RATE_TEXT[c])
        const ref = roundHalfUp(65n * BigInt(distanceM) * cn * pow10(c), 1_000_000n * cd)
        const expected = BigInt(net) <= ref ? "GREEN" : 10n * BigInt(net) <= 13n * ref ? "ORANGE" : "RED"
        expect(priceColor(net, distanceM, c, DEFAULT_RATES)).toBe(expected)
      }),
      { numRuns: 2000 }
    )
  })

  it("formats with Intl for the locale and the currency's digits", () => {
    expect(formatMoney(2450, "GBP", "en-GB")).toBe("£24.50")
    expect(formatMoney(1100, "EUR", "de-DE")).toBe("11,00\u00a0€")
    expect(formatMoney(1234, "HUF", "hu-HU")).toMatch(/^1\s?234\sFt$/)
  })

  it("answers what Intl prints, amounts asked again included (its texts are kept)", () => {
    const locales = [...new Set(LOCALES.map((l) => LOCALE_TABLE[l].bcp47))]
    // Few amounts, so that most are asked again; -0 and 0 both, whose texts differ.
    const amount = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 10_000_000 }), fc.constant(-0))
    fc.assert(
      fc.property(fc.array(fc.tuple(amount, fc.constantFrom(...CURRENCIES), fc.constantFrom(...locales)), { minLength: 1, maxLength: 50 }), (asked) => {
        for (const [minor, c, bcp47] of asked) {
          const d = MINOR_DIGITS[c]
          const intl = new Intl.NumberFormat(bcp47, { style: "currency", currency: c, minimumFractionDigits: d, maximumFractionDigits: d })
          expect(formatMoney(minor, c, bcp47)).toBe(intl.format(minor / 10 ** d))
        }
      }),
      { numRuns: 300 }
    )
  })
})
