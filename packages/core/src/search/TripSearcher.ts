import { haversineKm } from "../geo/haversine.js"
import type { MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"
import { dayOf, FacetTally, msInDay, Tally } from "./tripIndex/facets.js"
import { type FlatBox, flatBox, GeoGrid } from "./tripIndex/GeoGrid.js"
import type { IndexImage } from "./tripIndex/IndexImage.js"
import { Matches } from "./tripIndex/ranking.js"
import { NearHits } from "./tripIndex/NearHits.js"
import { SegmentPricer } from "./tripIndex/SegmentPricer.js"
import { shownTrip } from "./tripIndex/shownTrips.js"
import type { ShownStoredTrip } from "../model/ShownTrip.js"
import { ALIVE, bookingTypeOf, comfortOf, currencyOf, experienceOf, FLAG_AUTO, FLAG_PHOTO, FLAG_ROAD, FLAG_SHORT, seatsLeftOf, TripColumns } from "./tripIndex/TripColumns.js"
import { type AlongCells, AlongGrid } from "./tripIndex/AlongGrid.js"
import { ALL_STOPS, ALONG_END, endKm, RoadSegments, roadParts, roadPrice } from "./tripIndex/roadSegment.js"

/**
 * Past this radius, a place has the stops along the road near it reported once per trip: such a
 * radius holds every stop of tens of thousands of trips, and a trip's stops are then read all
 * (`RoadSegments`) rather than listed hit by hit.
 */
const ONCE_KM = 60
/**
 * `ONCE_KM` for either place of a pair. Its candidates, the trips near both places, are far fewer
 * than the trips near one: walking the first place's stops again for their spans costs less than
 * reading each candidate's stops all, up to much wider radii. Measured in one index, search by
 * search, at 60 / 150 / 300 / 1,000 km (dc324d3): the heavy mix's pairs 2,854 / 2,665 /
 * 2,629 / 2,619 ms in all; the wide mix's p50 10.0 / 9.6 / 8.7 / 8.9 ms, but 19.2 / 18.9 / 19.0 /
 * 20.7 s in all, its widest (to 500 km) slower without.
 */
const PAIR_ONCE_KM = 300

/**
 * What a trip marked by a pair's first place costs its second place's walk when its own stops are
 * read, in entries of a meeting point's list (`TripSearcher.thenStops`): its columns and about 15
 * stops of its own read, against a bit test per entry. Measured over the dense and heavy mixes'
 * pairs: 24 and 40 within 1% of each other, 16 1-4% slower, 8 8%, always by trip 23% (4f51ca5).
 */
const PER_TRIP = 24

/**
 * One search at a time over the columns and grid of an index: the writer's own (`TripIndex`) or
 * those of its image in another thread (`TripSearcher.over`), which it only reads. It holds the
 * per-search scratch, so each thread has its own.
 */
export class TripSearcher {
  constructor(
    readonly t: TripColumns,
    readonly grid: GeoGrid,
    readonly along: AlongGrid
  ) {}

  /** A searcher over an index image posted by the writer (see `TripIndex.image`). */
  static over(image: IndexImage): TripSearcher {
    return new TripSearcher(TripColumns.attach(image.columns), GeoGrid.attach(image.grid), AlongGrid.attach(image.along))
  }

  // Per-search scratch, reused: the hits near each place, the distances of one candidate, tallies.
  private readonly near = new NearHits()
  private readonly distF = new Float64Array(256)
  private readonly distT = new Float64Array(256)
  private readonly roads = new RoadSegments()
  private readonly dayTally = new Tally(1024)
  private readonly priceTally = new Tally(1 << 16)
  private readonly matches = new Matches()

  search(req: MatchRequest): MatchResult {
    const t = this.t
    const near = this.near
    near.begin(t.traits.length)
    // Arena entries the writer adds from now on are left to the next search.
    const seen = this.grid.waiting
    const lastSlot = this.grid.lastSeenSlot(seen)
    const { grid, along } = this
    const { from, to } = req
    const fromCells = from === undefined ? undefined : grid.cellsOf(flatBox(from))
    const toCells = to === undefined ? undefined : grid.cellsOf(flatBox(to))
    const fromAlong = fromCells === undefined ? undefined : along.cellsOf(fromCells.box)
    const toAlong = toCells === undefined ? undefined : along.cellsOf(toCells.box)
    // A side of a wide radius has its stops along the road reported once per trip, each trip's
    // stops then read all (`ALL_STOPS`); a narrower one has them all reported, their span kept.
    const onceKm = from !== undefined && to !== undefined ? PAIR_ONCE_KM : ONCE_KM
    const wideF = from !== undefined && from.radiusKm > onceKm
    const wideT = to !== undefined && to.radiusKm > onceKm
    if (fromCells !== undefined && toCells !== undefined) {
      // The side with fewer waypoints and stops marks its trips, the other takes the marked ones.
      if (fromCells.entries + fromAlong!.entries <= toCells.entries + toAlong!.entries) {
        grid.scanNear(fromCells, "last", seen, near.markFrom)
        along.scanNear(fromAlong!, lastSlot, near.stops("mark", 1, wideF))
        grid.scanNear(toCells, "first", seen, near.thenTo, near.markedTrips)
        this.thenStops(toAlong!, lastSlot, 2, wideT)
        if (!wideF) along.scanNear(fromAlong!, lastSlot, near.stops("span", 1, false))
      } else {
        grid.scanNear(toCells, "first", seen, near.markTo)
        along.scanNear(toAlong!, lastSlot, near.stops("mark", 2, wideT))
        grid.scanNear(fromCells, "last", seen, near.thenFrom, near.markedTrips)
        this.thenStops(fromAlong!, lastSlot, 1, wideF)
        if (!wideT) along.scanNear(toAlong!, lastSlot, near.stops("span", 2, false))
      }
    } else if (fromCells !== undefined) {
      grid.scanNear(fromCells, "last", seen, wideF ? near.onlyFromOnce : near.onlyFrom)
      along.scanNear(fromAlong!, lastSlot, near.stops("only", 1, wideF))
    } else if (toCells !== undefined) {
      grid.scanNear(toCells, "first", seen, wideT ? near.onlyToOnce : near.onlyTo)
      along.scanNear(toAlong!, lastSlot, near.stops("only", 2, wideT))
    }
    const candidates = near.candidates()
    const fromBox = fromCells?.box
    const toBox = toCells?.box
    this.roads.begin(t, fromBox, toBox)

    const pricer = new SegmentPricer(req)
    const facets = new FacetTally(req, this.dayTally, this.priceTally, pricer.unit)
    const topSeats = req.withTopTrips ? Math.max(1, req.seats ?? 0) : Infinity
    const matches = this.matches
    matches.reset()
    this.matchAll(candidates, fromBox, toBox, wideF, wideT, pricer, facets, req.nowMs, req.autoOnly, req.includeShort, topSeats)
    const { full, lowest } = this

    // A waypoint end is written by its waypoint's index, an end along the road `m{meeting point id}`.
    const endLabel = (w0: number, end: number): string => (end < ALONG_END ? String(end) : `m${t.mpId[t.aMp[t.wAlong[w0]! + end - ALONG_END]!]}`)
    const permanentId = (m: number): string => {
      const slot = matches.slot[m]!
      if (matches.i[m] === 0 && matches.j[m] === t.wpCount[slot]! - 1) return t.idOf(slot)
      const w0 = t.wpStart[slot]!
      return `${t.idOf(slot)}_${endLabel(w0, matches.i[m]!)}_${endLabel(w0, matches.j[m]!)}`
    }
    // Distances are recomputed for the few hits shown (the same call gives the same double)
    // rather than kept for every match.
    const hit = (m: number): SegmentHit => {
      const w0 = t.wpStart[matches.slot[m]!]!
      const i = matches.i[m]!
      const j = matches.j[m]!
      const a0 = t.wAlong[w0]! - ALONG_END
      return {
        id: t.idOf(matches.slot[m]!),
        // A waypoint's index, or the waypoint before a stop along the road.
        i: i < ALONG_END ? i : t.aLeg[a0 + i]!,
        j: j < ALONG_END ? j : t.aLeg[a0 + j]!,
        ...(i >= ALONG_END ? { fromStop: t.roadStop(w0, a0 + i) } : {}),
        ...(j >= ALONG_END ? { toStop: t.roadStop(w0, a0 + j) } : {}),
        ...(fromBox !== undefined ? { fromKm: endKm(t, w0, i, fromBox) } : {}),
        ...(toBox !== undefined ? { toKm: endKm(t, w0, j, toBox) } : {})
      }
    }
    const metres = (m: number): number => {
      const slot = matches.slot[m]!
      const w0 = t.wpStart[slot]!
      const i = matches.i[m]!
      const j = matches.j[m]!
      if (i >= ALONG_END || j >= ALONG_END) return roadParts(t, w0, t.wpCount[slot]! - 1, i, j, t.legDist)
      let d = 0
      for (let w = w0 + i; w < w0 + j; w++) d += t.legDist[w]!
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

  /** A bit per meeting point table entry near a pair's second place (`thenStops`). */
  private mpNear = new Int32Array(0)

  /**
   * A pair's second place, its stops along the road: from its meeting points' lists, or, where the
   * trips its first place marked, at `PER_TRIP` list entries each, weigh less than those lists,
   * from those trips' own stops (`NearHits.thenByTrip`): the same hits either way.
   */
  private thenStops(cells: AlongCells, lastSlot: number, side: 1 | 2, once: boolean): void {
    const { near, along, t } = this
    if (near.marksMade * PER_TRIP >= cells.entries) {
      along.scanNear(cells, lastSlot, near.stops("then", side, once))
      return
    }
    if (this.mpNear.length < (along.capacity + 31) >>> 5) this.mpNear = new Int32Array((along.capacity + 31) >>> 5)
    along.nearBits(cells, this.mpNear)
    // Cleared whatever happens: a bit left set would be a meeting point near the next search's place.
    try {
      near.thenByTrip(t.wpStart, t.wpCount, t.wAlong, t.aMp, this.mpNear, side, once)
    } finally {
      along.clearBits(cells, this.mpNear)
    }
  }

  /** What `matchAll` found besides the matches: the full trips among them, and the lowest price. */
  private full = 0
  private lowest = Infinity

  /**
   * The candidate loop: each candidate's segment, price and filters, into `matches` and the
   * facets. A method of its own, with nothing after its loop but two stores: a long loop is
   * compiled on stack replacement, and code after it in the same function, reached there with
   * feedback that code lacks (a request of a shape not seen yet, an iterator result), had the
   * optimized code thrown away once per wide search (V8 11).
   */
  private matchAll(
    candidates: Int32Array,
    fromBox: FlatBox | undefined,
    toBox: FlatBox | undefined,
    wideF: boolean,
    wideT: boolean,
    pricer: SegmentPricer,
    facets: FacetTally,
    nowMs: number,
    autoOnly: boolean,
    includeShort: boolean,
    topSeats: number
  ): void {
    const { t, near, matches, roads } = this
    const dF = this.distF
    const dT = this.distT
    let full = 0
    let lowest = Infinity

    for (let c = 0; c < candidates.length; c++) {
      const slot = candidates[c]!
      const traits = t.traits[slot]!
      if ((traits & ALIVE) === 0) continue
      // Trip-level rejects first: they skip the distances and, like every reject before the
      // facets, leave no trace in the result.
      if (autoOnly && (traits & FLAG_AUTO) === 0) continue
      if (!includeShort && (traits & FLAG_SHORT) !== 0) continue
      const w0 = t.wpStart[slot]!
      const last = t.wpCount[slot]! - 1
      let bi: number
      let bj: number
      let net = 0
      // Its waypoints first, by their own rule and its fast paths: a segment between two of them
      // (one, for one place) has no end along the road and wins over any that has.
      const segment = near.segmentOf(t.wPlace, slot, w0, last, fromBox, toBox, dF, dT)
      let utc: number
      let local: number
      if (segment >= 0) {
        bi = segment >> 8
        bj = segment & 255
        utc = t.wTime[2 * (w0 + bi)]!
        if (utc < nowMs) continue
        local = t.wTime[2 * (w0 + bi) + 1]!
        for (let w = w0 + bi; w < w0 + bj; w++) net += t.legPrice[w]!
      } else {
        // The chord test let through a waypoint just outside the radius, and nothing else matched;
        // or the trip's stops along the road may.
        if ((traits & FLAG_ROAD) === 0) continue
        const road = roads.segment(
          t,
          w0,
          last,
          fromBox,
          toBox,
          wideF ? ALL_STOPS : near.spanOf(slot, 1),
          wideT ? ALL_STOPS : near.spanOf(slot, 2),
          fromBox !== undefined ? near.wordOf(slot, 1) : 0,
          toBox !== undefined ? near.wordOf(slot, 2) : 0
        )
        if (!road) continue
        bi = roads.start
        bj = roads.end
        if (bi < ALONG_END) {
          utc = t.wTime[2 * (w0 + bi)]!
          if (utc < nowMs) continue
          local = t.wTime[2 * (w0 + bi) + 1]!
        } else {
          const a = t.wAlong[w0]! + bi - ALONG_END
          utc = t.stopUtc(w0, a)
          if (utc < nowMs) continue
          local = utc + t.aZone[a]! * 60_000
        }
        net = roadPrice(t, w0, last, bi, bj)
      }

      const price = pricer.priceOf(net, currencyOf(traits), bookingTypeOf(traits))
      const seatsLeft = seatsLeftOf(traits)
      const day = dayOf(local)
      if (facets.check(seatsLeft, day, msInDay(local, day), price, (traits & FLAG_PHOTO) !== 0) !== 0) continue

      facets.matched(experienceOf(traits), comfortOf(traits))
      matches.push(slot, bi, bj, price, utc)
      if ((traits & FLAG_AUTO) !== 0 && seatsLeft >= topSeats) matches.lastEligible()
      if (seatsLeft === 0) full++
      if (price < lowest) lowest = price
    }
    this.full = full
    this.lowest = lowest
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
