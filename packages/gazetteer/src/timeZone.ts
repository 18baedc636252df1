import tzlookup from "@photostructure/tz-lookup"

const formatters = new Map<string, Intl.DateTimeFormat>()

/** IANA zone of a point (each waypoint's zone comes from its coordinates). */
export const zoneOf = (lat: number, lon: number): string => tzlookup(lat, lon)

/** UTC offset, in minutes, of `zone` at the instant `utcMs` (DST included). */
export const zoneOffsetMinutes = (zone: string, utcMs: number): number => {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
    formatters.set(zone, f)
  }
  const name = f.formatToParts(utcMs).find((p) => p.type === "timeZoneName")?.value ?? "GMT"
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name)
  return m === null ? 0 : (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]))
}

/** Offset of the zone at a point, at an instant. */
export const offsetAt = (lat: number, lon: number, utcMs: number): number => zoneOffsetMinutes(zoneOf(lat, lon), utcMs)
