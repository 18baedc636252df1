import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"

const API_DATE = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/

/**
 * The API's local `DD/MM/YYYY HH:MM:SS` in the locale's own way. The API's dates are wall-clock
 * times of the place: formatted as UTC so that no zone moves them.
 */
export const formatLocalDate = (apiDate: string, locale: LocaleCode): string => {
  const m = API_DATE.exec(apiDate)
  if (m === null) return apiDate
  const [d, mo, y, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
  return new Intl.DateTimeFormat(LOCALE_TABLE[locale].bcp47, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
    Date.UTC(y, mo - 1, d, h, mi)
  )
}

/** A facet's `yyyymmdd` value as the `YYYY-MM-DD` of `db` / `de`. */
export const facetDate = (value: number): string => {
  const s = String(value).padStart(8, "0")
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/

/**
 * An ISO 8601 time with offset (a question's `asked_at`) in the locale's way, at the wall-clock
 * time it was written in: its own digits, formatted as UTC so that no zone moves them.
 */
export const formatIsoLocal = (iso: string, locale: LocaleCode): string => {
  const m = ISO.exec(iso)
  if (m === null) return iso
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number]
  return new Intl.DateTimeFormat(LOCALE_TABLE[locale].bcp47, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(
    Date.UTC(y, mo - 1, d, h, mi)
  )
}
