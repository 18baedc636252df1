import { Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeDetailsQuery, decodeSearchQuery, FLAG_VALUES, FORMATS, LOCALE_TABLE, LOCALES, ORDERS, SEARCH_FIELD_NAMES, SORTS,
  TRIP_FIELD_NAMES, type InvalidParameter, type LocaleCode, type RawParams
} from "@tripsearch/core"

const rejected = (decode: (p: RawParams) => Either.Either<unknown, InvalidParameter>, params: RawParams): InvalidParameter => {
  const r = decode(params)
  if (Either.isRight(r)) throw new Error(`accepted ${JSON.stringify(params)}`)
  return r.left
}

/** The message names the parameter first, what was given, and every allowed value, in one sentence. */
const expectRule = (error: InvalidParameter, parameter: string, given: string, allowed: ReadonlyArray<string>) => {
  expect(error.parameter).toBe(parameter)
  expect(error.message.startsWith(`${parameter}: `)).toBe(true)
  expect(error.message).toContain(JSON.stringify(given))
  const words = new Set(error.message.split(/[\s,"():]+/))
  for (const value of allowed) expect(words, `${value} in ${error.message}`).toContain(value)
  expect(error.message).not.toMatch(/Expected|actual|\n|[.;] /)
}

// The currencies of a locale, read from the locale table itself (not through the code under test).
const currenciesOfLocale = (locale: LocaleCode): Array<string> => {
  const info = LOCALE_TABLE[locale]
  return info.alternative === undefined ? [info.currency] : [info.currency, info.alternative]
}

// Each enumerated search parameter with the constant its Schema is built from.
const SEARCH_LISTS: ReadonlyArray<[string, ReadonlyArray<string>]> = [
  ["_format", FORMATS],
  ["sort", SORTS],
  ["order", ORDERS],
  ["photo", FLAG_VALUES],
  ["aa", FLAG_VALUES],
  ["shortlines", FLAG_VALUES]
]

// A value outside every list: none of them starts with "zz".
const notAllowed = fc.stringMatching(/^[A-Za-z0-9_|-]{0,12}$/).map((s) => `zz${s}`)

describe("a 400 for a value from a list names every allowed value", () => {
  it("locale: all 23 locales, what was given, for the search and the details", () => {
    fc.assert(
      fc.property(notAllowed, (given) => {
        for (const decode of [decodeSearchQuery, decodeDetailsQuery]) {
          expectRule(rejected(decode, { locale: given, cur: "EUR" }), "locale", given, LOCALES)
        }
      }),
      { numRuns: 50 }
    )
    const missing = rejected(decodeSearchQuery, { cur: "EUR" })
    expect(missing.missing).toBe(true)
    for (const locale of LOCALES) expect(missing.message).toContain(locale)
  })

  it.each(LOCALES)("cur with %s: the locale's default and alternative currencies", (locale) => {
    const allowed = currenciesOfLocale(locale)
    for (const given of ["USD", "eur", "", ...["EUR", "GBP", "PLN", "RUB", "UAH"].filter((c) => !allowed.includes(c))]) {
      const search = rejected(decodeSearchQuery, { locale, cur: given })
      expectRule(search, "cur", given, allowed)
      expect(search.message).toContain(locale)
      if (given !== "") expectRule(rejected(decodeDetailsQuery, { locale, cur: given }), "cur", given, allowed)
    }
    const missing = rejected(decodeSearchQuery, { locale })
    expect(missing.missing).toBe(true)
    for (const currency of allowed) expect(missing.message).toContain(currency)
  })

  it("an empty cur: a 400 on a search, where cur is required; absent on a trip's details, where it is optional (docs/DECISIONS.md)", () => {
    for (const locale of LOCALES) {
      expect(rejected(decodeSearchQuery, { locale, cur: "" }).parameter).toBe("cur")
      const details = decodeDetailsQuery({ locale, cur: "" })
      expect(Either.isRight(details) && details.right.cur === undefined).toBe(true)
    }
    expect(rejected(decodeDetailsQuery, { locale: "", cur: "EUR" }).parameter).toBe("locale")
  })

  it("the README's example: cur=USD with en_GB names GBP and EUR", () => {
    expect(rejected(decodeSearchQuery, { locale: "en_GB", cur: "USD" }).message).toBe('cur: must be GBP or EUR for locale en_GB, got "USD"')
    expect(rejected(decodeSearchQuery, { locale: "fr_FR", cur: "GBP" }).message).toBe('cur: must be EUR for locale fr_FR, got "GBP"')
    expect(rejected(decodeSearchQuery, { locale: "hr_HR", cur: "GBP" }).message).toBe('cur: must be HRK or EUR for locale hr_HR, got "GBP"')
  })

  it("with both locale and cur wrong, the locale is reported; cur comes before the others", () => {
    expectRule(rejected(decodeSearchQuery, { locale: "xx_XX", cur: "USD" }), "locale", "xx_XX", LOCALES)
    expectRule(rejected(decodeSearchQuery, { locale: "xx_XX" }), "locale", "xx_XX", LOCALES)
    expectRule(rejected(decodeDetailsQuery, { locale: "fr_CA", cur: "CAD" }), "locale", "fr_CA", LOCALES)
    // Then cur, before the other parameters.
    expectRule(rejected(decodeSearchQuery, { locale: "en_GB", cur: "USD", sort: "x", limit: "-1" }), "cur", "USD", ["GBP", "EUR"])
  })

  it.each(SEARCH_LISTS)("%s: every allowed value", (parameter, allowed) => {
    fc.assert(
      fc.property(notAllowed, (given) => {
        expectRule(rejected(decodeSearchQuery, { locale: "fr_FR", cur: "EUR", [parameter]: given }), parameter, given, allowed)
      }),
      { numRuns: 30 }
    )
  })

  it("_format of the details: json and xml", () => {
    expectRule(rejected(decodeDetailsQuery, { locale: "fr_FR", _format: "yaml" }), "_format", "yaml", FORMATS)
  })

  it("fields: the unknown name, every top-level field and every trip field", () => {
    const error = rejected(decodeSearchQuery, { locale: "fr_FR", cur: "EUR", fields: "trips,nope" })
    expect(error.parameter).toBe("fields")
    expect(error.message).toContain('"nope"')
    const words = new Set(error.message.split(/[\s,"():]+/))
    for (const name of [...SEARCH_FIELD_NAMES, ...TRIP_FIELD_NAMES]) expect(words).toContain(name)
    expect(error.message).not.toMatch(/Expected|actual/)
  })
})
