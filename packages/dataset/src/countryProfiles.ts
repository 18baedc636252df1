import { type CurrencyCode, LOCALE_TABLE, LOCALES } from "@tripsearch/core"
import type { Language } from "./languagePacks.js"

export interface CountryProfile {
  readonly country: string
  /** Relative share of the feed's trips that start in this country. */
  readonly weight: number
  readonly languages: ReadonlyArray<Language>
  readonly currency: CurrencyCode
  /** Whether trips from here may cross a border (Europe; not India, Brazil or Mexico). */
  readonly crossBorder: boolean
}

const SHARES: Readonly<Record<string, readonly [weight: number, languages: ReadonlyArray<Language>, crossBorder: boolean]>> = {
  FR: [22, ["fr"], true], DE: [12, ["de"], true], ES: [10, ["es"], true], IT: [9, ["it"], true], GB: [6, ["en"], true],
  PL: [5, ["pl"], true], RU: [5, ["ru"], true], BE: [3, ["fr", "nl"], true], NL: [3, ["nl"], true], PT: [3, ["pt"], true],
  UA: [3, ["uk"], true], TR: [3, ["tr"], true], BR: [3, ["pt"], false], IN: [3, ["hi"], false], AT: [2, ["de"], true],
  MX: [2, ["es"], false], RO: [2, ["ro"], true], HU: [2, ["hu"], true], CZ: [2, ["cs"], true], SK: [1, ["sk"], true],
  HR: [1, ["hr"], true], RS: [1, ["sr"], true]
}

/** The countries trips start in: those of the 23 locales (the feed format, `FeedTrip`), each with its locale's currency. */
export const COUNTRY_PROFILES: ReadonlyArray<CountryProfile> = Object.entries(SHARES).map(([country, [weight, languages, crossBorder]]) => {
  const locale = LOCALES.find((l) => LOCALE_TABLE[l].country === country)!
  return { country, weight, languages, currency: LOCALE_TABLE[locale].currency, crossBorder }
})

/** Where cross-border trips may end, besides the locale countries: their neighbours. */
export const NEIGHBOUR_COUNTRIES: ReadonlyArray<string> = [
  "CH", "LU", "LI", "MC", "AD", "SI", "DK", "IE", "GR", "BG", "MD", "BY", "LT", "LV", "EE", "ME", "BA", "MK", "AL", "GE", "SE"
]
