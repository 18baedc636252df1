import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"

// Formatters are costly to build and a page writes many figures: one per locale and kind.
const formatters = new Map<string, Intl.NumberFormat>()
const numberFormat = (locale: LocaleCode, unit: "kilometer" | "hour" | "minute", fractionDigits: number): Intl.NumberFormat => {
  const id = `${locale}|${unit}|${fractionDigits}`
  let f = formatters.get(id)
  if (f === undefined)
    formatters.set(id, (f = new Intl.NumberFormat(LOCALE_TABLE[locale].bcp47, { style: "unit", unit, unitDisplay: "short", maximumFractionDigits: fractionDigits })))
  return f
}
const lists = new Map<LocaleCode, Intl.ListFormat>()

/** A distance in the locale's way (`0,6 км`, `644 km`): tenths of a kilometre under 10 km, whole ones beyond. */
export const formatKm = (meters: number, locale: LocaleCode): string => numberFormat(locale, "kilometer", meters < 10_000 ? 1 : 0).format(meters / 1000)

/**
 * A duration in hours and minutes in the locale's words (`8 Std., 14 Min.`, `8 ч 14 мин`):
 * what `Intl.DurationFormat` would write, which Node 20 lacks, from the units of `NumberFormat`
 * joined as a list of units.
 */
export const formatDuration = (seconds: number, locale: LocaleCode): string => {
  const total = Math.max(0, Math.round(seconds / 60))
  const hours = Math.floor(total / 60)
  const minutes = total % 60
  const parts: Array<string> = []
  if (hours > 0) parts.push(numberFormat(locale, "hour", 0).format(hours))
  if (minutes > 0 || hours === 0) parts.push(numberFormat(locale, "minute", 0).format(minutes))
  let list = lists.get(locale)
  if (list === undefined) lists.set(locale, (list = new Intl.ListFormat(LOCALE_TABLE[locale].bcp47, { type: "unit", style: "narrow" })))
  return list.format(parts)
}
