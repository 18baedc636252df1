import { haversineKm } from "../geo/haversine.js"
import type { MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"
import { FacetTally, Tally } from "./tripIndex/facets.js"
import { type FlatBox, flatBox, GeoGrid } from "./tripIndex/GeoGrid.js"
import type { IndexImage } from "./tripIndex/IndexImage.js"
import { Matches } from "./tripIndex/ranking.js"
import { NearHits } from "./tripIndex/NearHits.js"
import { SegmentPricer } from "./tripIndex/SegmentPricer.js"
import { shownTrip } from "./tripIndex/shownTrips.js"
import type { ShownStoredTrip } from "../model/ShownTrip.js"
import { FLAG_AUTO, FLAG_PHOTO, FLAG_SHORT, TripColumns } from "./tripIndex/TripColumns.js"

/**
 * One search at a time over the columns and grid of an index: the writer's own (`TripIndex`) or
 * those of its image in another thread (`TripSearcher.over`), which it only reads. It holds the
 * per-search scratch, so each thread has its own.
 */
export class TripSearcher {
  constructor(
    readonly t: TripColumns,
    readonly grid: GeoGrid
  ) {}

  /** A searcher over an index image posted by the writer (see `TripIndex.image`). */
  static over(image: IndexImage): TripSearcher {
    return new TripSearcher(TripColumns.attach(image.columns), GeoGrid.attach(image.grid))
  }

  // Per-search scratch, reused: the hits near each place, the distances of one candidate, tallies.
  private readonly near = new NearHits()
  private readonly distF = new Float64Array(256)
  private readonly distT = new Float64Array(256)
  private readonly dayTally = new Tally(1024)
  private readonly priceTally = new Tally(1 << 16)
  private readonly matches = new Matches()

  search(req: MatchRequest): MatchResult {
    const t = this.t
    const near = this.near
    near.begin(t.alive.length)
    // Arena entries the writer adds from now on are left to the next search.
    const seen = this.grid.waiting
    const { from, to } = req
    const fromCells = from === undefined ? undefined : this.grid.cellsOf(flatBox(from))
    const toCells = to === undefined ? undefined : this.grid.cellsOf(flatBox(to))
    if (fromCells !== undefined && toCells !== undefined) {
      // The side with fewer waypoints marks its trips, the other takes the marked ones.
      if (fromCells.entries <= toCells.entries) {
        this.grid.scanNear(fromCells, "last", seen, near.markFrom)
        this.grid.scanNear(toCells, "first", seen, near.thenTo, near.markedTrips)
      } else {
        this.grid.scanNear(toCells, "first", seen, near.markTo)
        this.grid.scanNear(fromCells, "last", seen, near.thenFrom, near.markedTrips)
      }
    } else if (fromCells !== undefined) this.grid.scanNear(fromCells, "last", seen, near.onlyFrom)
    else if (toCells !== undefined) this.grid.scanNear(toCells, "first", seen, near.onlyTo)
    const candidates = near.candidates()
    const fromBox = fromCells?.box
    const toBox = toCells?.box
    const dF = this.distF
    const dT = this.distT

    const pricer = new SegmentPricer(req)
    const facets = new FacetTally(req, this.dayTally, this.priceTally, pricer.unit)
    const { nowMs, autoOnly, includeShort } = req
    const topSeats = req.withTopTrips ? Math.max(1, req.seats ?? 0) : Infinity
    const matches = this.matches
    matches.reset()
    let full = 0
    let lowest = Infinity

    for (let c = 0; c < candidates.length; c++) {
      const slot = candidates[c]!
      if (t.alive[slot] === 0) continue
      // Trip-level rejects first: they skip the distances and, like every reject before the
      // facets, leave no trace in the result.
      const flags = t.flags[slot]!
      if (autoOnly && (flags & FLAG_AUTO) === 0) continue
      if (!includeShort && (flags & FLAG_SHORT) !== 0) continue
      const w0 = t.wpStart[slot]!
      const last = t.wpCount[slot]! - 1
      const segment = near.segmentOf(t, slot, w0, last, fromBox, toBox, dF, dT)
      // The chord test let through a waypoint just outside the radius, and nothing else matched.
      if (segment < 0) continue
      const bi = segment >> 8
      const bj = segment & 255

      const wi = w0 + bi
      const utc = t.wUtc[wi]!
      if (utc < nowMs) continue
      let net = 0
      for (let w = wi; w < w0 + bj; w++) net += t.legPrice[w]!
      const price = pricer.priceOf(net, t.currency[slot]!, t.bookingType[slot]!)
      const seatsLeft = t.seatsLeft[slot]!
      if (facets.check(seatsLeft, t.wLocal[wi]!, price, (flags & FLAG_PHOTO) !== 0) !== 0) continue

      facets.matched(t.experience[slot]!, t.comfort[slot]!)
      matches.push(slot, bi, bj, price, utc)
      if ((flags & FLAG_AUTO) !== 0 && seatsLeft >= topSeats) matches.eligible.push(matches.size - 1)
      if (seatsLeft === 0) full++
      if (price < lowest) lowest = price
    }

    const permanentId = (m: number): string => {
      const slot = matches.slot[m]!
      return matches.i[m] === 0 && matches.j[m] === t.wpCount[slot]! - 1 ? t.idOf(slot) : `${t.idOf(slot)}_${matches.i[m]}_${matches.j[m]}`
    }
    // Distances are recomputed for the few hits shown (the same call gives the same double)
    // rather than kept for every match.
    const kmTo = (box: FlatBox, m: number, k: number): number => {
      const w = t.wpStart[matches.slot[m]!]! + k
      return haversineKm(box.lat, box.lon, t.wLat[w]!, t.wLon[w]!)
    }
    const hit = (m: number): SegmentHit => ({
      id: t.idOf(matches.slot[m]!),
      i: matches.i[m]!,
      j: matches.j[m]!,
      ...(fromBox !== undefined ? { fromKm: kmTo(fromBox, m, matches.i[m]!) } : {}),
      ...(toBox !== undefined ? { toKm: kmTo(toBox, m, matches.j[m]!) } : {})
    })
    const metres = (m: number): number => {
      const w0 = t.wpStart[matches.slot[m]!]!
      let d = 0
      for (let w = w0 + matches.i[m]!; w < w0 + matches.j[m]!; w++) d += t.legDist[w]!
      return d
    }
    const total = matches.size
    const page = matches.page(req, permanentId)
    const top = req.withTopTrips ? matches.top(metres, permanentId) : []
    const trips = req.withTrips === true ? this.shown([...page, ...top].map((m) => matches.slot[m]!)) : undefined
    return {
      total,
      fullTripsCount: full,
      ...(total > 0 ? { lowestPriceMinor: lowest } : {}),
      page: page.map(hit),
      top: top.map(hit),
      facets: facets.counts(),
      ...(trips !== undefined ? { trips } : {})
    }
  }

  /** The shown trips of these slots by id, or undefined if the index lacks what one of them shows. */
  private shown(slots: ReadonlyArray<number>): Map<string, ShownStoredTrip> | undefined {
    const trips = new Map<string, ShownStoredTrip>()
    // A trip on the page may be a top trip too: rebuilt once.
    for (const slot of new Set(slots)) {
      const trip = shownTrip(this.t, slot)
      if (trip === undefined) return undefined
      trips.set(trip.trip.id, trip)
    }
    return trips
  }
}
