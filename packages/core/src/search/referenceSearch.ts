import { haversineKm } from "../geo/haversine.js"
import { MINOR_DIGITS } from "../model/Locale.js"
import { segmentAmounts } from "../pricing/segmentPrice.js"
import type { IndexRecord } from "./IndexRecord.js"
import type { FacetCounts, MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"

/**
 * The brute-force reference: the rules of docs/API.md (Searching, Facets, Prices) applied literally to every trip, every pair, every
 * facet on its own. Slow on purpose and written independently of `TripIndex`, so that property
 * tests compare two implementations and the benchmark has a baseline.
 */

interface Segment {
  readonly r: IndexRecord
  readonly i: number
  readonly j: number
  readonly fromKm?: number
  readonly toKm?: number
  readonly utc: number
  readonly local: Date
  readonly price: number
  readonly distanceM: number
  readonly permanentId: string
}

const pickSegment = (r: IndexRecord, req: MatchRequest): { i: number; j: number; fromKm?: number; toKm?: number } | undefined => {
  const n = r.lat.length - 1
  const dF = (k: number) => haversineKm(req.from!.lat, req.from!.lon, r.lat[k]!, r.lon[k]!)
  const dT = (k: number) => haversineKm(req.to!.lat, req.to!.lon, r.lat[k]!, r.lon[k]!)
  if (req.from && req.to) {
    let best: { i: number; j: number; s: number; f: number; t: number } | undefined
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= n; j++) {
        if (!(i < j)) continue
        const f = dF(i)
        const t = dT(j)
        if (f > req.from.radiusKm || t > req.to.radiusKm) continue
        const s = f + t
        const better = best === undefined || s < best.s || (s === best.s && (i < best.i || (i === best.i && j < best.j)))
        if (better) best = { i, j, s, f, t }
      }
    }
    return best && { i: best.i, j: best.j, fromKm: best.f, toKm: best.t }
  }
  if (req.from) {
    const options = Array.from({ length: n }, (_, i) => ({ i, f: dF(i) })).filter((o) => o.f <= req.from!.radiusKm)
    options.sort((a, b) => a.f - b.f || a.i - b.i)
    return options[0] && { i: options[0].i, j: n, fromKm: options[0].f }
  }
  if (req.to) {
    const options = Array.from({ length: n }, (_, k) => ({ j: k + 1, t: dT(k + 1) })).filter((o) => o.t <= req.to!.radiusKm)
    options.sort((a, b) => a.t - b.t || a.j - b.j)
    return options[0] && { i: 0, j: options[0].j, toKm: options[0].t }
  }
  return undefined
}

const toSegment = (r: IndexRecord, req: MatchRequest): Segment | undefined => {
  const pick = pickSegment(r, req)
  if (pick === undefined) return undefined
  const { i, j } = pick
  const utc = r.departureMs + r.offsetMin[i]! * 60_000
  let net = 0
  let distanceM = 0
  for (let k = i; k < j; k++) {
    net += r.legPriceMinor[k]!
    distanceM += r.legDistanceM[k]!
  }
  const price = segmentAmounts(net, r.currency, r.bookingType, req.currency, req.priceMode, req.rates).price
  const n = r.lat.length - 1
  return {
    r,
    ...pick,
    utc,
    local: new Date(utc + r.zoneOffsetMin[i]! * 60_000),
    price,
    distanceM,
    permanentId: i === 0 && j === n ? r.id : `${r.id}_${i}_${j}`
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

export const referenceSearch = (records: Iterable<IndexRecord>, req: MatchRequest): MatchResult => {
  const base: Array<Segment> = []
  for (const r of records) {
    const s = toSegment(r, req)
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
  const hit = (s: Segment): SegmentHit => ({
    id: s.r.id,
    i: s.i,
    j: s.j,
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
