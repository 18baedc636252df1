import { boundingBox } from "../../geo/boundingBox.js"
import { EARTH_RADIUS_KM, RAD } from "../../geo/haversine.js"
import type { MatchPlace } from "../MatchRequest.js"
import { sharedI32, sharedU8, type TripColumns } from "./TripColumns.js"

const CELL_DEG = 0.2
const LON_CELLS = Math.ceil(360 / CELL_DEG) + 1
/** Every cell key `cellOf` can answer, poles and antimeridian included. */
export const CELLS = (Math.ceil(180 / CELL_DEG) + 1) * LON_CELLS
const cellKey = (latIdx: number, lonIdx: number): number => latIdx * LON_CELLS + lonIdx
const latCell = (lat: number): number => Math.floor((lat + 90) / CELL_DEG)
const lonCell = (lon: number): number => Math.floor((lon + 180) / CELL_DEG)
/**
 * The levels of a scan's coarse rank of a hit: its squared chord over the scan's bound (in [0, 1])
 * in `RANKS` levels, which a search compares before any exact distance (`NearHits`). The scans
 * hand over the level, a small integer, rather than the fraction: a double passed to a callback
 * that is not inlined is boxed, one heap number per hit.
 */
export const RANKS = 64
/** The rank of a hit whose squared chord is `d2`, `perLimit` being 1 over the scan's bound. */
export const rankOf = (d2: number, perLimit: number): number => Math.min(RANKS - 1, Math.floor(d2 * perLimit * RANKS))
export const sharedF32 = (n: number): Float32Array => new Float32Array(new SharedArrayBuffer(4 * n))
/** Writes the unit vector of a point (degrees) at `3 * e` of `xyz`: the one formula of the grids' chord test. */
export const writeUnit = (xyz: Float32Array, e: number, lat: number, lon: number): void => {
  const cosLat = Math.cos(lat * RAD)
  xyz[3 * e] = cosLat * Math.cos(lon * RAD)
  xyz[3 * e + 1] = cosLat * Math.sin(lon * RAD)
  xyz[3 * e + 2] = Math.sin(lat * RAD)
}

/**
 * The counting sort of the grids' builds, in one array of `n + 2` for cells `base` to
 * `base + n - 1`, where each entry of cell `base + i` was counted at `i + 2`: sums the counts so
 * that `start[i + 1]` is where that cell's run begins. Placing each entry, in order, at
 * `start[i + 1]++` then leaves there the end of its run, which is where the next cell's begins:
 * the cell's entries are `start[i]` to `start[i + 1]`, in the order placed. No copy of the cells'
 * starts to place from.
 */
export const cellRuns = (start: Int32Array): void => {
  for (let c = 1; c < start.length - 1; c++) start[c + 1]! += start[c]!
}

/**
 * The cells `base` to `base + n - 1` of a build's run array (`cellRuns`) of `n + 2`: those from
 * the first cell that holds an entry to the last. A grid over every cell would be 1.6M cells,
 * 6.5 MB allocated, zeroed and summed at each build, most of it empty: a national network's
 * waypoints lie in a fifth of the rows, and every property test builds hundreds of small indexes.
 */
export interface CellWindow {
  readonly base: number
  readonly n: number
}
/** The window of the cells in `keys` (negative keys skipped). */
export const cellWindow = (keys: Int32Array): CellWindow => {
  let lo = CELLS
  let hi = -1
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key < 0) continue
    if (key < lo) lo = key
    if (key > hi) hi = key
  }
  return hi < 0 ? { base: 0, n: 0 } : { base: lo, n: hi - lo + 1 }
}

/** The grid cell of a point, as one integer. */
export const cellOf = (lat: number, lon: number): number => cellKey(latCell(lat), lonCell(lon))

// Unit vectors are kept as float32 (half the memory, half the bytes a scan reads): each coordinate
// within 2^-24 of its double, so a chord within 1.1e-7 Earth radii (0.7 m) of the exact one. The
// chord test widens the radius by MARGIN to keep every waypoint within it, and calls a waypoint
// surely within the radius only MARGIN inside it (the haversine's own rounding is under 1e-14).
const MARGIN = 2e-7
const END_FIRST = 1
const END_LAST = 2

/**
 * A place and its bounding box as plain numbers, in one shape whatever the request's own shape:
 * the per-candidate loop then reads monomorphic fields. An absent second longitude range is
 * empty (west > east).
 */
export interface FlatBox {
  readonly lat: number
  readonly lon: number
  /** `Math.cos` of the latitude, for `haversineKmFrom`. */
  readonly cosLat: number
  /** The place's unit vector, for the grids' chord tests. */
  readonly x: number
  readonly y: number
  readonly z: number
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
  const cosLat = Math.cos(place.lat * RAD)
  return {
    lat: place.lat,
    lon: place.lon,
    cosLat,
    x: cosLat * Math.cos(place.lon * RAD),
    y: cosLat * Math.sin(place.lon * RAD),
    z: Math.sin(place.lat * RAD),
    radiusKm: place.radiusKm,
    minLat: box.minLat,
    maxLat: box.maxLat,
    west0: first![0],
    east0: first![1],
    west1: second !== undefined ? second[0] : 1,
    east1: second !== undefined ? second[1] : 0
  }
}

/**
 * The chord test's bound for `box`: the squared chord of its radius widened by `MARGIN` (every
 * waypoint within the radius passes), and the squared chord under which a waypoint is surely
 * within it (-1 for none).
 */
export const chordBounds = (box: FlatBox): { readonly limit: number; readonly sureLimit: number } => {
  const chord = 2 * Math.sin(Math.min(Math.PI, box.radiusKm / EARTH_RADIUS_KM) / 2)
  return { limit: (chord + MARGIN) * (chord + MARGIN), sureLimit: chord > MARGIN ? (chord - MARGIN) * (chord - MARGIN) : -1 }
}

/** What `GeoGrid.cellsOf` answers: a place's box and the keys of its grid cells that hold waypoints. */
export interface Cells {
  readonly box: FlatBox
  readonly keys: ReadonlyArray<number>
  /** Waypoints in those cells, built ones only (which side of a pair is lighter). */
  readonly entries: number
}

/** Calls `visit` with the key of every grid cell the box covers (both longitude ranges). */
export const forEachCell = (box: FlatBox, visit: (key: number) => void): void => {
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

/** The arrays of a `GeoGrid`, as posted to the threads that only read them. */
export interface GridImage {
  readonly start: Int32Array
  /** The cell `start[0]` stands for (`CellWindow`). */
  readonly base: number
  readonly slot: Int32Array
  readonly ends: Uint8Array
  readonly pos: Uint8Array
  readonly xyz: Float32Array
  readonly head: Int32Array
  /** The cell `head[0]` stands for. */
  readonly headBase: number
  readonly next: Int32Array
  readonly added: Int32Array
  readonly addedEnds: Uint8Array
  readonly addedPos: Uint8Array
  readonly addedXyz: Float32Array
  readonly addedCount: Int32Array
}

/**
 * A lat/lon grid over the waypoints (docs/API.md, Searching: which waypoints lie within a place's
 * radius), in CSR form over the cells from the first that holds a waypoint to the last (cell
 * `base + i`: `start[i]` to `start[i + 1]`, `CellWindow`): waypoints sorted by
 * cell, each entry with its trip slot, its place in the trip (`pos`, 0 first), whether it ends its trip (END_*), and its unit vector
 * (x, y, z), so that scanning a cell is a linear read that touches no per-waypoint or per-trip
 * array until a waypoint passes the chord test. Dead trips are left to the candidate loop to skip.
 *
 * Waypoints added since the last build go to an arena of fixed capacity, one list per cell
 * (`head[key - headBase]` is 1 + its newest entry, `next[e]` 1 + the one before, 0 ends a list;
 * a trip out of `head`'s cells, where it covers the built window only, does not go there), which
 * readers in other threads walk while the writer adds: an entry is written whole before the
 * `Atomics.store` that links it, and `addedCount` is stored once a trip's entries are all linked, so a reader that loads it at the
 * start of a search sees every entry below it complete, every waypoint of a trip or none, and skips the newer ones. The arena full
 * (`takes`), the writer builds a new grid (a new image).
 */
export class GeoGrid implements GridImage {
  start = sharedI32(2)
  base = 0
  slot = sharedI32(0)
  ends = sharedU8(0)
  pos = sharedU8(0)
  xyz = sharedF32(0)
  head = sharedI32(0)
  headBase = 0
  next = sharedI32(0)
  added = sharedI32(0)
  addedEnds = sharedU8(0)
  addedPos = sharedU8(0)
  addedXyz = sharedF32(0)
  addedCount = sharedI32(1)

  /** A reader over the arrays of a writer's image. */
  static attach(image: GridImage): GeoGrid {
    // A bare object with the image's fields: few enough that it keeps fast properties (unlike
    // `TripColumns`), without allocating the arrays a constructed grid starts with.
    return Object.assign(Object.create(GeoGrid.prototype) as GeoGrid, image)
  }

  image(): GridImage {
    const { start, base, slot, ends, pos, xyz, head, headBase, next, added, addedEnds, addedPos, addedXyz, addedCount } = this
    return { start, base, slot, ends, pos, xyz, head, headBase, next, added, addedEnds, addedPos, addedXyz, addedCount }
  }

  /** Waypoints in the arena. */
  get waiting(): number {
    return Atomics.load(this.addedCount, 0)
  }

  /** Room left in the arena. */
  get room(): number {
    return this.next.length - this.waiting
  }

  /** Whether the trip in `slot` can go to the arena: room for its waypoints, each in a cell of `head`. */
  takes(t: TripColumns, slot: number): boolean {
    const n = t.wpCount[slot]!
    if (this.room < n) return false
    const w0 = t.wpStart[slot]!
    for (let k = 0; k < n; k++) {
      const h = cellOf(t.wPlace[2 * (w0 + k)]!, t.wPlace[2 * (w0 + k) + 1]!) - this.headBase
      if (h < 0 || h >= this.head.length) return false
    }
    return true
  }

  /** Adds the waypoints of the trip in `slot` to the arena, visible to searches at once: `takes` must have said yes. */
  addTrip(t: TripColumns, slot: number): void {
    const n = t.wpCount[slot]!
    const w0 = t.wpStart[slot]!
    let e = this.waiting
    for (let k = 0; k < n; k++, e++) {
      const lat = t.wPlace[2 * (w0 + k)]!
      const lon = t.wPlace[2 * (w0 + k) + 1]!
      const h = cellOf(lat, lon) - this.headBase
      this.added[e] = slot
      this.addedEnds[e] = (k === 0 ? END_FIRST : 0) | (k === n - 1 ? END_LAST : 0)
      this.addedPos[e] = k
      writeUnit(this.addedXyz, e, lat, lon)
      this.next[e] = Atomics.load(this.head, h)
      Atomics.store(this.head, h, e + 1)
    }
    Atomics.store(this.addedCount, 0, e)
  }

  /**
   * The CSR arrays over every live waypoint of `t` (counting sort by cell), and an empty arena of
   * `room` entries whose lists cover every cell (`everyCell`) or the built window only, all in
   * fresh arrays: readers of the previous ones are unaffected.
   */
  build(t: TripColumns, room: number, everyCell: boolean): void {
    const keys = new Int32Array(t.waypoints)
    let live = 0
    for (let w = 0; w < t.waypoints; w++) {
      if (!t.isAlive(t.wSlot[w]!)) {
        keys[w] = -1
        continue
      }
      keys[w] = cellOf(t.wPlace[2 * w]!, t.wPlace[2 * w + 1]!)
      live++
    }
    // A counting sort in one array over the cells that hold waypoints (see `cellRuns`).
    const { base, n } = cellWindow(keys)
    const start = sharedI32(n + 2)
    for (let w = 0; w < t.waypoints; w++) if (keys[w]! >= 0) start[keys[w]! - base + 2]!++
    cellRuns(start)
    const slots = sharedI32(live)
    const ends = sharedU8(live)
    const pos = sharedU8(live)
    const xyz = sharedF32(3 * live)
    for (let w = 0; w < t.waypoints; w++) {
      const c = keys[w]!
      if (c < 0) continue
      const at = start[c - base + 1]!++
      const slot = t.wSlot[w]!
      const k = w - t.wpStart[slot]!
      slots[at] = slot
      ends[at] = (k === 0 ? END_FIRST : 0) | (k === t.wpCount[slot]! - 1 ? END_LAST : 0)
      pos[at] = k
      writeUnit(xyz, at, t.wPlace[2 * w]!, t.wPlace[2 * w + 1]!)
    }
    this.start = start
    this.base = base
    this.slot = slots
    this.ends = ends
    this.pos = pos
    this.xyz = xyz
    this.head = sharedI32(everyCell ? CELLS : n)
    this.headBase = everyCell ? 0 : base
    this.next = sharedI32(room)
    this.added = sharedI32(room)
    this.addedEnds = sharedU8(room)
    this.addedPos = sharedU8(room)
    this.addedXyz = sharedF32(3 * room)
    this.addedCount = sharedI32(1)
  }

  /**
   * The grid cells `box` covers that hold waypoints, looked up once per search and side, and how
   * many built entries they hold in all (a pair is scanned from its lighter side).
   */
  cellsOf(box: FlatBox): Cells {
    const keys: Array<number> = []
    let entries = 0
    const { start, base, head, headBase } = this
    const n = start.length - 2
    forEachCell(box, (key) => {
      const i = key - base
      const built = i >= 0 && i < n ? start[i + 1]! - start[i]! : 0
      const h = key - headBase
      if (built > 0 || (h >= 0 && h < head.length && Atomics.load(head, h) !== 0)) {
        keys.push(key)
        entries += built
      }
    })
    return { box, keys, entries }
  }

  /**
   * Calls `take` with the trip slot and the place in its trip (0 first) of every waypoint (of a
   * live trip or not) in `cells` that may lie within the radius of their box's place, skipping first
   * (`skip = "first"`) or last (`"last"`) waypoints of their trip, as the matching rule of each side
   * requires (docs/API.md, Searching). The chord test errs on the inclusive side; `sure` is 1 for a
   * waypoint the chord puts so far inside the circle that its haversine distance is within the
   * radius too (by `MARGIN`, well over the rounding of either), else 0:
   * exact distances then come later, for candidate trips only, and only where they decide.
   * `seen` is the arena count loaded at the start of the search: newer entries are skipped. With
   * `within`, a bitset over slots, only waypoints of the trips whose bit is set are reported: the
   * second place of a pair tests that bit, which stays in the cache, before any distance.
   * `rank` is the waypoint's coarse rank (`rankOf`).
   */
  scanNear(cells: Cells, skip: "first" | "last", seen: number, take: (slot: number, k: number, sure: number, rank: number) => void, within?: Int32Array): void {
    const { box } = cells
    const { x: px, y: py, z: pz } = box
    const { limit, sureLimit } = chordBounds(box)
    const perLimit = 1 / limit
    const skipEnd = skip === "first" ? END_FIRST : END_LAST
    const { start, base, slot, ends, pos, xyz, head, headBase, next, added, addedEnds, addedPos, addedXyz } = this
    const n = start.length - 2
    const { keys } = cells
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      // A key out of the built window has arena entries only, and one out of `head`'s built ones only (`cellsOf`).
      const c = key - base
      if (c >= 0 && c < n) {
        for (let e = start[c]!, end = start[c + 1]!; e < end; e++) {
          const s = slot[e]!
          if (within !== undefined && (within[s >>> 5]! & (1 << (s & 31))) === 0) continue
          const dx = xyz[3 * e]! - px
          const dy = xyz[3 * e + 1]! - py
          const dz = xyz[3 * e + 2]! - pz
          const d2 = dx * dx + dy * dy + dz * dz
          if (d2 <= limit && (ends[e]! & skipEnd) === 0) take(s, pos[e]!, d2 < sureLimit ? 1 : 0, rankOf(d2, perLimit))
        }
      }
      const h = key - headBase
      for (let link = h >= 0 && h < head.length ? Atomics.load(head, h) : 0; link !== 0; link = next[link - 1]!) {
        const e = link - 1
        if (e >= seen) continue
        const s = added[e]!
        if (within !== undefined && (within[s >>> 5]! & (1 << (s & 31))) === 0) continue
        const dx = addedXyz[3 * e]! - px
        const dy = addedXyz[3 * e + 1]! - py
        const dz = addedXyz[3 * e + 2]! - pz
        const d2 = dx * dx + dy * dy + dz * dz
        if (d2 <= limit && (addedEnds[e]! & skipEnd) === 0) take(s, addedPos[e]!, d2 < sureLimit ? 1 : 0, rankOf(d2, perLimit))
      }
    }
  }

  /** The newest trip slot whose waypoints a search that loaded `seen` (`waiting`) sees in the arena, -1 for none. */
  lastSeenSlot(seen: number): number {
    return seen > 0 ? this.added[seen - 1]! : -1
  }
}
