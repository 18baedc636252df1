import { Schema } from "effect"

/** The 13 currencies of the locale table, with their minor digits (docs/API.md, Prices). */
export const CURRENCIES = ["EUR", "GBP", "CZK", "HRK", "HUF", "INR", "MXN", "PLN", "RON", "RSD", "RUB", "TRY", "UAH"] as const
export type CurrencyCode = (typeof CURRENCIES)[number]
export const CurrencyCode = Schema.Literal(...CURRENCIES)

export const MINOR_DIGITS: Readonly<Record<CurrencyCode, 0 | 2>> = {
  EUR: 2, GBP: 2, PLN: 2, RON: 2, HRK: 2,
  CZK: 0, HUF: 0, INR: 0, MXN: 0, RSD: 0, RUB: 0, TRY: 0, UAH: 0
}

/**
 * Whether `price` carries the commission (`with`) or the driver's net price (`net`) in a locale's
 * country (docs/API.md, Prices).
 */
export type PriceMode = "with" | "net"

export interface LocaleInfo {
  readonly locale: LocaleCode
  /** ISO 3166-1 alpha-2 country of the locale, preferred when resolving place names. */
  readonly country: string
  readonly currency: CurrencyCode
  readonly alternative?: CurrencyCode
  readonly priceMode: PriceMode
  /** BCP 47 tag for Intl (`_` -> `-`). */
  readonly bcp47: string
}

export const LOCALES = [
  "de_AT", "pt_BR", "cs_CZ", "de_DE", "en_GB", "es_ES", "fr_FR", "fr_BE", "hr_HR", "hu_HU", "en_IN", "it_IT",
  "es_MX", "nl_NL", "nl_BE", "pl_PL", "pt_PT", "ro_RO", "sr_Latn_RS", "ru_RU", "sk_SK", "tr_TR", "uk_UA"
] as const
export type LocaleCode = (typeof LOCALES)[number]
export const LocaleCode = Schema.Literal(...LOCALES)

const WITH_COMMISSION = new Set(["AT", "DE", "GB", "ES", "FR", "BE", "IT", "NL", "PT", "PL"])
const CURRENCY_OF: Readonly<Record<LocaleCode, readonly [CurrencyCode, CurrencyCode?]>> = {
  de_AT: ["EUR"], pt_BR: ["EUR"], cs_CZ: ["CZK"], de_DE: ["EUR"], en_GB: ["GBP", "EUR"], es_ES: ["EUR"],
  fr_FR: ["EUR"], fr_BE: ["EUR"], hr_HR: ["HRK", "EUR"], hu_HU: ["HUF"], en_IN: ["INR"], it_IT: ["EUR"],
  es_MX: ["MXN"], nl_NL: ["EUR"], nl_BE: ["EUR"], pl_PL: ["PLN"], pt_PT: ["EUR"], ro_RO: ["RON"],
  sr_Latn_RS: ["RSD"], ru_RU: ["RUB", "UAH"], sk_SK: ["EUR"], tr_TR: ["TRY"], uk_UA: ["UAH", "RUB"]
}

export const LOCALE_TABLE: Readonly<Record<LocaleCode, LocaleInfo>> = Object.fromEntries(
  LOCALES.map((locale) => {
    const country = locale.slice(-2)
    const [currency, alternative] = CURRENCY_OF[locale]
    const info: LocaleInfo = {
      locale,
      country,
      currency,
      ...(alternative ? { alternative } : {}),
      priceMode: WITH_COMMISSION.has(country) ? "with" : "net",
      bcp47: locale.replace(/_/g, "-")
    }
    return [locale, info]
  })
) as Record<LocaleCode, LocaleInfo>

export const isLocaleCode = (s: string): s is LocaleCode => Object.prototype.hasOwnProperty.call(LOCALE_TABLE, s)

/** Countries of the 23 locales: the generator covers all of them. */
export const LOCALE_COUNTRIES: ReadonlyArray<string> = [...new Set(LOCALES.map((l) => l.slice(-2)))]
