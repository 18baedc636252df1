/*
 * The feeds' rules on single values, shared by the Schemas (`FeedTrip`, `FeedMeetingPoint`), which
 * give the verdict and the messages, and by the import's fast path (store-common's
 * `acceptFeedTrip`), which must never accept what they refuse.
 */

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-](\d{2}):(\d{2}))$/

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/**
 * An ISO 8601 date-time with an offset, `2026-11-22T08:30:00+01:00`, that names a day of the
 * calendar: `Date.parse` alone takes 2027-02-30 and moves it to March 2, while the feed's text
 * kept the impossible date. 24:00 (the end of a day) is accepted, as ISO 8601 and `Date` take it.
 */
export const isIsoDateTime = (text: string): boolean => {
  const m = ISO_DATE_TIME.exec(text)
  if (m === null) return false
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [number, number, number, number, number, number]
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return false
  if (minute > 59 || second > 59 || hour > 24 || (hour === 24 && (minute > 0 || second > 0 || Number(m[7] ?? 0) > 0))) return false
  if (m[8] !== "Z" && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false
  return !Number.isNaN(Date.parse(text))
}

/**
 * Whether `departure_time + offset_min` is within a `Date`'s range (8.64e15 ms either way of the
 * epoch, about 275,000 years): past it, no time of the waypoint can be worked out.
 */
export const isWaypointTime = (departureMs: number, offsetMin: number): boolean => Math.abs(departureMs + offsetMin * 60_000) <= 8.64e15

/**
 * The officially assigned ISO 3166-1 alpha-2 codes (249), and `XK`, Kosovo's user-assigned code,
 * which GeoNames (and so the gazetteer's cities) gives Kosovo's towns: a feed written from GeoNames
 * must import. Reserved and withdrawn codes (`UK`, `EU`, `YU`...) are not countries.
 */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  ("AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
    "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
    "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
    "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
    "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
    "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK").split(" ")
)

export const isCountryCode = (text: string): boolean => COUNTRY_CODES.has(text)

/**
 * Whether a price has at most `digits` decimals, up to the noise of floating-point arithmetic: a
 * feed writer that sums or scales doubles writes 2.1500000000000004 for 2.15, or
 * 0.30000000000000004 for 0.3, and those are the prices it means. A real extra decimal, however
 * small (25.50000001, 21.005), is far above that noise: a few units in the last place of the price
 * in minor units.
 */
export const hasAtMostDecimals = (value: number, digits: number): boolean => {
  const scaled = value * 10 ** digits
  return Math.abs(scaled - Math.round(scaled)) <= Math.max(1, Math.abs(scaled)) * Number.EPSILON * 16
}

/** An http(s) URL; the scheme in any case, as URLs allow (`HTTPS://...`). */
export const isHttpUrl = (text: string): boolean => /^https?:\/\/\S+$/i.test(text)

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * The path of the first string in `json` holding half of a UTF-16 pair (only a `\uD800`-style
 * escape can write one in UTF-8 text), or undefined. Such a string is no Unicode text: stored, it
 * would be the very bytes the import refuses as invalid UTF-8 when they come raw.
 */
export const loneSurrogateAt = (json: unknown, path: Array<PropertyKey> = []): Array<PropertyKey> | undefined => {
  if (typeof json === "string") return LONE_SURROGATE.test(json) ? path : undefined
  if (typeof json !== "object" || json === null) return undefined
  for (const [key, value] of Object.entries(json)) {
    const found = loneSurrogateAt(value, [...path, Array.isArray(json) ? Number(key) : key])
    if (found !== undefined) return found
  }
  return undefined
}
