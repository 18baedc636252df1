import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"

const formats = new Map<string, { format: Intl.NumberFormat; symbol: string }>()

const formatFor = (bcp47: string, currency: CurrencyCode) => {
  const key = `${bcp47}|${currency}`
  let entry = formats.get(key)
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
    formats.set(key, entry)
  }
  return entry
}

/** `string_value` of an amount in minor units, by the runtime's Intl for the locale. */
export const formatMoney = (minor: number, currency: CurrencyCode, bcp47: string): string =>
  formatFor(bcp47, currency).format.format(minor / 10 ** MINOR_DIGITS[currency])

export const currencySymbol = (currency: CurrencyCode, bcp47: string): string => formatFor(bcp47, currency).symbol
