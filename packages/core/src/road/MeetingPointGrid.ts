import { EARTH_RADIUS_KM, haversineKmFrom } from "../geo/haversine.js"

/** A road passes a meeting point within this distance of one of its points, km (docs/API.md). */
export const PASS_KM = 1

const CELL = 0.02
// Degrees of latitude in PASS_KM along a meridian, widened a little so that float rounding in the
// cell arithmetic never drops a meeting point the exact distance test would keep.
export const PASS_DEG = ((PASS_KM / EARTH_RADIUS_KM) * 180) / Math.PI * 1.01

// Cells of latitude from -90 and of longitude from -180 (after wrapping), and one on either side:
// keys stay below 2^30, small integers that cost V8 no boxing to compute, hash or compare.
const keyOf = (latCell: number, lonCell: number): number => (latCell + 5_000) * 20_000 + (lonCell + 10_000)
const LON_CELL_MIN = Math.floor(-180 / CELL)
const LON_CELLS = Math.round(360 / CELL)
/**
 * A column of cells by longitude, from LON_CELL_MIN for -180: the column of 180 is that of -180 (one
 * place), and a column past either end is the one across the antimeridian.
 */
const wrapColumn = (b: number): number => (b >= LON_CELL_MIN + LON_CELLS ? b - LON_CELLS : b < LON_CELL_MIN ? b + LON_CELLS : b)
/** The columns within `dLon` of `lon`, before wrapping: every column once when they go round. */
const columnsNear = (lon: number, dLon: number, wide: boolean): [number, number] => {
  const lon0 = Math.floor((lon - dLon) / CELL)
  const lon1 = Math.floor((lon + dLon) / CELL)
  return wide || lon1 - lon0 + 1 >= LON_CELLS ? [LON_CELL_MIN, LON_CELL_MIN + LON_CELLS - 1] : [lon0, lon1]
}
const cellKeyOf = (lat: number, lon: number): number => keyOf(Math.floor(lat / CELL), wrapColumn(Math.floor(lon / CELL)))

/**
 * The grid as `passesOf` reads it: an open-addressing table from cell key to a run of the flat arrays
 * of meeting points, cell by cell. A road asks for every one of its points, a few cells each and
 * mostly empty ones, so the lookup must cost next to nothing (a Map costs more than the rest).
 */
interface Flat {
  readonly mask: number
  readonly shift: number
  /** Cell key per slot, -1 when free. */
  readonly keys: Int32Array
  readonly start: Int32Array
  readonly end: Int32Array
  readonly ids: Int32Array
  readonly lat: Float64Array
  readonly lon: Float64Array
  /**
   * One bit a cell, whether it holds any meeting point, over the cells of the meeting points' rows
   * and columns (`rowMin`, `columnMin` on, `rowBits` bits a row): most cells a road asks for hold
   * none (nine in ten on the generated feeds), and a bit says so for less than the table's probe.
   * Only the meeting points' columns, so that the bits a road reads stay in the processor's cache
   * (Europe's: 0.8 MB, where every longitude's would be 4 MB).
   */
  readonly occupied: Int32Array
  readonly rowMin: number
  readonly rows: number
  readonly columnMin: number
  readonly columns: number
  readonly rowBits: number
}

/**
 * The active meeting points by place, to find those a road passes: a grid of 0.02° cells, asked
 * for every point of a road.
 */
export class MeetingPointGrid {
  private readonly cells = new Map<number, Array<number>>()
  private readonly lat = new Map<number, number>()
  private readonly lon = new Map<number, number>()
  /** Built on the first `passesOf` after a change. */
  private flat: Flat | undefined
  /** `passesOf`'s per flat index: 1 + where the point is in the road's list, 0 when not found yet. */
  private foundAt = new Int32Array(0)

  constructor(points: Iterable<{ readonly id: number; readonly lat: number; readonly lon: number }> = []) {
    for (const p of points) this.add(p.id, p.lat, p.lon)
  }

  get size(): number {
    return this.lat.size
  }

  has(id: number): boolean {
    return this.lat.has(id)
  }

  latOf(id: number): number {
    return this.lat.get(id)!
  }

  lonOf(id: number): number {
    return this.lon.get(id)!
  }

  add(id: number, lat: number, lon: number): void {
    if (this.lat.has(id)) this.remove(id)
    this.flat = undefined
    this.lat.set(id, lat)
    this.lon.set(id, lon)
    const key = cellKeyOf(lat, lon)
    const cell = this.cells.get(key)
    if (cell === undefined) this.cells.set(key, [id])
    else cell.push(id)
  }

  remove(id: number): void {
    const lat = this.lat.get(id)
    if (lat === undefined) return
    this.flat = undefined
    const key = cellKeyOf(lat, this.lon.get(id)!)
    const cell = this.cells.get(key)!
    cell.splice(cell.indexOf(id), 1)
    if (cell.length === 0) this.cells.delete(key)
    this.lat.delete(id)
    this.lon.delete(id)
  }

  private build(): Flat {
    let bits = 4
    while (1 << bits < this.cells.size * 2) bits++
    const size = 1 << bits
    const keys = new Int32Array(size).fill(-1)
    const start = new Int32Array(size)
    const end = new Int32Array(size)
    const ids = new Int32Array(this.lat.size)
    const lat = new Float64Array(this.lat.size)
    const lon = new Float64Array(this.lat.size)
    let rowMin = Infinity
    let rowMax = -Infinity
    let columnMin = Infinity
    let columnMax = -Infinity
    for (const key of this.cells.keys()) {
      const row = Math.floor(key / 20_000) - 5_000
      const column = (key % 20_000) - 10_000
      rowMin = Math.min(rowMin, row)
      rowMax = Math.max(rowMax, row)
      columnMin = Math.min(columnMin, column)
      columnMax = Math.max(columnMax, column)
    }
    const rows = this.cells.size === 0 ? 0 : rowMax - rowMin + 1
    const columns = this.cells.size === 0 ? 0 : columnMax - columnMin + 1
    const rowBits = ((columns + 31) >>> 5) * 32
    const occupied = new Int32Array((rows * rowBits) >>> 5)
    let n = 0
    for (const [key, cell] of this.cells) {
      const at = (Math.floor(key / 20_000) - 5_000 - rowMin) * rowBits + (key % 20_000) - 10_000 - columnMin
      occupied[at >>> 5]! |= 1 << (at & 31)
      let h = Math.imul(key, 0x9e3779b1) >>> (32 - bits)
      while (keys[h] !== -1) h = (h + 1) & (size - 1)
      keys[h] = key
      start[h] = n
      for (const id of cell) {
        ids[n] = id
        lat[n] = this.lat.get(id)!
        lon[n] = this.lon.get(id)!
        n++
      }
      end[h] = n
    }
    this.foundAt = new Int32Array(n)
    return (this.flat = { mask: size - 1, shift: 32 - bits, keys, start, end, ids, lat, lon, occupied, rowMin, rows, columnMin, columns, rowBits })
  }

  /**
   * The meeting points within `PASS_KM` of a road (its points `lat[t], lon[t]` in order), each
   * with the first of its nearest points: the meeting points of the cells within reach of each
   * point (a superset), each measured with `haversineKmFrom` from the road point. Appends to `ids`,
   * `pointOf`, `latOf` and `lonOf` (the meeting point's coordinates), in the order the meeting
   * points are first found.
   */
  passesOf(
    lat: Float64Array,
    lon: Float64Array,
    ids: Array<number>,
    pointOf: Array<number>,
    latOf: Array<number>,
    lonOf: Array<number>
  ): void {
    if (this.lat.size === 0) return
    const f = this.flat ?? this.build()
    const { keys, mask, shift, start, end, occupied, rowMin, rows, columnMin, columns, rowBits } = f
    const foundAt = this.foundAt
    const found: Array<number> = []
    const bestD: Array<number> = []
    const first = ids.length
    // The reach in longitude at the road's point farthest from the equator, for every point:
    // wider than each point's own (more cells and candidates, which the exact distance sorts
    // out), for one cosine a road instead of one a point.
    let maxAbsLat = 0
    for (let t = 0; t < lat.length; t++) maxAbsLat = Math.max(maxAbsLat, Math.abs(lat[t]!))
    const cos = Math.cos(((maxAbsLat + PASS_DEG) * Math.PI) / 180)
    const dLon = cos > 0.01 ? PASS_DEG / cos : 360
    const wide = dLon >= 180
    for (let t = 0; t < lat.length; t++) {
      const pLat = lat[t]!
      const pLon = lon[t]!
      // Worked out at the point's first candidate: most points have none.
      let cosLat = NaN
      const lat0 = Math.floor((pLat - PASS_DEG) / CELL)
      const lat1 = Math.floor((pLat + PASS_DEG) / CELL)
      const [lon0, lon1] = columnsNear(pLon, dLon, wide)
      for (let a = lat0; a <= lat1; a++) {
        const row = a - rowMin
        if (row < 0 || row >= rows) continue
        for (let b = lon0; b <= lon1; b++) {
          const lonCell = wrapColumn(b)
          const column = lonCell - columnMin
          if (column < 0 || column >= columns) continue
          const bit = row * rowBits + column
          if ((occupied[bit >>> 5]! & (1 << (bit & 31))) === 0) continue
          const key = keyOf(a, lonCell)
          let h = Math.imul(key, 0x9e3779b1) >>> shift
          let k = keys[h]!
          while (k !== key && k !== -1) {
            h = (h + 1) & mask
            k = keys[h]!
          }
          if (k === -1) continue
          for (let i = start[h]!, stop = end[h]!; i < stop; i++) {
            const mLat = f.lat[i]!
            const mLon = f.lon[i]!
            if (Math.abs(mLat - pLat) > PASS_DEG) continue
            if (!wide) {
              const dl = Math.abs(mLon - pLon)
              if ((dl > 180 ? 360 - dl : dl) > dLon) continue
            }
            // haversineKm's own factor (lat * RAD), so that every distance is the same double as before.
            if (cosLat !== cosLat) cosLat = Math.cos(pLat * (Math.PI / 180))
            const d = haversineKmFrom(pLat, pLon, cosLat, mLat, mLon)
            if (!(d <= PASS_KM)) continue
            const at = foundAt[i]!
            if (at === 0) {
              found.push(i)
              foundAt[i] = found.length
              bestD.push(d)
              ids.push(f.ids[i]!)
              pointOf.push(t)
              latOf.push(mLat)
              lonOf.push(mLon)
            } else if (d < bestD[at - 1]!) {
              // Points come in order: an equal distance later keeps the earlier point.
              bestD[at - 1] = d
              pointOf[first + at - 1] = t
            }
          }
        }
      }
    }
    for (const i of found) foundAt[i] = 0
  }
}
