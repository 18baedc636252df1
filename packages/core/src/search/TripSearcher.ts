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
import { FLAG_AUTO, FLAG_PHOTO, FLAG_ROAD, FLAG_SHORT, TripColumns } from "./tripIndex/TripColumns.js"
import { roadParts, roadSegment } from "./tripIndex/roadSegment.js"
import type { RoadStop } from "../road/roadStops.js"

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
  // A trip with stops along the road may have more stops than the waypoints' 256.
  private roadF = new Float64Array(256)
  private roadT = new Float64Array(256)
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
    } else if (fromCells !== undefined) this.grid.scanNear(fromCells, "last", seen, near.onlyFrom, undefined, near.onceTrips)
    else if (toCells !== undefined) this.grid.scanNear(toCells, "first", seen, near.onlyTo, undefined, near.onceTrips)
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
      let bi: number
      let bj: number
      let net = 0
      if ((flags & FLAG_ROAD) !== 0) {
        // Its waypoints first, by their own rule and its fast paths: a segment between two of
        // them (one, for one place) has no end along the road and wins.
        const v0 = t.wayStart[slot]!
        let segment = near.segmentOf(t.wayPlace, slot, v0, t.wayCount[slot]! - 1, fromBox, toBox, dF, dT)
        if (segment >= 0) {
          bi = t.wayIdx[v0 + (segment >> 8)]!
          bj = t.wayIdx[v0 + (segment & 255)]!
        } else {
          if (this.roadF.length <= last) {
            this.roadF = new Float64Array(2 * (last + 1))
            this.roadT = new Float64Array(2 * (last + 1))
          }
          const pair = fromBox !== undefined && toBox !== undefined
          segment = roadSegment(t, slot, w0, last, fromBox, toBox, pair ? near.spanOf(slot, 1) : 0, pair ? near.spanOf(slot, 2) : 0, this.roadF, this.roadT)
          if (segment < 0) continue
          bi = Math.floor(segment / 65536)
          bj = segment % 65536
        }
        if (t.wTime[2 * (w0 + bi)]! < nowMs) continue
        net = Math.round(roadParts(t, w0 + bi, w0 + bj, t.legPrice))
      } else {
        const segment = near.segmentOf(t.wPlace, slot, w0, last, fromBox, toBox, dF, dT)
        // The chord test let through a waypoint just outside the radius, and nothing else matched.
        if (segment < 0) continue
        bi = segment >> 8
        bj = segment & 255
        if (t.wTime[2 * (w0 + bi)]! < nowMs) continue
        for (let w = w0 + bi; w < w0 + bj; w++) net += t.legPrice[w]!
      }

      const wi = w0 + bi
      const utc = t.wTime[2 * wi]!
      const price = pricer.priceOf(net, t.currency[slot]!, t.bookingType[slot]!)
      const seatsLeft = t.seatsLeft[slot]!
      if (facets.check(seatsLeft, t.wTime[2 * wi + 1]!, price, (flags & FLAG_PHOTO) !== 0) !== 0) continue

      facets.matched(t.experience[slot]!, t.comfort[slot]!)
      matches.push(slot, bi, bj, price, utc)
      if ((flags & FLAG_AUTO) !== 0 && seatsLeft >= topSeats) matches.eligible.push(matches.size - 1)
      if (seatsLeft === 0) full++
      if (price < lowest) lowest = price
    }

    // A waypoint end is written by its waypoint's index, an end along the road `m{meeting point id}`.
    const endLabel = (w: number): string => (t.wMp[w] !== 0 ? `m${t.wMp[w]}` : String(t.wLeg[w]! + t.wFrac[w]!))
    const permanentId = (m: number): string => {
      const slot = matches.slot[m]!
      if (matches.i[m] === 0 && matches.j[m] === t.wpCount[slot]! - 1) return t.idOf(slot)
      const w0 = t.wpStart[slot]!
      return `${t.idOf(slot)}_${endLabel(w0 + matches.i[m]!)}_${endLabel(w0 + matches.j[m]!)}`
    }
    const stopAt = (w: number): RoadStop => {
      const departureMs = t.wTime[2 * t.wpStart[t.wSlot[w]!]!]!
      return {
        mp: t.wMp[w]!,
        leg: t.wLeg[w]!,
        fraction: t.wFrac[w]!,
        lat: t.wPlace[2 * w]!,
        lon: t.wPlace[2 * w + 1]!,
        offsetMin: (t.wTime[2 * w]! - departureMs) / 60_000,
        zoneOffsetMin: (t.wTime[2 * w + 1]! - t.wTime[2 * w]!) / 60_000
      }
    }
    // Distances are recomputed for the few hits shown (the same call gives the same double)
    // rather than kept for every match.
    const kmTo = (box: FlatBox, m: number, k: number): number => {
      const w = t.wpStart[matches.slot[m]!]! + k
      return haversineKm(box.lat, box.lon, t.wPlace[2 * w]!, t.wPlace[2 * w + 1]!)
    }
    const hit = (m: number): SegmentHit => {
      const w0 = t.wpStart[matches.slot[m]!]!
      const wa = w0 + matches.i[m]!
      const wb = w0 + matches.j[m]!
      const along = (t.flags[matches.slot[m]!]! & FLAG_ROAD) !== 0
      return {
        id: t.idOf(matches.slot[m]!),
        // A waypoint's index, or the waypoint before a stop along the road.
        i: along ? t.wLeg[wa]! + (t.wMp[wa] === 0 ? t.wFrac[wa]! : 0) : matches.i[m]!,
        j: along ? t.wLeg[wb]! + (t.wMp[wb] === 0 ? t.wFrac[wb]! : 0) : matches.j[m]!,
        ...(along && t.wMp[wa] !== 0 ? { fromStop: stopAt(wa) } : {}),
        ...(along && t.wMp[wb] !== 0 ? { toStop: stopAt(wb) } : {}),
        ...(fromBox !== undefined ? { fromKm: kmTo(fromBox, m, matches.i[m]!) } : {}),
        ...(toBox !== undefined ? { toKm: kmTo(toBox, m, matches.j[m]!) } : {})
      }
    }
    const metres = (m: number): number => {
      const w0 = t.wpStart[matches.slot[m]!]!
      if ((t.flags[matches.slot[m]!]! & FLAG_ROAD) !== 0) return roadParts(t, w0 + matches.i[m]!, w0 + matches.j[m]!, t.legDist)
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
