const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/** `DD/MM/YYYY HH:MM:SS` of a local epoch ms (wall-clock time read as UTC). */
export const formatLocalDate = (localMs: number): string => {
  const d = new Date(localMs)
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** ISO 8601 with the zone's UTC offset, e.g. `2026-11-22T08:30:00+01:00`. */
export const formatIsoWithOffset = (utcMs: number, offsetMin: number): string => {
  const d = new Date(utcMs + offsetMin * 60_000)
  const sign = offsetMin < 0 ? "-" : "+"
  const abs = Math.abs(offsetMin)
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  )
}
