import { boundingBox } from "../geo/boundingBox.js"
import { EARTH_RADIUS_KM, haversineKm } from "../geo/haversine.js"
import { CURRENCIES, MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"
import { mulDivRound2, scaledRate } from "../pricing/exactMath.js"
import type { IndexRecord } from "./IndexRecord.js"
import type { FacetCounts, MatchPlace, MatchRequest, MatchResult, SegmentHit } from "./MatchRequest.js"

/**
 * Every active trip in flat typed arrays (no object per trip or waypoint), with a lat/lon grid
 * over the waypoints. Updates replace a trip's slot: the old slot is marked dead and skipped,
 * and the arrays are compacted once dead slots pile up.
 */

const CELL_DEG = 0.2
const LON_CELLS = Math.ceil(360 / CELL_DEG) + 1
const cellKey = (latIdx: number, lonIdx: number): number => latIdx * LON_CELLS + lonIdx
const latCell = (lat: number): number => Math.floor((lat + 90) / CELL_DEG)
const lonCell = (lon: number): number => Math.floor((lon + 180) / CELL_DEG)

const FLAG_AUTO = 1
const FLAG_SHORT = 2
const FLAG_PHOTO = 4
const END_FIRST = 1
const END_LAST = 2
const BOOKING_TYPES = ["online", "onboard", "no_booking"] as const
const NO_BOOKING = 2

// Filter bits: a trip failing exactly one faceted filter still counts in that facet (docs/API.md, Facets).
const F_SEATS = 1
const F_DATE = 2
const F_HOUR = 4
const F_PRICE = 8
const F_PHOTO = 16

const RAD = Math.PI / 180
const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

const growF64 = (a: Float64Array, n: number) => {
  if (n <= a.length) return a
  const b = new Float64Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}
const growI32 = (a: Int32Array, n: number) => {
  if (n <= a.length) return a
  const b = new Int32Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}
const growU8 = (a: Uint8Array, n: number) => {
  if (n <= a.length) return a
  const b = new Uint8Array(Math.max(n, a.length * 2))
  b.set(a)
  return b
}

// `a` reordered, at the same capacity (later upserts grow it as before): entry i of the result is
// `a[order[i]]` (gather), or entry `to[i]` is `a[i]` (scatter; -1 drops it). One function per
// array type: a shared generic one goes megamorphic and is several times slower.
const gatherU8 = (a: Uint8Array, order: Int32Array): Uint8Array => {
  const b = new Uint8Array(a.length)
  for (let i = 0; i < order.length; i++) b[i] = a[order[i]!]!
  return b
}
const scatterF64 = (a: Float64Array, to: Int32Array): Float64Array => {
  const b = new Float64Array(a.length)
  for (let i = 0; i < to.length; i++) if (to[i]! >= 0) b[to[i]!] = a[i]!
  return b
}
const scatterI32 = (a: Int32Array, to: Int32Array): Int32Array => {
  const b = new Int32Array(a.length)
  for (let i = 0; i < to.length; i++) if (to[i]! >= 0) b[to[i]!] = a[i]!
  return b
}

const yyyymmdd = (day: number): number => {
  const d = new Date(day * DAY_MS)
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

/**
 * A place and its bounding box as plain numbers, in one shape whatever the request's own shape:
 * the per-candidate loop then reads monomorphic fields. An absent second longitude range is
 * empty (west > east).
 */
interface FlatBox {
  readonly lat: number
  readonly lon: number
  readonly radiusKm: number
  readonly minLat: number
  readonly maxLat: number
  readonly west0: number
  readonly east0: number
  readonly west1: number
  readonly east1: number
}
const flatBox = (place: MatchPlace): FlatBox => {
  const box = boundingBox(place.lat, place.lon, place.radiusKm)
  const [first, second] = box.lonRanges
  return {
    lat: place.lat,
    lon: place.lon,
    radiusKm: place.radiusKm,
    minLat: box.minLat,
    maxLat: box.maxLat,
    west0: first![0],
    east0: first![1],
    west1: second !== undefined ? second[0] : 1,
    east1: second !== undefined ? second[1] : 0
  }
}

/** What `TripIndex.cellsOf` answers: a place's box and its grid cells. */
interface Cells {
  readonly box: FlatBox
  readonly built: ReadonlyArray<number>
  readonly waiting: ReadonlyArray<ReadonlyArray<number>>
  readonly entries: number
}

/** Calls `visit` with the key of every grid cell the box covers (both longitude ranges). */
const forEachCell = (box: FlatBox, visit: (key: number) => void): void => {
  const la0 = latCell(box.minLat)
  const la1 = latCell(box.maxLat)
  for (let range = 0; range < 2; range++) {
    const west = range === 0 ? box.west0 : box.west1
    const east = range === 0 ? box.east0 : box.east1
    if (west > east) continue
    const lo0 = lonCell(west)
    const lo1 = lonCell(east)
    for (let la = la0; la <= la1; la++) for (let lo = lo0; lo <= lo1; lo++) visit(cellKey(la, lo))
  }
}

/**
 * Counts per integer key, for one search at a time: keys in [0, size) go to a typed array kept
 * between searches (a Map update per candidate cost a tenth of a large search), any other key to
 * a Map. `take` answers the counts in key order and leaves the tally empty.
 */
class Tally {
  private readonly counts: Int32Array
  private readonly used: Array<number> = []
  private readonly more = new Map<number, number>()

  constructor(size: number) {
    this.counts = new Int32Array(size)
  }

  add(key: number): void {
    if (key >= 0 && key < this.counts.length) {
      if (this.counts[key]!++ === 0) this.used.push(key)
    } else this.more.set(key, (this.more.get(key) ?? 0) + 1)
  }

  take(): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = [...this.more.entries()]
    for (const key of this.used) {
      out.push([key, this.counts[key]!])
      this.counts[key] = 0
    }
    this.used.length = 0
    this.more.clear()
    return out.sort((a, b) => a[0] - b[0])
  }
}

/** When the index reorganises itself; the defaults suit production, tests lower them. */
export interface TripIndexOptions {
  /** Waypoints waiting outside the CSR grid before it is rebuilt (at least a quarter of the grid). */
  readonly rebuildAfter?: number
  /** Dead trip slots before the arrays are compacted (at least a quarter of all slots). */
  readonly compactAfter?: number
}

export class TripIndex {
  private readonly rebuildAfter: number
  private readonly compactAfter: number

  constructor(options: TripIndexOptions = {}) {
    this.rebuildAfter = options.rebuildAfter ?? 65_536
    this.compactAfter = options.compactAfter ?? 1024
  }

  // Trip slots. A trip's ref (`refOf`) is fixed when it is upserted and `refSlot` gives the ref's
  // current slot, so renumbering the slots rewrites one typed array instead of a million map
  // entries.
  private ids: Array<string> = []
  private refOf = new Map<string, number>()
  private refSlot: Int32Array = new Int32Array(1024)
  private refs = 0
  private alive: Uint8Array = new Uint8Array(1024)
  private wpStart: Int32Array = new Int32Array(1024)
  private wpCount: Uint8Array = new Uint8Array(1024)
  private currency: Uint8Array = new Uint8Array(1024)
  private seats: Uint8Array = new Uint8Array(1024)
  private seatsLeft: Uint8Array = new Uint8Array(1024)
  private flags: Uint8Array = new Uint8Array(1024)
  private bookingType: Uint8Array = new Uint8Array(1024)
  private experience: Uint8Array = new Uint8Array(1024)
  private comfort: Uint8Array = new Uint8Array(1024)
  private slots = 0
  private dead = 0

  // Waypoints, in trip order; legs are stored on their first waypoint.
  private wLat: Float64Array = new Float64Array(4096)
  private wLon: Float64Array = new Float64Array(4096)
  private wUtc: Float64Array = new Float64Array(4096)
  private wLocal: Float64Array = new Float64Array(4096)
  private wSlot: Int32Array = new Int32Array(4096)
  private legPrice: Int32Array = new Int32Array(4096)
  private legDist: Int32Array = new Int32Array(4096)
  private waypoints = 0

  // The grid, in CSR form: waypoints sorted by cell, each entry with its trip slot, whether it
  // ends its trip (END_*), and its unit vector (x, y, z), so that scanning a cell is a linear read
  // that touches no per-waypoint or per-trip array until a waypoint passes the chord test.
  // Waypoints upserted since the last build wait in `extra` ([w, x, y, z] per entry) until the
  // next rebuild. Dead trips are left to the candidate loop to skip.
  private gridCell = new Map<number, number>()
  private gridStart: Int32Array = new Int32Array(1)
  private gridSlot: Int32Array = new Int32Array(0)
  private gridEnds: Uint8Array = new Uint8Array(0)
  private gridXYZ: Float64Array = new Float64Array(0)
  private extra = new Map<number, Array<number>>()
  private extraCount = 0
  private loading = false

  // Per-query scratch: a stamp says "written by query q", so nothing needs clearing between queries.
  private query = 0
  private tripStamp: Int32Array = new Int32Array(1024)
  private readonly distF = new Float64Array(16)
  private readonly distT = new Float64Array(16)
  // Days are counted from the day before the query's `nowMs` (no matched departure is earlier,
  // local time included), prices from 0.
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
    this.renumber()
    this.rebuildGrid()
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
    const slot = this.slots++
    const n = r.lat.length
    const w0 = this.waypoints
    this.ensureSlots(slot + 1)
    this.ensureWaypoints(w0 + n)
    const ref = this.refs++
    this.refSlot = growI32(this.refSlot, ref + 1)
    this.refSlot[ref] = slot
    this.refOf.set(r.id, ref)
    this.ids[slot] = r.id
    this.alive[slot] = 1
    this.wpStart[slot] = w0
    this.wpCount[slot] = n
    this.currency[slot] = CURRENCIES.indexOf(r.currency)
    this.seats[slot] = r.seats
    this.seatsLeft[slot] = r.seatsLeft
    this.flags[slot] = (r.autoBooking ? FLAG_AUTO : 0) | (r.short ? FLAG_SHORT : 0) | (r.hasPhoto ? FLAG_PHOTO : 0)
    this.bookingType[slot] = BOOKING_TYPES.indexOf(r.bookingType)
    this.experience[slot] = r.experience
    this.comfort[slot] = r.comfortStars
    for (let k = 0; k < n; k++) {
      const w = w0 + k
      const lat = r.lat[k]!
      const lon = r.lon[k]!
      this.wLat[w] = lat
      this.wLon[w] = lon
      const utc = r.departureMs + r.offsetMin[k]! * 60_000
      this.wUtc[w] = utc
      this.wLocal[w] = utc + r.zoneOffsetMin[k]! * 60_000
      this.wSlot[w] = slot
      this.legPrice[w] = k < n - 1 ? r.legPriceMinor[k]! : 0
      this.legDist[w] = k < n - 1 ? r.legDistanceM[k]! : 0
      if (!this.loading) {
        const key = cellKey(latCell(lat), lonCell(lon))
        const cosLat = Math.cos(lat * RAD)
        const entry = [w, cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)]
        const cell = this.extra.get(key)
        if (cell === undefined) this.extra.set(key, entry)
        else cell.push(...entry)
        this.extraCount++
      }
    }
    this.waypoints = w0 + n
    if (this.extraCount > Math.max(this.rebuildAfter, this.gridSlot.length / 4)) this.rebuildGrid()
  }

  /**
   * Renumbers the live trips (and their waypoints) in grid-cell order of their first waypoint,
   * then of their last, dropping dead slots. Store order is geographically random, so without
   * this the candidates of one search are scattered over every per-trip array and each costs a
   * cache miss per array read; in cell order they share cache lines. Upserts after a load append
   * and are few.
   */
  private renumber(): void {
    // Two stable sorts, by last waypoint's cell and then by first's, so that within an origin cell
    // the trips to one destination are neighbours too: a search by arrival (or a pair scanned
    // from its arrival side) then reads runs as well. Each sorts `cell * 2^32 + tiebreak` as
    // doubles, exact below 2^53, and a sort without comparator is native and fast.
    const cellAt = (w: number): number => cellKey(latCell(this.wLat[w]!), lonCell(this.wLon[w]!))
    // Passes in old slot order read the per-waypoint arrays sequentially; the others read only
    // small per-slot arrays out of order.
    const firstCell = new Int32Array(this.slots)
    const byLast = new Float64Array(this.refOf.size)
    let live = 0
    for (let s = 0; s < this.slots; s++) {
      if (this.alive[s] === 0) continue
      firstCell[s] = cellAt(this.wpStart[s]!)
      byLast[live++] = cellAt(this.wpStart[s]! + this.wpCount[s]! - 1) * 2 ** 32 + s
    }
    byLast.sort()
    const ranked = new Int32Array(live)
    const keys = new Float64Array(live)
    for (let r = 0; r < live; r++) {
      const s = byLast[r]! % 2 ** 32
      ranked[r] = s
      keys[r] = firstCell[s]! * 2 ** 32 + r
    }
    keys.sort()
    const order = new Int32Array(live)
    const newSlot = new Int32Array(this.slots).fill(-1)
    const start = new Int32Array(this.wpStart.length)
    const wSlot = new Int32Array(this.wSlot.length)
    let waypoints = 0
    for (let s = 0; s < live; s++) {
      const old = ranked[keys[s]! % 2 ** 32]!
      order[s] = old
      newSlot[old] = s
      start[s] = waypoints
      for (const end = waypoints + this.wpCount[old]!; waypoints < end; ) wSlot[waypoints++] = s
    }
    // Old waypoint -> new one, -1 for those of dead slots.
    const newW = new Int32Array(this.waypoints).fill(-1)
    for (let s = 0; s < this.slots; s++) {
      const to = newSlot[s]!
      if (to < 0) continue
      for (let w = this.wpStart[s]!, end = w + this.wpCount[s]!, t = start[to]!; w < end; w++) newW[w] = t++
    }
    for (let r = 0; r < this.refs; r++) this.refSlot[r] = newSlot[this.refSlot[r]!]!
    this.ids = Array.from(order, (old) => this.ids[old]!)
    this.alive = gatherU8(this.alive, order)
    this.wpStart = start
    this.wpCount = gatherU8(this.wpCount, order)
    this.currency = gatherU8(this.currency, order)
    this.seats = gatherU8(this.seats, order)
    this.seatsLeft = gatherU8(this.seatsLeft, order)
    this.flags = gatherU8(this.flags, order)
    this.bookingType = gatherU8(this.bookingType, order)
    this.experience = gatherU8(this.experience, order)
    this.comfort = gatherU8(this.comfort, order)
    this.slots = live
    this.dead = 0
    // Waypoints are scattered rather than gathered: random stores do not stall like random loads.
    this.wLat = scatterF64(this.wLat, newW)
    this.wLon = scatterF64(this.wLon, newW)
    this.wUtc = scatterF64(this.wUtc, newW)
    this.wLocal = scatterF64(this.wLocal, newW)
    this.legPrice = scatterI32(this.legPrice, newW)
    this.legDist = scatterI32(this.legDist, newW)
    this.wSlot = wSlot
    this.waypoints = waypoints
  }

  /** The CSR grid over every live waypoint (counting sort by cell); `extra` is emptied. */
  private rebuildGrid(): void {
    const keys = new Int32Array(this.waypoints)
    const cellOf = new Map<number, number>()
    const counts: Array<number> = []
    let live = 0
    for (let w = 0; w < this.waypoints; w++) {
      if (this.alive[this.wSlot[w]!] === 0) {
        keys[w] = -1
        continue
      }
      const key = cellKey(latCell(this.wLat[w]!), lonCell(this.wLon[w]!))
      let c = cellOf.get(key)
      if (c === undefined) {
        c = counts.length
        cellOf.set(key, c)
        counts.push(0)
      }
      counts[c]!++
      keys[w] = c
      live++
    }
    const start = new Int32Array(counts.length + 1)
    for (let c = 0; c < counts.length; c++) start[c + 1] = start[c]! + counts[c]!
    const fill = start.slice(0, counts.length)
    const slots = new Int32Array(live)
    const ends = new Uint8Array(live)
    const xyz = new Float64Array(3 * live)
    for (let w = 0; w < this.waypoints; w++) {
      const c = keys[w]!
      if (c < 0) continue
      const at = fill[c]!++
      const slot = this.wSlot[w]!
      const k = w - this.wpStart[slot]!
      slots[at] = slot
      ends[at] = (k === 0 ? END_FIRST : 0) | (k === this.wpCount[slot]! - 1 ? END_LAST : 0)
      const lat = this.wLat[w]! * RAD
      const lon = this.wLon[w]! * RAD
      const cosLat = Math.cos(lat)
      xyz[3 * at] = cosLat * Math.cos(lon)
      xyz[3 * at + 1] = cosLat * Math.sin(lon)
      xyz[3 * at + 2] = Math.sin(lat)
    }
    this.gridCell = cellOf
    this.gridStart = start
    this.gridSlot = slots
    this.gridEnds = ends
    this.gridXYZ = xyz
    this.extra = new Map()
    this.extraCount = 0
  }

  remove(id: string): void {
    this.kill(id)
    this.maybeCompact()
  }

  private kill(id: string): void {
    const ref = this.refOf.get(id)
    if (ref === undefined) return
    this.alive[this.refSlot[ref]!] = 0
    this.refOf.delete(id)
    this.dead++
  }

  /** Rebuilds the arrays without dead slots once they are a quarter of all slots. */
  maybeCompact(): void {
    if (this.dead < this.compactAfter || this.dead * 4 < this.slots) return
    const records: Array<IndexRecord> = []
    for (let s = 0; s < this.slots; s++) if (this.alive[s] === 1) records.push(this.recordOf(s))
    const fresh = TripIndex.from(records, { rebuildAfter: this.rebuildAfter, compactAfter: this.compactAfter })
    Object.assign(this, fresh)
  }

  /** Applies a batch of store changes (freshness). */
  apply(upserts: ReadonlyArray<IndexRecord>, removed: ReadonlyArray<string>): void {
    for (const r of upserts) this.upsert(r)
    for (const id of removed) this.kill(id)
    this.maybeCompact()
  }

  /** A live slot back as a record, for compaction only (see `legDurationS`). */
  private recordOf(slot: number): IndexRecord {
    const w0 = this.wpStart[slot]!
    const n = this.wpCount[slot]!
    const range = (a: Float64Array | Int32Array, len: number) => Array.from(a.subarray(w0, w0 + len))
    const utc = range(this.wUtc, n)
    const local = range(this.wLocal, n)
    const f = this.flags[slot]!
    return {
      id: this.ids[slot]!,
      departureMs: utc[0]!,
      lat: range(this.wLat, n),
      lon: range(this.wLon, n),
      offsetMin: utc.map((u) => (u - utc[0]!) / 60_000),
      zoneOffsetMin: local.map((l, k) => (l - utc[k]!) / 60_000),
      legPriceMinor: range(this.legPrice, n - 1),
      legDistanceM: range(this.legDist, n - 1),
      // Matching never reads durations, so the index does not keep them: a compacted record has none.
      legDurationS: new Array(n - 1).fill(0),
      currency: CURRENCIES[this.currency[slot]!]!,
      seats: this.seats[slot]!,
      seatsLeft: this.seatsLeft[slot]!,
      autoBooking: (f & FLAG_AUTO) !== 0,
      bookingType: BOOKING_TYPES[this.bookingType[slot]!]!,
      short: (f & FLAG_SHORT) !== 0,
      hasPhoto: (f & FLAG_PHOTO) !== 0,
      experience: this.experience[slot]!,
      comfortStars: this.comfort[slot]!
    }
  }

  private ensureSlots(n: number): void {
    if (n <= this.alive.length) return
    this.alive = growU8(this.alive, n)
    this.wpStart = growI32(this.wpStart, n)
    this.wpCount = growU8(this.wpCount, n)
    this.currency = growU8(this.currency, n)
    this.seats = growU8(this.seats, n)
    this.seatsLeft = growU8(this.seatsLeft, n)
    this.flags = growU8(this.flags, n)
    this.bookingType = growU8(this.bookingType, n)
    this.experience = growU8(this.experience, n)
    this.comfort = growU8(this.comfort, n)
    this.tripStamp = growI32(this.tripStamp, n)
  }

  private ensureWaypoints(n: number): void {
    if (n <= this.wLat.length) return
    this.wLat = growF64(this.wLat, n)
    this.wLon = growF64(this.wLon, n)
    this.wUtc = growF64(this.wUtc, n)
    this.wLocal = growF64(this.wLocal, n)
    this.wSlot = growI32(this.wSlot, n)
    this.legPrice = growI32(this.legPrice, n)
    this.legDist = growI32(this.legDist, n)
  }

  /**
   * The grid cells `box` covers that hold waypoints, looked up once per search and side: built
   * cells (CSR indices), lists still waiting for the next build, and how many entries they hold
   * in all (a pair is scanned from its lighter side).
   */
  private cellsOf(box: FlatBox): Cells {
    const built: Array<number> = []
    const waiting: Array<Array<number>> = []
    let entries = 0
    forEachCell(box, (key) => {
      const c = this.gridCell.get(key)
      if (c !== undefined) {
        built.push(c)
        entries += this.gridStart[c + 1]! - this.gridStart[c]!
      }
      const more = this.extra.get(key)
      if (more !== undefined) {
        waiting.push(more)
        entries += more.length / 4
      }
    })
    return { box, built, waiting, entries }
  }

  /**
   * Calls `take` with the trip slot of every waypoint (of a live trip or not) in `cells` that may
   * lie within the radius of their box's place, skipping first (`skip = "first"`) or last (`"last"`)
   * waypoints of their trip, as the matching rule of each side requires. The chord test errs on
   * the inclusive side; exact distances come later, for candidate trips only.
   */
  private scanNear(cells: Cells, skip: "first" | "last", take: (slot: number) => void): void {
    const { box } = cells
    const cosLat = Math.cos(box.lat * RAD)
    const px = cosLat * Math.cos(box.lon * RAD)
    const py = cosLat * Math.sin(box.lon * RAD)
    const pz = Math.sin(box.lat * RAD)
    const chord = 2 * Math.sin(Math.min(Math.PI, box.radiusKm / EARTH_RADIUS_KM) / 2)
    const limit = chord * chord * (1 + 1e-9) + 1e-15
    const skipEnd = skip === "first" ? END_FIRST : END_LAST
    const { gridStart, gridSlot, gridEnds, gridXYZ, wSlot, wpStart, wpCount } = this
    for (const c of cells.built) {
      for (let e = gridStart[c]!, end = gridStart[c + 1]!; e < end; e++) {
        const dx = gridXYZ[3 * e]! - px
        const dy = gridXYZ[3 * e + 1]! - py
        const dz = gridXYZ[3 * e + 2]! - pz
        if (dx * dx + dy * dy + dz * dz <= limit && (gridEnds[e]! & skipEnd) === 0) take(gridSlot[e]!)
      }
    }
    for (const more of cells.waiting) {
      for (let e = 0; e < more.length; e += 4) {
        const dx = more[e + 1]! - px
        const dy = more[e + 2]! - py
        const dz = more[e + 3]! - pz
        if (dx * dx + dy * dy + dz * dz > limit) continue
        const w = more[e]!
        const slot = wSlot[w]!
        const k = w - wpStart[slot]!
        if (skipEnd === END_FIRST ? k !== 0 : k !== wpCount[slot]! - 1) take(slot)
      }
    }
  }

  /**
   * Exact distances from `box`'s place to waypoints `from..to` of a trip, Infinity outside the radius.
   * The bounding box holds the whole circle, so a waypoint outside it needs no haversine.
   */
  private distancesTo(box: FlatBox, w0: number, from: number, to: number, out: Float64Array): void {
    for (let k = from; k <= to; k++) {
      const lat = this.wLat[w0 + k]!
      const lon = this.wLon[w0 + k]!
      if (lat < box.minLat || lat > box.maxLat || !((lon >= box.west0 && lon <= box.east0) || (lon >= box.west1 && lon <= box.east1))) {
        out[k] = Infinity
        continue
      }
      const d = haversineKm(box.lat, box.lon, lat, lon)
      out[k] = d <= box.radiusKm ? d : Infinity
    }
  }

  search(req: MatchRequest): MatchResult {
    if (++this.query > 0x3fffffff) {
      this.query = 1
      this.tripStamp.fill(0)
    }
    const q = this.query
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
    const fromCells = from === undefined ? undefined : this.cellsOf(flatBox(from))
    const toCells = to === undefined ? undefined : this.cellsOf(flatBox(to))
    if (fromCells !== undefined && (toCells === undefined || fromCells.entries <= toCells.entries)) this.scanNear(fromCells, "last", collect)
    else if (toCells !== undefined) this.scanNear(toCells, "first", collect)
    const fromBox = fromCells?.box
    const toBox = toCells?.box
    const dF = this.distF
    const dT = this.distT

    // Per-request price conversion factors, per trip currency (docs/API.md, Prices).
    const cur = req.currency
    const toFactor = scaledRate(req.rates[cur]) * 10 ** MINOR_DIGITS[cur]
    const fromFactor = CURRENCIES.map((c) => scaledRate(req.rates[c]) * 10 ** MINOR_DIGITS[c])
    const curIdx = CURRENCIES.indexOf(cur)
    const withMode = req.priceMode === "with"
    const unit = 10 ** MINOR_DIGITS[cur]

    // The filters as locals, an absent bound as one nothing fails: requests differ in which
    // optional fields they carry, so `req.x` in the loop would be a megamorphic load per candidate.
    const { nowMs, autoOnly, includeShort, photoOnly } = req
    const seatsMin = req.seats ?? 0
    const localFrom = req.localFromMs ?? -Infinity
    const localTo = req.localToMs ?? Infinity
    const hourFrom = req.hourFrom ?? 0
    const hourTo = req.hourTo ?? Infinity
    const priceMin = req.priceMinMinor ?? -Infinity
    const priceMax = req.priceMaxMinor ?? Infinity

    const seatsFacet = [0, 0, 0, 0]
    const photoFacet = [0, 0]
    const experienceFacet = [0, 0, 0, 0, 0]
    const comfortFacet = [0, 0, 0, 0]
    const hourFacet = new Array<number>(24).fill(0)
    const dayBase = Math.floor(nowMs / DAY_MS) - 1
    const dayFacet = this.dayTally
    const priceFacet = this.priceTally
    // Empties them should an earlier search have thrown halfway.
    dayFacet.take()
    priceFacet.take()

    // Matched segments, as parallel arrays.
    const mSlot: Array<number> = []
    const mI: Array<number> = []
    const mJ: Array<number> = []
    const mPrice: Array<number> = []
    const mUtc: Array<number> = []
    // Candidates for the top trips, so that picking them reads no per-trip array again.
    const eligible: Array<number> = []
    const topSeats = req.withTopTrips ? Math.max(1, seatsMin) : Infinity
    let full = 0
    let lowest = Infinity

    for (let c = 0; c < candidates.length; c++) {
      const slot = candidates[c]!
      if (this.alive[slot] === 0) continue
      const w0 = this.wpStart[slot]!
      const last = this.wpCount[slot]! - 1
      let bi = -1
      let bj = -1
      // Trip-level rejects first: they skip the distances and, like every reject before the
      // facets, leave no trace in the result.
      const flags = this.flags[slot]!
      if (autoOnly && (flags & FLAG_AUTO) === 0) continue
      if (!includeShort && (flags & FLAG_SHORT) !== 0) continue
      if (fromBox !== undefined) this.distancesTo(fromBox, w0, 0, last - 1, dF)
      if (toBox !== undefined) this.distancesTo(toBox, w0, 1, last, dT)
      if (from !== undefined && to !== undefined) {
        let best = Infinity
        for (let i = 0; i < last; i++) {
          const di = dF[i]!
          if (di === Infinity) continue
          for (let j = i + 1; j <= last; j++) {
            const s = di + dT[j]!
            if (s < best) {
              best = s
              bi = i
              bj = j
            }
          }
        }
      } else if (from !== undefined) {
        let best = Infinity
        for (let i = 0; i < last; i++) {
          if (dF[i]! < best) {
            best = dF[i]!
            bi = i
          }
        }
        bj = last
      } else {
        let best = Infinity
        bi = 0
        for (let j = 1; j <= last; j++) {
          if (dT[j]! < best) {
            best = dT[j]!
            bj = j
          }
        }
      }
      // The chord test let through a waypoint just outside the radius, and nothing else matched.
      if (bi < 0 || bj < 0) continue

      const wi = w0 + bi
      const utc = this.wUtc[wi]!
      if (utc < nowMs) continue

      let net = 0
      for (let w = wi; w < w0 + bj; w++) net += this.legPrice[w]!
      const tc = this.currency[slot]!
      if (tc !== curIdx) net = mulDivRound2(net, toFactor, fromFactor[tc]!)
      const price = withMode && this.bookingType[slot] !== NO_BOOKING ? net + mulDivRound2(net, 15, 100) : net

      const seatsLeft = this.seatsLeft[slot]!
      const local = this.wLocal[wi]!
      const hour = (((Math.floor(local / HOUR_MS) % 24) + 24) % 24)
      const photo = (flags & FLAG_PHOTO) !== 0
      let mask = 0
      if (seatsLeft < seatsMin) mask |= F_SEATS
      if (local < localFrom || local > localTo) mask |= F_DATE
      if (hour < hourFrom || hour >= hourTo) mask |= F_HOUR
      if (price < priceMin || price > priceMax) mask |= F_PRICE
      if (photoOnly && !photo) mask |= F_PHOTO
      if ((mask & (mask - 1)) !== 0) continue

      if ((mask & ~F_SEATS) === 0) for (let v = 1; v <= 4; v++) if (seatsLeft >= v) seatsFacet[v - 1]!++
      if ((mask & ~F_DATE) === 0) {
        dayFacet.add(Math.floor(local / DAY_MS) - dayBase)
      }
      if ((mask & ~F_HOUR) === 0) hourFacet[hour]!++
      if ((mask & ~F_PRICE) === 0) {
        priceFacet.add(Math.floor(price / unit))
      }
      if ((mask & ~F_PHOTO) === 0) photoFacet[photo ? 1 : 0]!++
      if (mask !== 0) continue

      experienceFacet[this.experience[slot]!]!++
      comfortFacet[this.comfort[slot]! - 1]!++
      mSlot.push(slot)
      mI.push(bi)
      mJ.push(bj)
      mPrice.push(price)
      mUtc.push(utc)
      if ((flags & FLAG_AUTO) !== 0 && seatsLeft >= topSeats) eligible.push(mSlot.length - 1)
      if (seatsLeft === 0) full++
      if (price < lowest) lowest = price
    }

    const total = mSlot.length
    const permanentId = (m: number): string => {
      const slot = mSlot[m]!
      return mI[m] === 0 && mJ[m] === this.wpCount[slot]! - 1 ? this.ids[slot]! : `${this.ids[slot]}_${mI[m]}_${mJ[m]}`
    }
    const byPid = (a: number, b: number): number => {
      const pa = permanentId(a)
      const pb = permanentId(b)
      return pa < pb ? -1 : pa > pb ? 1 : 0
    }
    const dir = req.order === "desc" ? -1 : 1
    const byDate = (a: number, b: number): number =>
      mUtc[a]! - mUtc[b]! || mPrice[a]! - mPrice[b]! || byPid(a, b)
    const compare =
      req.sort === "trip_price"
        ? (a: number, b: number) => dir * (mPrice[a]! - mPrice[b]!) || mUtc[a]! - mUtc[b]! || byPid(a, b)
        : (a: number, b: number) => dir * (mUtc[a]! - mUtc[b]!) || mPrice[a]! - mPrice[b]! || byPid(a, b)

    // Distances are recomputed for the few hits shown (the same call gives the same double)
    // rather than kept for every match.
    const kmTo = (box: FlatBox, m: number, k: number): number => {
      const w = this.wpStart[mSlot[m]!]! + k
      return haversineKm(box.lat, box.lon, this.wLat[w]!, this.wLon[w]!)
    }
    const hit = (m: number): SegmentHit => ({
      id: this.ids[mSlot[m]!]!,
      i: mI[m]!,
      j: mJ[m]!,
      ...(fromBox !== undefined ? { fromKm: kmTo(fromBox, m, mI[m]!) } : {}),
      ...(toBox !== undefined ? { toKm: kmTo(toBox, m, mJ[m]!) } : {})
    })

    const order = new Array<number>(total)
    for (let m = 0; m < total; m++) order[m] = m
    const end = Math.min(total, req.offset + req.limit)
    const page = req.offset < end ? selectSorted(order, end, compare).slice(req.offset, end).map(hit) : []

    const top: Array<SegmentHit> = []
    if (req.withTopTrips) {
      const dist = (m: number): number => {
        const w0 = this.wpStart[mSlot[m]!]!
        let d = 0
        for (let w = w0 + mI[m]!; w < w0 + mJ[m]!; w++) d += this.legDist[w]!
        return d
      }
      // price/distance ascending, compared as cross products to stay exact; a zero distance
      // (ratio infinite, or 0/0) comes after every other (DECISIONS.md), or the cross products
      // would not be a total order and the result would depend on the input order.
      const byValue = (a: number, b: number): number => {
        const da = dist(a)
        const db = dist(b)
        if ((da === 0) !== (db === 0)) return da === 0 ? 1 : -1
        const x = mPrice[a]! * db
        const y = mPrice[b]! * da
        return x < y ? -1 : x > y ? 1 : byDate(a, b)
      }
      for (const m of selectSorted(eligible, 3, byValue).slice(0, 3)) top.push(hit(m))
    }

    const facets: FacetCounts = {
      seats: seatsFacet,
      dates: dayFacet.take().map(([day, n]) => [yyyymmdd(dayBase + day), n] as const),
      hours: hourFacet.flatMap((n, h) => (n > 0 ? [[h, n] as const] : [])),
      prices: priceFacet.take(),
      photo: photoFacet,
      experience: experienceFacet,
      comfort: comfortFacet
    }
    return {
      total,
      fullTripsCount: full,
      ...(total > 0 ? { lowestPriceMinor: lowest } : {}),
      page,
      top,
      facets
    }
  }
}

/**
 * The first `k` items in `compare` order. A full sort when k is a large part of the input,
 * otherwise a bounded insertion into a sorted prefix, which is linear for small pages.
 */
export const selectSorted = (items: Array<number>, k: number, compare: (a: number, b: number) => number): Array<number> => {
  if (k <= 0) return []
  if (k * 8 >= items.length) return items.slice().sort(compare).slice(0, k)
  const best: Array<number> = []
  for (const item of items) {
    if (best.length === k && compare(item, best[k - 1]!) >= 0) continue
    let lo = 0
    let hi = best.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compare(best[mid]!, item) <= 0) lo = mid + 1
      else hi = mid
    }
    best.splice(lo, 0, item)
    if (best.length > k) best.pop()
  }
  return best
}

export type { CurrencyCode }
