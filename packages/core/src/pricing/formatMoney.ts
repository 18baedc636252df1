import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"

// By locale, then currency: a lookup per price object without building a key string.
const formats = new Map<string, Map<CurrencyCode, { format: Intl.NumberFormat; symbol: string }>>()

const formatFor = (bcp47: string, currency: CurrencyCode) => {
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
    entry = { format, symbol }
    byCurrency.set(currency, entry)
  }
  return entry
}

/** `string_value` of an amount in minor units, by the runtime's Intl for the locale. */
export const formatMoney = (minor: number, currency: CurrencyCode, bcp47: string): string =>
  formatFor(bcp47, currency).format.format(minor / 10 ** MINOR_DIGITS[currency])

export const currencySymbol = (currency: CurrencyCode, bcp47: string): string => formatFor(bcp47, currency).symbol
