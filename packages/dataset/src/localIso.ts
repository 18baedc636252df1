import { zoneOffsetMinutes } from "@tripsearch/gazetteer"

const HOUR_MS = 3_600_000
// Offsets change on whole UTC hours in the zones the feed covers, so one lookup per zone and hour
// is exact; the cache stays small (zones x hours of the 30-day window).
const offsets = new Map<string, Map<number, number>>()

/** UTC offset of `zone` at `utcMs`, in minutes, cached per zone and hour. */
export const cachedOffsetMinutes = (zone: string, utcMs: number): number => {
  let byHour = offsets.get(zone)
  if (byHour === undefined) offsets.set(zone, (byHour = new Map()))
  const hour = Math.floor(utcMs / HOUR_MS)
  let offset = byHour.get(hour)
  if (offset === undefined) byHour.set(hour, (offset = zoneOffsetMinutes(zone, hour * HOUR_MS)))
  return offset
}

const pad = (n: number): string => (n < 10 ? `0${n}` : String(n))

/** ISO 8601 local date-time with the zone's offset at that instant: `2026-03-05T08:30:00+01:00`. */
export const localIso = (utcMs: number, zone: string): string => {
  const offset = cachedOffsetMinutes(zone, utcMs)
  const local = new Date(utcMs + offset * 60_000).toISOString().slice(0, 19)
  const abs = Math.abs(offset)
  return `${local}${offset < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
}
