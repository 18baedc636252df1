import { LOCALE_TABLE, MINOR_DIGITS } from "../model/Locale.js"
import type { SearchQuery } from "../model/SearchQuery.js"
import { defaultRadiusKm, type Point } from "../geo/radius.js"
import type { RateTable } from "../pricing/rates.js"
import type { MatchRequest } from "./MatchRequest.js"

const DAY_MS = 86_400_000
const LAST_SECOND_MS = DAY_MS - 1000

/** The decoded query and resolved places as the matcher's plain request (docs/API.md, Searching). */
export const toMatchRequest = (
  query: SearchQuery,
  from: Point | undefined,
  to: Point | undefined,
  nowMs: number,
  rates: RateTable
): MatchRequest => {
  const radius = defaultRadiusKm(from, to)
  const radiusFrom = query.radius_from ?? query.radius ?? radius
  const radiusTo = query.radius_to ?? query.radius ?? radius
  const { db, de } = query
  // A date-only `db` alone means that whole day (from its time, if given); a date-only `de` ends at 23:59:59.
  const localFromMs = db?.localMs
  const localToMs =
    de !== undefined ? (de.hasTime ? de.localMs : de.localMs + LAST_SECOND_MS)
    : db !== undefined ? Math.floor(db.localMs / DAY_MS) * DAY_MS + LAST_SECOND_MS
    : undefined
  const unit = 10 ** MINOR_DIGITS[query.cur]
  return {
    ...(from !== undefined ? { from: { ...from, radiusKm: radiusFrom } } : {}),
    ...(to !== undefined ? { to: { ...to, radiusKm: radiusTo } } : {}),
    nowMs,
    ...(localFromMs !== undefined ? { localFromMs } : {}),
    ...(localToMs !== undefined ? { localToMs } : {}),
    ...(query.hb !== undefined ? { hourFrom: query.hb } : {}),
    ...(query.he !== undefined ? { hourTo: query.he } : {}),
    ...(query.seats !== undefined ? { seats: query.seats } : {}),
    photoOnly: query.photo,
    autoOnly: query.aa,
    includeShort: query.shortlines,
    ...(query.pmin !== undefined ? { priceMinMinor: query.pmin * unit } : {}),
    ...(query.pmax !== undefined ? { priceMaxMinor: query.pmax * unit } : {}),
    currency: query.cur,
    priceMode: LOCALE_TABLE[query.locale].priceMode,
    rates,
    sort: query.sort ?? "trip_date",
    order: query.sort === undefined ? "asc" : query.order,
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
    withTopTrips: query.page === 1,
    withTrips: true
  }
}
