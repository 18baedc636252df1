import { LOCALE_TABLE, LOCALES } from "@tripsearch/core"
import { type BusyRoadSearch, busyRoadSearches } from "./busyRoadSearches.js"
import { Random } from "./Random.js"

/** What the query-log generator reads of a feed trip. */
export interface QueryLogTrip {
  readonly id: string
  readonly departure_time: string
  readonly waypoints: ReadonlyArray<{ readonly city: string; readonly lat: number; readonly lon: number; readonly country?: string }>
}

export interface GenerateQueryLogOptions {
  /** Feed trips (or a sample of them): the places and dates the queries ask for. */
  readonly trips: ReadonlyArray<QueryLogTrip>
  /** Number of log lines. */
  readonly count: number
  /** Same seed and trips, same log. */
  readonly seed: string | number
  /** `time` of the first query (epoch ms); the next ones follow at a Poisson rate. */
  readonly startMs: number
  /** Mean queries per second of the recorded traffic (default 20). */
  readonly perSecond?: number
  /**
   * `"default"`: the traffic of the historical service (mostly city pairs at the default radius,
   * some details reads). `"heavy"`: only searches, as heavy as partners send them: single places
   * and pairs with radii from 1 to 300 km, filters that reject most candidates, later pages: the
   * mix the search benchmark measures, because a matcher tuned on light pairs hides its fixed cost.
   */
  readonly mix?: QueryMix
  /**
   * The heavy mix's searches along busy roads: ROAD_SHARE of its searches go from a town a road
   * passes to the road's end or beyond. Default: the generator's busy roads (`busyRoadSearches`);
   * `[]` for none.
   */
  readonly roads?: ReadonlyArray<BusyRoadSearch>
}

/**
 * `"wide"`: single places and pairs of the feed with `radius`, `radius_from` or `radius_to` of
 * 100-500 km, where a search spans regions. `"dense"`: pairs of the feed at the default radius
 * (on a `--dense` feed, between two of a country's largest towns, where one pair matches
 * thousands of trips), with dates, sorts and pages as partners send them.
 */
export type QueryMix = "default" | "heavy" | "wide" | "dense"

/** Share of the heavy mix's searches along a busy road. */
const ROAD_SHARE = 0.35

/** One line of the API's query log (the shape `http-express` writes). */
export interface QueryLogRecord {
  readonly time: string
  readonly path: string
  readonly query: string
  readonly status: number
  readonly duration_ms: number
}

interface Place {
  readonly city: string
  readonly lat: number
  readonly lon: number
  readonly country: string | undefined
}

const DAY_MS = 86_400_000
const pad = (n: number) => String(n).padStart(2, "0")
const ymd = (ms: number) => {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
}
const coords = (p: Place, random: Random): string => {
  // Clients send what their map gave them: 4 to 6 decimals, a little off the city centre.
  const digits = random.int(4, 6)
  const jitter = () => random.between(-0.02, 0.02)
  return `${(p.lat + jitter()).toFixed(digits)}|${(p.lon + jitter()).toFixed(digits)}`
}

/**
 * A realistic recorded query log (the NDJSON records of the API's `QUERY_LOG`), deterministic for
 * a seed: city pairs drawn by how often the feed's trips join them (the feed draws cities by
 * population, so busy pairs are the populous ones), by coordinates (`fc`/`tc`) or names
 * (`fn`/`tn`), some single-place searches, date and hour windows, seats, price ranges, both sorts
 * and orders, later pages, both `_format`s, all 23 locales with their default or alternative
 * currency, and a few details / threads reads of listed trips. `status` and `duration_ms` are
 * plausible placeholders (the replay re-measures them).
 */
export function* generateQueryLog(options: GenerateQueryLogOptions): Generator<QueryLogRecord, void, undefined> {
  const random = new Random(`query-log:${options.seed}`)
  const perSecond = options.perSecond ?? 20
  const pairs = new Map<string, { from: Place; to: Place; trips: Array<QueryLogTrip>; weight: number }>()
  const places: Array<Place> = []
  for (const trip of options.trips) {
    const ws = trip.waypoints
    if (ws.length < 2) continue
    for (const w of ws) places.push({ city: w.city, lat: w.lat, lon: w.lon, country: w.country })
    // Every (earlier, later) waypoint pair is a route someone may search.
    for (let i = 0; i < ws.length - 1; i++) {
      for (let j = i + 1; j < ws.length; j++) {
        const a = ws[i]!
        const b = ws[j]!
        const key = `${a.city}\u0000${b.city}`
        const entry = pairs.get(key) ?? { from: { ...a, country: a.country }, to: { ...b, country: b.country }, trips: [], weight: 0 }
        entry.weight += i === 0 && j === ws.length - 1 ? 3 : 1
        entry.trips.push(trip)
        pairs.set(key, entry)
      }
    }
  }
  const pairList = [...pairs.values()]
  if (pairList.length === 0) throw new Error("generateQueryLog needs trips with at least two waypoints")
  const cumulative = new Float64Array(pairList.length)
  pairList.reduce((acc, p, k) => (cumulative[k] = acc + p.weight), 0)
  // The heavy mix leans on the busiest cities and routes: where a fixed cost per search shows.
  const heavy = options.mix === "heavy" ? busiest(places, pairList) : undefined
  const roads = options.mix === "heavy" ? (options.roads ?? busyRoadSearches()).filter((r) => r.along.length > 0 && r.ends.length > 0) : []
  const roadWeights = new Float64Array(roads.length)
  roads.reduce((acc, r, k) => (roadWeights[k] = acc + r.weight), 0)

  let timeMs = options.startMs
  for (let n = 0; n < options.count; n++) {
    if (n > 0) timeMs += Math.max(1, Math.round((-Math.log(1 - random.next()) / perSecond) * 1000))
    const pair = pairList[random.cumulative(cumulative)]!
    const trip = random.pick(pair.trips)
    const locale = LOCALES[random.weighted(LOCALES.map((l) => (l === "fr_FR" ? 6 : l === "de_DE" || l === "es_ES" || l === "it_IT" ? 3 : 1)))]!
    const info = LOCALE_TABLE[locale]
    const cur = info.alternative !== undefined && random.chance(0.25) ? info.alternative : info.currency
    const q: Array<[string, string]> = [["locale", locale], ["cur", cur]]
    if (options.mix === "wide") {
      yield record(timeMs, "/api/v2/trips", [...q, ...wideSearch(pair, random.pick(places), random.pick(pair.trips), random)], 200, random)
      continue
    }
    if (options.mix === "dense") {
      yield record(timeMs, "/api/v2/trips", [...q, ...denseSearch(pair, trip, random)], 200, random)
      continue
    }
    if (roads.length > 0 && random.chance(ROAD_SHARE)) {
      // A passenger in a town the drivers pass through, going where they go.
      const road = roads[random.cumulative(roadWeights)]!
      const along = { from: random.pick(road.along), to: random.pick(road.ends) }
      yield record(timeMs, "/api/v2/trips", [...q, ...heavySearch(along, along, trip, random, true)], 200, random)
      continue
    }
    if (options.mix === "heavy") {
      // Half the places and routes among the busiest, the others drawn by how many trips pass them.
      const top = heavy !== undefined && random.chance(0.5)
      const route = top ? random.pick(heavy!.pairs) : pair
      const single = () => (top ? random.pick(heavy!.cities) : random.pick(places))
      const busy = { from: single(), to: single() }
      yield record(timeMs, "/api/v2/trips", [...q, ...heavySearch(route, busy, random.pick(route.trips), random)], 200, random)
      continue
    }
    const format = random.chance(0.85) ? "json" : "xml"

    const kind = random.next()
    if (kind < 0.06) {
      // Details (and sometimes its threads) of a trip seen in a result list.
      const threads = random.chance(0.3)
      q.push(["_format", format])
      yield record(timeMs, `/api/v2/trips/${encodeURIComponent(trip.id)}${threads ? "/threads" : ""}`, q, 200, random)
      continue
    }
    if (random.chance(0.7) || format === "xml") q.push(["_format", format])
    const single = kind < 0.16
    const byCoords = random.chance(0.45)
    const side = single ? (random.chance(0.6) ? "from" : "to") : "both"
    if (side !== "to") q.push(byCoords ? ["fc", coords(pair.from, random)] : ["fn", pair.from.city])
    if (side !== "from") q.push(byCoords ? ["tc", coords(pair.to, random)] : ["tn", pair.to.city])
    const departure = Date.parse(trip.departure_time)
    if (Number.isFinite(departure) && random.chance(0.55)) {
      const day = departure - random.int(0, 2) * DAY_MS
      if (random.chance(0.5)) q.push(["db", ymd(day)])
      else q.push(["db", ymd(day)], ["de", ymd(day + random.int(1, 6) * DAY_MS)])
    }
    if (random.chance(0.15)) {
      const hb = random.int(0, 20)
      q.push(["hb", String(hb)], ["he", String(random.int(hb + 1, 24))])
    }
    if (random.chance(0.3)) q.push(["seats", String(random.weighted([0, 60, 25, 10, 5]))])
    if (random.chance(0.1)) {
      const pmin = random.int(0, 30)
      q.push(["pmin", String(pmin)], ["pmax", String(pmin + random.int(5, 80))])
    }
    if (random.chance(0.35)) {
      q.push(["sort", random.chance(0.5) ? "trip_date" : "trip_price"])
      if (random.chance(0.6)) q.push(["order", random.chance(0.5) ? "asc" : "desc"])
    }
    if (random.chance(0.2)) q.push(["limit", String(random.pick([5, 20, 50, 100]))])
    if (random.chance(0.18)) q.push(["page", String(random.weighted([0, 0, 60, 25, 10, 5]))])
    if (random.chance(0.05)) q.push(["radius", String(random.int(5, 60))])
    if (random.chance(0.05)) q.push(["photo", "1"])
    yield record(timeMs, "/api/v2/trips", q, 200, random)
  }
}

/** The 100 cities most trips pass through, and the 300 routes most trips join. */
const busiest = <R extends { readonly weight: number }>(places: ReadonlyArray<Place>, pairs: ReadonlyArray<R>) => {
  const byCity = new Map<string, { place: Place; count: number }>()
  for (const p of places) {
    const key = `${p.city}\u0000${p.country}`
    const entry = byCity.get(key)
    if (entry === undefined) byCity.set(key, { place: p, count: 1 })
    else entry.count++
  }
  return {
    cities: [...byCity.values()].sort((a, b) => b.count - a.count).slice(0, 100).map((e) => e.place),
    pairs: [...pairs].sort((a, b) => b.weight - a.weight).slice(0, 300)
  }
}

/** A radius in km, log-uniform over [1, 300]: as many searches around a village as across a region. */
const wideRadius = (random: Random): string => String(Math.max(1, Math.min(300, Math.round(Math.exp(random.between(0, Math.log(300)))))))

/**
 * One heavy search: a route of the feed (by coordinates, by names, or at the exact city centres)
 * or a single busy place (departure or arrival side); half of them with radii of 1-300 km, on
 * either side or both; date and hour windows, seats, price ranges, photo, auto-accept and short
 * lines, both sorts and orders, limits up to 100 and pages up to 20.
 */
const heavySearch = (
  pair: { readonly from: Place; readonly to: Place },
  busy: { readonly from: Place; readonly to: Place },
  trip: QueryLogTrip,
  random: Random,
  pairOnly = false
): Array<[string, string]> => {
  const q: Array<[string, string]> = []
  // coords pair, names pair, centres pair, from only, to only
  const kind = random.weighted(pairOnly ? [35, 12, 8] : [35, 12, 8, 23, 22])
  const centre = (p: Place) => `${p.lat}|${p.lon}`
  const place = (side: "f" | "t", p: Place) => {
    if (kind === 1) q.push([`${side}n`, p.city])
    else q.push([`${side}c`, kind === 2 ? centre(p) : coords(p, random)])
  }
  if (kind < 3) {
    place("f", pair.from)
    place("t", pair.to)
  } else if (kind === 3) place("f", busy.from)
  else place("t", busy.to)
  if (random.chance(0.5)) {
    const r = random.next()
    if (kind >= 3 || r < 0.5) q.push(["radius", wideRadius(random)])
    else if (r < 0.75) q.push(["radius_from", wideRadius(random)])
    else q.push(["radius_to", wideRadius(random)], ["radius_from", wideRadius(random)])
  }
  const departure = Date.parse(trip.departure_time)
  if (Number.isFinite(departure) && random.chance(0.3)) {
    const day = departure - random.int(0, 3) * DAY_MS
    if (random.chance(0.4)) q.push(["db", ymd(day)])
    else q.push(["db", ymd(day)], ["de", ymd(day + random.int(0, 10) * DAY_MS)])
  }
  if (random.chance(0.15)) {
    const hb = random.int(0, 20)
    q.push(["hb", String(hb)], ["he", String(random.int(hb + 1, Math.min(24, hb + 10)))])
  }
  if (random.chance(0.15)) q.push(["seats", String(random.weighted([0, 50, 30, 12, 8]))])
  if (random.chance(0.12)) {
    const pmin = random.int(0, 40)
    q.push(["pmin", String(pmin)], ["pmax", String(pmin + random.int(5, 120))])
  }
  if (random.chance(0.05)) q.push(["photo", "1"])
  if (random.chance(0.05)) q.push(["aa", "1"])
  if (random.chance(0.05)) q.push(["shortlines", "1"])
  if (random.chance(0.6)) {
    q.push(["sort", random.chance(0.5) ? "trip_date" : "trip_price"])
    if (random.chance(0.6)) q.push(["order", random.chance(0.5) ? "asc" : "desc"])
  }
  if (random.chance(0.35)) q.push(["limit", String(random.pick([0, 5, 20, 50, 100]))])
  if (random.chance(0.3)) q.push(["page", String(random.int(2, 20))])
  return q
}

/** A radius of 100..500 km, log-uniform. */
const regionRadius = (random: Random): string => String(Math.round(100 * Math.exp(random.between(0, Math.log(5)))))

/**
 * One wide search: a pair of the feed or a single place, by coordinates or names, with `radius`
 * (or `radius_from` / `radius_to`) of 100-500 km; dates, sorts and pages as in the heavy mix.
 */
const wideSearch = (pair: { readonly from: Place; readonly to: Place }, single: Place, trip: QueryLogTrip, random: Random): Array<[string, string]> => {
  const q: Array<[string, string]> = []
  const kind = random.weighted([40, 30, 30]) // pair, from only, to only
  const byName = random.chance(0.3)
  const place = (side: "f" | "t", p: Place) => q.push(byName ? [`${side}n`, p.city] : [`${side}c`, coords(p, random)])
  if (kind === 0) {
    place("f", pair.from)
    place("t", pair.to)
    const r = random.next()
    if (r < 0.4) q.push(["radius", regionRadius(random)])
    else if (r < 0.7) q.push(["radius_from", regionRadius(random)])
    else if (r < 0.85) q.push(["radius_to", regionRadius(random)])
    else q.push(["radius_from", regionRadius(random)], ["radius_to", regionRadius(random)])
  } else {
    place(kind === 1 ? "f" : "t", single)
    q.push([random.chance(0.7) ? "radius" : kind === 1 ? "radius_from" : "radius_to", regionRadius(random)])
  }
  const departure = Date.parse(trip.departure_time)
  if (Number.isFinite(departure) && random.chance(0.4)) q.push(["db", ymd(departure - random.int(0, 3) * DAY_MS)])
  if (random.chance(0.4)) q.push(["sort", random.chance(0.5) ? "trip_date" : "trip_price"])
  if (random.chance(0.3)) q.push(["limit", String(random.pick([5, 20, 50, 100]))])
  if (random.chance(0.2)) q.push(["page", String(random.int(2, 10))])
  return q
}

/** One dense search: a pair of the feed at the default radius, by coordinates or names. */
const denseSearch = (pair: { readonly from: Place; readonly to: Place }, trip: QueryLogTrip, random: Random): Array<[string, string]> => {
  const byName = random.chance(0.3)
  const q: Array<[string, string]> = byName
    ? [["fn", pair.from.city], ["tn", pair.to.city]]
    : [["fc", coords(pair.from, random)], ["tc", coords(pair.to, random)]]
  const departure = Date.parse(trip.departure_time)
  if (Number.isFinite(departure) && random.chance(0.4)) {
    const day = departure - random.int(0, 3) * DAY_MS
    if (random.chance(0.5)) q.push(["db", ymd(day)])
    else q.push(["db", ymd(day)], ["de", ymd(day + random.int(1, 6) * DAY_MS)])
  }
  if (random.chance(0.1)) q.push(["seats", String(random.weighted([0, 50, 30, 12, 8]))])
  if (random.chance(0.4)) {
    q.push(["sort", random.chance(0.5) ? "trip_date" : "trip_price"])
    if (random.chance(0.6)) q.push(["order", random.chance(0.5) ? "asc" : "desc"])
  }
  if (random.chance(0.3)) q.push(["limit", String(random.pick([5, 20, 50, 100]))])
  if (random.chance(0.2)) q.push(["page", String(random.int(2, 10))])
  return q
}

const encode = (value: string): string => encodeURIComponent(value).replace(/%20/g, "+")

const record = (timeMs: number, path: string, query: ReadonlyArray<[string, string]>, status: number, random: Random): QueryLogRecord => ({
  time: new Date(timeMs).toISOString(),
  path,
  query: query.map(([k, v]) => `${k}=${encode(v)}`).join("&"),
  status,
  duration_ms: Math.round(random.between(1, 25) * 100) / 100
})
