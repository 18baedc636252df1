import { boundingBox } from "../../geo/boundingBox.js"
import { EARTH_RADIUS_KM } from "../../geo/haversine.js"
import type { MatchPlace } from "../MatchRequest.js"
import type { TripColumns } from "./TripColumns.js"

const CELL_DEG = 0.2
const LON_CELLS = Math.ceil(360 / CELL_DEG) + 1
const cellKey = (latIdx: number, lonIdx: number): number => latIdx * LON_CELLS + lonIdx
const latCell = (lat: number): number => Math.floor((lat + 90) / CELL_DEG)
const lonCell = (lon: number): number => Math.floor((lon + 180) / CELL_DEG)
/** The grid cell of a point, as one integer. */
export const cellOf = (lat: number, lon: number): number => cellKey(latCell(lat), lonCell(lon))

const END_FIRST = 1
const END_LAST = 2
const RAD = Math.PI / 180

/**
 * A place and its bounding box as plain numbers, in one shape whatever the request's own shape:
 * the per-candidate loop then reads monomorphic fields. An absent second longitude range is
 * empty (west > east).
 */
export interface FlatBox {
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
export const flatBox = (place: MatchPlace): FlatBox => {
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

/** What `GeoGrid.cellsOf` answers: a place's box and its grid cells. */
export interface Cells {
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
 * A lat/lon grid over the waypoints (docs/API.md, Searching: which waypoints lie within a place's radius),
 * in CSR form: waypoints sorted by cell, each entry with its trip slot, whether it ends its trip
 * (END_*), and its unit vector (x, y, z), so that scanning a cell is a linear read that touches no
 * per-waypoint or per-trip array until a waypoint passes the chord test. Waypoints added since the
 * last build wait in `extra` ([w, x, y, z] per entry) until the next one. Dead trips are left to
 * the candidate loop to skip.
 */
export class GeoGrid {
  private cell = new Map<number, number>()
  private start: Int32Array = new Int32Array(1)
  private slot: Int32Array = new Int32Array(0)
  private ends: Uint8Array = new Uint8Array(0)
  private xyz: Float64Array = new Float64Array(0)
  private extra = new Map<number, Array<number>>()
  /** Waypoints waiting outside the CSR arrays. */
  waiting = 0

  /** Entries of the CSR arrays. */
  get built(): number {
    return this.slot.length
  }

  /** Adds waypoint `w` (of the columns) to the waiting lists. */
  add(w: number, lat: number, lon: number): void {
    const key = cellOf(lat, lon)
    const cosLat = Math.cos(lat * RAD)
    const entry = [w, cosLat * Math.cos(lon * RAD), cosLat * Math.sin(lon * RAD), Math.sin(lat * RAD)]
    const cell = this.extra.get(key)
    if (cell === undefined) this.extra.set(key, entry)
    else cell.push(...entry)
    this.waiting++
  }

  /** The CSR arrays over every live waypoint of `t` (counting sort by cell); nothing waits after. */
  build(t: TripColumns): void {
    const keys = new Int32Array(t.waypoints)
    const cellIndex = new Map<number, number>()
    const counts: Array<number> = []
    let live = 0
    for (let w = 0; w < t.waypoints; w++) {
      if (t.alive[t.wSlot[w]!] === 0) {
        keys[w] = -1
        continue
      }
      const key = cellOf(t.wLat[w]!, t.wLon[w]!)
      let c = cellIndex.get(key)
      if (c === undefined) {
        c = counts.length
        cellIndex.set(key, c)
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
    for (let w = 0; w < t.waypoints; w++) {
      const c = keys[w]!
      if (c < 0) continue
      const at = fill[c]!++
      const slot = t.wSlot[w]!
      const k = w - t.wpStart[slot]!
      slots[at] = slot
      ends[at] = (k === 0 ? END_FIRST : 0) | (k === t.wpCount[slot]! - 1 ? END_LAST : 0)
      const lat = t.wLat[w]! * RAD
      const lon = t.wLon[w]! * RAD
      const cosLat = Math.cos(lat)
      xyz[3 * at] = cosLat * Math.cos(lon)
      xyz[3 * at + 1] = cosLat * Math.sin(lon)
      xyz[3 * at + 2] = Math.sin(lat)
    }
    this.cell = cellIndex
    this.start = start
    this.slot = slots
    this.ends = ends
    this.xyz = xyz
    this.extra = new Map()
    this.waiting = 0
  }

  /**
   * The grid cells `box` covers that hold waypoints, looked up once per search and side: built
   * cells (CSR indices), lists still waiting for the next build, and how many entries they hold
   * in all (a pair is scanned from its lighter side).
   */
  cellsOf(box: FlatBox): Cells {
    const built: Array<number> = []
    const waiting: Array<Array<number>> = []
    let entries = 0
    forEachCell(box, (key) => {
      const c = this.cell.get(key)
      if (c !== undefined) {
        built.push(c)
        entries += this.start[c + 1]! - this.start[c]!
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
   * waypoints of their trip, as the matching rule of each side requires (docs/API.md, Searching). The chord
   * test errs on the inclusive side; exact distances come later, for candidate trips only.
   */
  scanNear(t: TripColumns, cells: Cells, skip: "first" | "last", take: (slot: number) => void): void {
    const { box } = cells
    const cosLat = Math.cos(box.lat * RAD)
    const px = cosLat * Math.cos(box.lon * RAD)
    const py = cosLat * Math.sin(box.lon * RAD)
    const pz = Math.sin(box.lat * RAD)
    const chord = 2 * Math.sin(Math.min(Math.PI, box.radiusKm / EARTH_RADIUS_KM) / 2)
    const limit = chord * chord * (1 + 1e-9) + 1e-15
    const skipEnd = skip === "first" ? END_FIRST : END_LAST
    const { start, slot, ends, xyz } = this
    const { wSlot, wpStart, wpCount } = t
    for (const c of cells.built) {
      for (let e = start[c]!, end = start[c + 1]!; e < end; e++) {
        const dx = xyz[3 * e]! - px
        const dy = xyz[3 * e + 1]! - py
        const dz = xyz[3 * e + 2]! - pz
        if (dx * dx + dy * dy + dz * dz <= limit && (ends[e]! & skipEnd) === 0) take(slot[e]!)
      }
    }
    for (const more of cells.waiting) {
      for (let e = 0; e < more.length; e += 4) {
        const dx = more[e + 1]! - px
        const dy = more[e + 2]! - py
        const dz = more[e + 3]! - pz
        if (dx * dx + dy * dy + dz * dz > limit) continue
        const w = more[e]!
        const s = wSlot[w]!
        const k = w - wpStart[s]!
        if (skipEnd === END_FIRST ? k !== 0 : k !== wpCount[s]! - 1) take(s)
      }
    }
  }
}
