import type { FlatBox } from "./GeoGrid.js"
import type { TripColumns } from "./TripColumns.js"

// Coarse cells of 1°: a default radius touches one to four of them, so a pair search reads the
// trips joining a few cell pairs, while the grid of 0.2° cells would have it scan every waypoint
// around the lighter side.
const LAT_ROWS = 181
const LON_COLS = 360
const CELLS = LAT_ROWS * LON_COLS
const row = (lat: number): number => Math.floor(lat + 90)
const col = (lon: number): number => Math.floor(lon + 180) % LON_COLS
const coarseCell = (lat: number, lon: number): number => row(lat) * LON_COLS + col(lon)

/** The coarse cells a box covers (both longitude ranges), each once. */
const cellsOf = (box: FlatBox): Array<number> => {
  const out: Array<number> = []
  for (let range = 0; range < 2; range++) {
    const west = range === 0 ? box.west0 : box.west1
    const east = range === 0 ? box.east0 : box.east1
    if (west > east) continue
    const c0 = Math.floor(west + 180)
    const c1 = Math.floor(east + 180)
    for (let r = row(box.minLat); r <= row(box.maxLat); r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * LON_COLS + (c % LON_COLS)
        if (!out.includes(cell)) out.push(cell)
      }
    }
  }
  return out
}

/** Cell pairs a pair search may look up before scanning the lighter side is cheaper. */
const MAX_PAIRS = 1024

/**
 * Trips by the coarse cells of each ordered pair of their waypoints (`wi` before `wj`): the
 * candidates of a search by departure and arrival are the trips joining a cell near the one to a
 * cell near the other, so a pair search costs what its answer costs, not what the busier city
 * around either place costs. A superset of the matching trips: the exact rules run per candidate
 * as for any search. Trips added since the last build wait in a map of lists.
 */
export class PairGrid {
  private index = new Map<number, number>()
  private start: Int32Array = new Int32Array(1)
  private slots: Int32Array = new Int32Array(0)
  private waiting = new Map<number, Array<number>>()
  private readonly keys: Array<number> = []

  /** The distinct pair keys of a trip, into `this.keys`. */
  private keysOf(t: TripColumns, slot: number): Array<number> {
    const keys = this.keys
    keys.length = 0
    const w0 = t.wpStart[slot]!
    const n = t.wpCount[slot]!
    for (let i = 0; i < n - 1; i++) {
      const a = coarseCell(t.wLat[w0 + i]!, t.wLon[w0 + i]!) * CELLS
      for (let j = i + 1; j < n; j++) {
        const key = a + coarseCell(t.wLat[w0 + j]!, t.wLon[w0 + j]!)
        if (!keys.includes(key)) keys.push(key)
      }
    }
    return keys
  }

  /** Every live trip of `t`, by pair key (a counting sort); nothing waits after. */
  build(t: TripColumns): void {
    const counts = new Map<number, number>()
    for (let s = 0; s < t.slots; s++) {
      if (t.alive[s] === 0) continue
      for (const key of this.keysOf(t, s)) counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    const index = new Map<number, number>()
    const start = new Int32Array(counts.size + 1)
    let k = 0
    for (const [key, n] of counts) {
      index.set(key, k)
      start[k + 1] = start[k]! + n
      k++
    }
    const fill = start.slice(0, counts.size)
    const slots = new Int32Array(start[counts.size]!)
    for (let s = 0; s < t.slots; s++) {
      if (t.alive[s] === 0) continue
      for (const key of this.keysOf(t, s)) slots[fill[index.get(key)!]!++] = s
    }
    this.index = index
    this.start = start
    this.slots = slots
    this.waiting = new Map()
  }

  /** Adds a trip appended since the last build. */
  add(t: TripColumns, slot: number): void {
    for (const key of this.keysOf(t, slot)) {
      const list = this.waiting.get(key)
      if (list === undefined) this.waiting.set(key, [slot])
      else list.push(slot)
    }
  }

  /**
   * Calls `take` with every trip (live or not) having a waypoint in a coarse cell of `from` and a
   * later one in a coarse cell of `to`, and answers true; answers false, taking none, when the
   * boxes cover so many cell pairs that scanning one side costs less.
   */
  scanPairs(from: FlatBox, to: FlatBox, take: (slot: number) => void): boolean {
    const a = cellsOf(from)
    const b = cellsOf(to)
    if (a.length * b.length > MAX_PAIRS) return false
    const { index, start, slots, waiting } = this
    for (const ca of a) {
      for (const cb of b) {
        const key = ca * CELLS + cb
        const k = index.get(key)
        if (k !== undefined) for (let e = start[k]!, end = start[k + 1]!; e < end; e++) take(slots[e]!)
        const more = waiting.get(key)
        if (more !== undefined) for (const s of more) take(s)
      }
    }
    return true
  }
}
