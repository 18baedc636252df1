import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"

interface MoneyFormat {
  readonly format: Intl.NumberFormat
  readonly symbol: string
  /**
   * Texts already made, by amount in minor units: a search shows four prices per trip, and amounts
   * repeat across trips and searches, where `Intl.NumberFormat.format` costs a few microseconds.
   */
  readonly texts: Map<number, string>
}

/** Amounts kept per locale and currency before the texts are forgotten (a bound, not an LRU). */
const TEXTS_KEPT = 4096

// By locale, then currency: a lookup per price object without building a key string.
const formats = new Map<string, Map<CurrencyCode, MoneyFormat>>()

const formatFor = (bcp47: string, currency: CurrencyCode): MoneyFormat => {
  let byCurrency = formats.get(bcp47)
  if (byCurrency === undefined) {
    byCurrency = new Map()
    formats.set(bcp47, byCurrency)
  }
  let entry = byCurrency.get(currency)
  if (entry === undefined) {
    const digits = MINOR_DIGITS[currency]
    const format = new Intl.NumberFormat(bcp47, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits
    })
    const symbol = format.formatToParts(0).find((p) => p.type === "currency")?.value ?? currency
    entry = { format, symbol, texts: new Map() }
    byCurrency.set(currency, entry)
  }
  return entry
}

/** `string_value` of an amount in minor units, by the runtime's Intl for the locale. */
export const formatMoney = (minor: number, currency: CurrencyCode, bcp47: string): string => {
  const { format, texts } = formatFor(bcp47, currency)
  // A Map takes -0 for 0, which Intl prints with its sign.
  if (Object.is(minor, -0)) return format.format(minor / 10 ** MINOR_DIGITS[currency])
  let text = texts.get(minor)
  if (text === undefined) {
    text = format.format(minor / 10 ** MINOR_DIGITS[currency])
    if (texts.size >= TEXTS_KEPT) texts.clear()
    texts.set(minor, text)
  }
  return text
}

export const currencySymbol = (currency: CurrencyCode, bcp47: string): string => formatFor(bcp47, currency).symbol
