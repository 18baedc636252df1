import { EARTH_RADIUS_KM } from "../geo/haversine.js"

/** A road passes a meeting point within this distance of one of its points, km (docs/API.md). */
export const PASS_KM = 1

const CELL = 0.02
// Degrees of latitude in PASS_KM along a meridian, widened a little so that float rounding in the
// cell arithmetic never drops a meeting point the exact distance test would keep.
export const PASS_DEG = ((PASS_KM / EARTH_RADIUS_KM) * 180) / Math.PI * 1.01

const keyOf = (latCell: number, lonCell: number): number => (latCell + 10_000) * 100_000 + (lonCell + 20_000)

/**
 * The active meeting points by place, to find those a road may pass: a grid of 0.02° cells, asked
 * for every point of a road. It answers a superset; the caller applies the exact distance.
 */
export class MeetingPointGrid {
  private readonly cells = new Map<number, Array<number>>()
  private readonly lat = new Map<number, number>()
  private readonly lon = new Map<number, number>()

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
    this.lat.set(id, lat)
    this.lon.set(id, lon)
    const key = keyOf(Math.floor(lat / CELL), Math.floor(lon / CELL))
    const cell = this.cells.get(key)
    if (cell === undefined) this.cells.set(key, [id])
    else cell.push(id)
  }

  remove(id: number): void {
    const lat = this.lat.get(id)
    if (lat === undefined) return
    const key = keyOf(Math.floor(lat / CELL), Math.floor(this.lon.get(id)! / CELL))
    const cell = this.cells.get(key)!
    cell.splice(cell.indexOf(id), 1)
    if (cell.length === 0) this.cells.delete(key)
    this.lat.delete(id)
    this.lon.delete(id)
  }

  /** Calls `visit` with every meeting point that may lie within `PASS_KM` of the point (and some farther). */
  near(lat: number, lon: number, visit: (id: number) => void): void {
    if (this.lat.size === 0) return
    const cos = Math.cos(((Math.abs(lat) + PASS_DEG) * Math.PI) / 180)
    const dLon = cos > 0.01 ? PASS_DEG / cos : 360
    const lat0 = Math.floor((lat - PASS_DEG) / CELL)
    const lat1 = Math.floor((lat + PASS_DEG) / CELL)
    const wide = dLon >= 180
    const lon0 = wide ? Math.floor(-180 / CELL) : Math.floor((lon - dLon) / CELL)
    const lon1 = wide ? Math.floor(180 / CELL) : Math.floor((lon + dLon) / CELL)
    for (let a = lat0; a <= lat1; a++) {
      for (let b = lon0; b <= lon1; b++) {
        // Across the antimeridian, the cells on the other side.
        const bb = b < Math.floor(-180 / CELL) ? b + Math.round(360 / CELL) : b > Math.floor(180 / CELL) ? b - Math.round(360 / CELL) : b
        const cell = this.cells.get(keyOf(a, bb))
        if (cell !== undefined) for (const id of cell) visit(id)
      }
    }
  }
}
