import { EARTH_RADIUS_KM, haversineKm, RAD } from "../geo/haversine.js"
import { MINOR_DIGITS } from "../model/Locale.js"
import { segmentAmounts } from "../pricing/segmentPrice.js"
import type { IndexRecord } from "./IndexRecord.js"
import type { FacetCounts, MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"
import polyline from "@mapbox/polyline"
import type { FeedTrip } from "../model/FeedTrip.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"
import type { RoadStop, ZoneOffsetAt } from "../road/roadStops.js"

/**
 * The brute-force reference: the rules of docs/API.md (Searching, Facets, Prices) applied literally to every trip, every pair, every
 * facet on its own. Slow on purpose and written independently of `TripIndex`, so that property
 * tests compare two implementations and the benchmark has a baseline.
 */

/**
 * What the reference needs to find stops along the road itself (docs/API.md, Along the road):
 * each trip's feed record (its legs' paths, its detour, its waypoints' meeting points), every
 * meeting point, and the time zones. Without it, trips are matched at their waypoints only.
 */
export interface ReferenceRoads {
  readonly trips: ReadonlyMap<string, FeedTrip>
  readonly meetingPoints: ReadonlyArray<StoredMeetingPoint>
  readonly zoneOffsetAt: ZoneOffsetAt
}

/** A stop of a trip, in road order: a waypoint (`mp` 0) or a stop along the road. */
interface Stop {
  readonly mp: number
  /** The waypoint's index, or the waypoint before the stop along the road. */
  readonly k: number
  readonly leg: number
  readonly fraction: number
  readonly lat: number
  readonly lon: number
  readonly offsetMin: number
  readonly zoneOffsetMin: number
}

/**
 * Degrees of latitude a little over 1 km: a point farther than that from a meeting point in
 * latitude alone is farther than 1 km from it (a great-circle distance is at least R times the
 * difference of latitudes), so it is not measured. No answer changes; the reference measured
 * every point against every meeting point, and the tests comparing the index with it spent most
 * of their time there.
 */
const LAT_1KM = (1 + 1e-6) / (EARTH_RADIUS_KM * RAD)

/** Every meeting point every path point of every leg passes, literally: no grid, no cache (`LAT_1KM` aside). */
const stopsOf = (r: IndexRecord, roads: ReferenceRoads | undefined): Array<Stop> => {
  const n = r.lat.length - 1
  const waypoint = (k: number): Stop => ({
    mp: 0, k, leg: k < n ? k : n - 1, fraction: k < n ? 0 : 1, lat: r.lat[k]!, lon: r.lon[k]!, offsetMin: r.offsetMin[k]!, zoneOffsetMin: r.zoneOffsetMin[k]!
  })
  const trip = roads?.trips.get(r.id)
  const along: Array<Array<Stop>> = Array.from({ length: n }, () => [])
  if (roads !== undefined && trip !== undefined && trip.detour !== "ON_TIME") {
    const own = new Set(trip.waypoints.flatMap((w) => (w.meeting_point_id === undefined ? [] : [w.meeting_point_id])))
    const taken = new Set<number>()
    for (let k = 0; k < n; k++) {
      const path = trip.legs[k]!.path
      if (path === undefined) continue
      const points = polyline.decode(path, 5)
      points[0] = [r.lat[k]!, r.lon[k]!]
      points[points.length - 1] = [r.lat[k + 1]!, r.lon[k + 1]!]
      const s = [0]
      for (let t = 1; t < points.length; t++) s.push(s[t - 1]! + haversineKm(points[t - 1]![0], points[t - 1]![1], points[t]![0], points[t]![1]))
      const length = s[s.length - 1]!
      if (length === 0) continue
      let minLat = Infinity
      let maxLat = -Infinity
      for (const [lat] of points) {
        minLat = Math.min(minLat, lat)
        maxLat = Math.max(maxLat, lat)
      }
      for (const mp of roads.meetingPoints) {
        if (mp.status !== "active" || own.has(mp.id) || taken.has(mp.id)) continue
        if (mp.lat < minLat - LAT_1KM || mp.lat > maxLat + LAT_1KM) continue
        let best = Infinity
        let bestT = -1
        for (let t = 0; t < points.length; t++) {
          if (Math.abs(points[t]![0] - mp.lat) > LAT_1KM) continue
          const d = haversineKm(points[t]![0], points[t]![1], mp.lat, mp.lon)
          if (d <= 1 && d < best) {
            best = d
            bestT = t
          }
        }
        if (bestT < 0) continue
        taken.add(mp.id)
        const fraction = s[bestT]! / length
        const offsetMin = r.offsetMin[k]! + Math.round((r.offsetMin[k + 1]! - r.offsetMin[k]!) * fraction)
        along[k]!.push({
          mp: mp.id, k, leg: k, fraction, lat: mp.lat, lon: mp.lon, offsetMin,
          zoneOffsetMin: roads.zoneOffsetAt(mp.lat, mp.lon, r.departureMs + offsetMin * 60_000)
        })
      }
    }
  }
  const stops: Array<Stop> = []
  for (let k = 0; k <= n; k++) {
    stops.push(waypoint(k))
    if (k < n) stops.push(...along[k]!.sort((a, b) => a.fraction - b.fraction || a.mp - b.mp))
  }
  return stops
}

interface Segment {
  readonly r: IndexRecord
  readonly a: Stop
  readonly b: Stop
  readonly fromKm?: number
  readonly toKm?: number
  readonly utc: number
  readonly local: Date
  readonly price: number
  readonly distanceM: number
  readonly permanentId: string
}

const position = (s: Stop): number => s.leg + s.fraction
const isAlong = (s: Stop): number => (s.mp !== 0 ? 1 : 0)

const pickSegment = (stops: ReadonlyArray<Stop>, req: MatchRequest): { a: Stop; b: Stop; fromKm?: number; toKm?: number } | undefined => {
  const last = stops.length - 1
  const dF = (s: Stop) => haversineKm(req.from!.lat, req.from!.lon, s.lat, s.lon)
  const dT = (s: Stop) => haversineKm(req.to!.lat, req.to!.lon, s.lat, s.lon)
  if (req.from && req.to) {
    let best: { a: number; b: number; along: number; s: number; f: number; t: number } | undefined
    for (let a = 0; a <= last; a++) {
      for (let b = 0; b <= last; b++) {
        if (!(a < b)) continue
        const f = dF(stops[a]!)
        const t = dT(stops[b]!)
        if (f > req.from.radiusKm || t > req.to.radiusKm) continue
        const along = isAlong(stops[a]!) + isAlong(stops[b]!)
        if (along > 0 && !(position(stops[b]!) > position(stops[a]!))) continue
        const s = f + t
        const key = (x: { along: number; s: number; a: number; b: number }) => [x.along, x.s, x.a, x.b]
        const better = best === undefined || (() => {
          const p = key({ along, s, a, b })
          const q = key(best)
          for (let i = 0; i < 4; i++) if (p[i] !== q[i]) return p[i]! < q[i]!
          return false
        })()
        if (better) best = { a, b, along, s, f, t }
      }
    }
    return best && { a: stops[best.a]!, b: stops[best.b]!, fromKm: best.f, toKm: best.t }
  }
  if (req.from) {
    const options = stops
      .map((s, a) => ({ a, f: dF(s), along: isAlong(s) }))
      .filter((o) => o.a < last && o.f <= req.from!.radiusKm && (o.along === 0 || position(stops[last]!) > position(stops[o.a]!)))
    options.sort((x, y) => x.along - y.along || x.f - y.f || x.a - y.a)
    return options[0] && { a: stops[options[0].a]!, b: stops[last]!, fromKm: options[0].f }
  }
  if (req.to) {
    const options = stops
      .map((s, b) => ({ b, t: dT(s), along: isAlong(s) }))
      .filter((o) => o.b > 0 && o.t <= req.to!.radiusKm && (o.along === 0 || position(stops[o.b]!) > position(stops[0]!)))
    options.sort((x, y) => x.along - y.along || x.t - y.t || x.b - y.b)
    return options[0] && { a: stops[0]!, b: stops[options[0].b]!, toKm: options[0].t }
  }
  return undefined
}

/** `Σ c_k · per[k]` over the parts of each leg the segment covers, in leg order. */
const parts = (a: Stop, b: Stop, per: ReadonlyArray<number>): number => {
  let x = 0
  for (let k = a.leg; k <= b.leg; k++) {
    const c = a.leg === b.leg ? b.fraction - a.fraction : k === a.leg ? 1 - a.fraction : k === b.leg ? b.fraction : 1
    x = k === a.leg ? c * per[k]! : x + c * per[k]!
  }
  return x
}

const toSegment = (r: IndexRecord, req: MatchRequest, roads: ReferenceRoads | undefined): Segment | undefined => {
  const stops = stopsOf(r, roads)
  const pick = pickSegment(stops, req)
  if (pick === undefined) return undefined
  const { a, b } = pick
  const utc = r.departureMs + a.offsetMin * 60_000
  const net = Math.round(parts(a, b, r.legPriceMinor))
  const distanceM = parts(a, b, r.legDistanceM)
  const price = segmentAmounts(net, r.currency, r.bookingType, req.currency, req.priceMode, req.rates).price
  const n = r.lat.length - 1
  const label = (s: Stop) => (s.mp !== 0 ? `m${s.mp}` : String(s.k))
  return {
    r,
    ...pick,
    utc,
    local: new Date(utc + a.zoneOffsetMin * 60_000),
    price,
    distanceM,
    permanentId: a.mp === 0 && b.mp === 0 && a.k === 0 && b.k === n ? r.id : `${r.id}_${label(a)}_${label(b)}`
  }
}

type Filter = "seats" | "date" | "hour" | "price" | "photo"

const passes = (s: Segment, req: MatchRequest, filter: Filter): boolean => {
  switch (filter) {
    case "seats":
      return req.seats === undefined || s.r.seatsLeft >= req.seats
    case "date": {
      const t = s.local.getTime()
      return (req.localFromMs === undefined || t >= req.localFromMs) && (req.localToMs === undefined || t <= req.localToMs)
    }
    case "hour": {
      const h = s.local.getUTCHours()
      return (req.hourFrom === undefined || h >= req.hourFrom) && (req.hourTo === undefined || h < req.hourTo)
    }
    case "price":
      return (req.priceMinMinor === undefined || s.price >= req.priceMinMinor) && (req.priceMaxMinor === undefined || s.price <= req.priceMaxMinor)
    case "photo":
      return !req.photoOnly || s.r.hasPhoto
  }
}

const FILTERS: ReadonlyArray<Filter> = ["seats", "date", "hour", "price", "photo"]

const count = <K>(items: ReadonlyArray<Segment>, key: (s: Segment) => K): Map<K, number> => {
  const m = new Map<K, number>()
  for (const s of items) m.set(key(s), (m.get(key(s)) ?? 0) + 1)
  return m
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

export const referenceSearch = (records: Iterable<IndexRecord>, req: MatchRequest, roads?: ReferenceRoads): MatchResult => {
  const base: Array<Segment> = []
  for (const r of records) {
    const s = toSegment(r, req, roads)
    if (s === undefined) continue
    if (s.utc < req.nowMs) continue
    if (req.autoOnly && !s.r.autoBooking) continue
    if (!req.includeShort && s.r.short) continue
    base.push(s)
  }
  const allBut = (except: Filter | undefined) => base.filter((s) => FILTERS.every((f) => f === except || passes(s, req, f)))
  const matched = allBut(undefined)

  const dateKey = (s: Segment) => s.local.getUTCFullYear() * 10000 + (s.local.getUTCMonth() + 1) * 100 + s.local.getUTCDate()
  const unit = 10 ** MINOR_DIGITS[req.currency]
  const sorted = (m: Map<number, number>) => [...m.entries()].sort((a, b) => a[0] - b[0])
  const seatsBase = allBut("seats")
  const photoBase = allBut("photo")
  const facets: FacetCounts = {
    seats: [1, 2, 3, 4].map((v) => seatsBase.filter((s) => s.r.seatsLeft >= v).length),
    dates: sorted(count(allBut("date"), dateKey)),
    hours: sorted(count(allBut("hour"), (s) => s.local.getUTCHours())),
    prices: sorted(count(allBut("price"), (s) => Math.floor(s.price / unit))),
    photo: [photoBase.filter((s) => !s.r.hasPhoto).length, photoBase.filter((s) => s.r.hasPhoto).length],
    experience: [0, 1, 2, 3, 4].map((v) => matched.filter((s) => s.r.experience === v).length),
    comfort: [1, 2, 3, 4].map((v) => matched.filter((s) => s.r.comfortStars === v).length)
  }

  const dir = req.order === "desc" ? -1 : 1
  const dateOrder = (a: Segment, b: Segment) => a.utc - b.utc || a.price - b.price || compareStrings(a.permanentId, b.permanentId)
  const ordered = [...matched].sort((a, b) =>
    req.sort === "trip_price"
      ? dir * (a.price - b.price) || a.utc - b.utc || compareStrings(a.permanentId, b.permanentId)
      : dir * (a.utc - b.utc) || a.price - b.price || compareStrings(a.permanentId, b.permanentId)
  )
  const roadStop = (x: Stop): RoadStop => ({
    mp: x.mp, leg: x.leg, fraction: x.fraction, lat: x.lat, lon: x.lon, offsetMin: x.offsetMin, zoneOffsetMin: x.zoneOffsetMin
  })
  const hit = (s: Segment): SegmentHit => ({
    id: s.r.id,
    i: s.a.k,
    j: s.b.k,
    ...(s.a.mp !== 0 ? { fromStop: roadStop(s.a) } : {}),
    ...(s.b.mp !== 0 ? { toStop: roadStop(s.b) } : {}),
    ...(s.fromKm !== undefined ? { fromKm: s.fromKm } : {}),
    ...(s.toKm !== undefined ? { toKm: s.toKm } : {})
  })
  const minSeats = Math.max(1, req.seats ?? 0)
  const top = req.withTopTrips
    ? matched
        .filter((s) => s.r.autoBooking && s.r.seatsLeft >= minSeats)
        .sort((a, b) => {
          // price / distance, exactly: compare cross products; a zero distance comes last.
          if ((a.distanceM === 0) !== (b.distanceM === 0)) return a.distanceM === 0 ? 1 : -1
          const x = a.price * b.distanceM
          const y = b.price * a.distanceM
          return x < y ? -1 : x > y ? 1 : dateOrder(a, b)
        })
        .slice(0, 3)
        .map(hit)
    : []
  return {
    total: matched.length,
    fullTripsCount: matched.filter((s) => s.r.seatsLeft === 0).length,
    ...(matched.length > 0 ? { lowestPriceMinor: matched.reduce((m, s) => Math.min(m, s.price), Infinity) } : {}),
    page: ordered.slice(req.offset, req.offset + req.limit).map(hit),
    top,
    facets
  }
}
