import { haversineKm } from "../geo/haversine.js"
import type { IndexRecord } from "./IndexRecord.js"
import type { MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"
import { bestSegment, distancesTo } from "./tripIndex/bestSegment.js"
import { FacetTally, Tally } from "./tripIndex/facets.js"
import { type FlatBox, flatBox, GeoGrid } from "./tripIndex/GeoGrid.js"
import { Matches } from "./tripIndex/ranking.js"
import { renumberByCell } from "./tripIndex/renumber.js"
import { SegmentPricer } from "./tripIndex/SegmentPricer.js"
import { FLAG_AUTO, FLAG_PHOTO, FLAG_SHORT, growI32, TripColumns } from "./tripIndex/TripColumns.js"

export { selectSorted } from "./tripIndex/ranking.js"

/** When the index reorganises itself; the defaults suit production, tests lower them. */
export interface TripIndexOptions {
  /** Waypoints waiting outside the CSR grid before it is rebuilt (at least a quarter of the grid). */
  readonly rebuildAfter?: number
  /** Dead trip slots before the arrays are compacted (at least a quarter of all slots). */
  readonly compactAfter?: number
}

/**
 * Every active trip, searchable by place (docs/API.md: Searching, Facets, Prices). The rules live beside it, one file
 * each, in `tripIndex/`: the trips' columns (`TripColumns`), the grid that finds the waypoints
 * near a place (`GeoGrid`), the segment a trip matches by (`bestSegment`), its price
 * (`SegmentPricer`), the filters and facets (`facets`), the order, paging and top trips
 * (`ranking`), and the renumbering that keeps neighbours together in memory (`renumber`).
 * Updates replace a trip's slot: the old slot is marked dead and skipped, and the arrays are
 * compacted once dead slots pile up.
 */
export class TripIndex {
  private readonly rebuildAfter: number
  private readonly compactAfter: number

  constructor(options: TripIndexOptions = {}) {
    this.rebuildAfter = options.rebuildAfter ?? 65_536
    this.compactAfter = options.compactAfter ?? 1024
  }

  private t = new TripColumns()
  private grid = new GeoGrid()
  // A trip's ref (`refOf`) is fixed when it is upserted and `refSlot` gives the ref's current slot,
  // so renumbering the slots rewrites one typed array instead of a million map entries.
  private refOf = new Map<string, number>()
  private refSlot: Int32Array = new Int32Array(1024)
  private refs = 0
  private dead = 0
  private loading = false

  // Per-query scratch: a stamp says "written by query q", so nothing needs clearing between queries.
  private query = 0
  private tripStamp: Int32Array = new Int32Array(1024)
  private readonly distF = new Float64Array(256)
  private readonly distT = new Float64Array(256)
  private readonly dayTally = new Tally(1024)
  private readonly priceTally = new Tally(1 << 16)

  static from(records: Iterable<IndexRecord>, options: TripIndexOptions = {}): TripIndex {
    const index = new TripIndex(options)
    index.beginLoad()
    for (const r of records) index.upsert(r)
    index.endLoad()
    return index
  }

  /** Bulk load: upserts until `endLoad` skip the grid, which `endLoad` then builds once. */
  beginLoad(): void {
    this.loading = true
  }

  endLoad(): void {
    this.loading = false
    renumberByCell(this.t, this.refOf.size, this.refSlot, this.refs)
    this.dead = 0
    this.grid.build(this.t)
  }

  /** Active trips. */
  get size(): number {
    return this.refOf.size
  }

  has(id: string): boolean {
    return this.refOf.has(id)
  }

  upsert(r: IndexRecord): void {
    this.kill(r.id)
    const t = this.t
    const slot = t.append(r)
    this.tripStamp = growI32(this.tripStamp, slot + 1)
    const ref = this.refs++
    this.refSlot = growI32(this.refSlot, ref + 1)
    this.refSlot[ref] = slot
    this.refOf.set(r.id, ref)
    if (this.loading) return
    for (let w = t.wpStart[slot]!, end = w + t.wpCount[slot]!; w < end; w++) this.grid.add(w, t.wLat[w]!, t.wLon[w]!)
    if (this.grid.waiting > Math.max(this.rebuildAfter, this.grid.built / 4)) this.grid.build(t)
  }

  remove(id: string): void {
    this.kill(id)
    this.maybeCompact()
  }

  private kill(id: string): void {
    const ref = this.refOf.get(id)
    if (ref === undefined) return
    this.t.alive[this.refSlot[ref]!] = 0
    this.refOf.delete(id)
    this.dead++
  }

  /** Rebuilds the arrays without dead slots once they are a quarter of all slots. */
  maybeCompact(): void {
    if (this.dead < this.compactAfter || this.dead * 4 < this.t.slots) return
    const records: Array<IndexRecord> = []
    for (let s = 0; s < this.t.slots; s++) if (this.t.alive[s] === 1) records.push(this.t.recordOf(s))
    const fresh = TripIndex.from(records, { rebuildAfter: this.rebuildAfter, compactAfter: this.compactAfter })
    Object.assign(this, fresh)
  }

  /** Applies a batch of store changes (freshness). */
  apply(upserts: ReadonlyArray<IndexRecord>, removed: ReadonlyArray<string>): void {
    for (const r of upserts) this.upsert(r)
    for (const id of removed) this.kill(id)
    this.maybeCompact()
  }

  search(req: MatchRequest): MatchResult {
    if (++this.query > 0x3fffffff) {
      this.query = 1
      this.tripStamp.fill(0)
    }
    const q = this.query
    const t = this.t
    const candidates: Array<number> = []
    const { from, to } = req
    const collect = (slot: number): void => {
      if (this.tripStamp[slot] !== q) {
        this.tripStamp[slot] = q
        candidates.push(slot)
      }
    }
    // A pair is matched from one side only, the one with fewer waypoints around it: the other
    // side is checked per candidate trip, which costs far less than scanning a second city.
    const fromCells = from === undefined ? undefined : this.grid.cellsOf(flatBox(from))
    const toCells = to === undefined ? undefined : this.grid.cellsOf(flatBox(to))
    if (fromCells !== undefined && (toCells === undefined || fromCells.entries <= toCells.entries)) this.grid.scanNear(t, fromCells, "last", collect)
    else if (toCells !== undefined) this.grid.scanNear(t, toCells, "first", collect)
    const fromBox = fromCells?.box
    const toBox = toCells?.box
    const dF = this.distF
    const dT = this.distT

    const pricer = new SegmentPricer(req)
    const facets = new FacetTally(req, this.dayTally, this.priceTally, pricer.unit)
    const { nowMs, autoOnly, includeShort } = req
    const topSeats = req.withTopTrips ? Math.max(1, req.seats ?? 0) : Infinity
    const matches = new Matches()
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
      if (fromBox !== undefined) distancesTo(t, fromBox, w0, 0, last - 1, dF)
      if (toBox !== undefined) distancesTo(t, toBox, w0, 1, last, dT)
      const segment = bestSegment(fromBox !== undefined, toBox !== undefined, last, dF, dT)
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
      return matches.i[m] === 0 && matches.j[m] === t.wpCount[slot]! - 1 ? t.ids[slot]! : `${t.ids[slot]}_${matches.i[m]}_${matches.j[m]}`
    }
    // Distances are recomputed for the few hits shown (the same call gives the same double)
    // rather than kept for every match.
    const kmTo = (box: FlatBox, m: number, k: number): number => {
      const w = t.wpStart[matches.slot[m]!]! + k
      return haversineKm(box.lat, box.lon, t.wLat[w]!, t.wLon[w]!)
    }
    const hit = (m: number): SegmentHit => ({
      id: t.ids[matches.slot[m]!]!,
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
    return {
      total,
      fullTripsCount: full,
      ...(total > 0 ? { lowestPriceMinor: lowest } : {}),
      page: matches.page(req, permanentId).map(hit),
      top: req.withTopTrips ? matches.top(metres, permanentId).map(hit) : [],
      facets: facets.counts()
    }
  }
}
