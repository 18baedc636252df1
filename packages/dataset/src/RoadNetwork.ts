import polyline from "@mapbox/polyline"
import type { FeedWorld } from "./FeedWorld.js"
import { haversineKm } from "./haversineKm.js"
import { PairCache } from "./PairCache.js"
import { Random } from "./Random.js"
import type { TripNetwork } from "./TripNetwork.js"

/** Towns a motorway is routed through: smaller ones are passed by, not aimed at. */
export const VIA_MIN_POPULATION = 20_000
/** Under this, two towns are joined by one (wiggled) stretch of road. */
const MIN_CHAIN_KM = 25
/**
 * Worth of routing through an agglomeration, in km of extra road, per unit of ln(population /
 * 20,000) (its towns in the corridor together): a city of 170,000 is worth about 21 km of detour
 * (Paris -> Tours by Orléans), a town of 35,000 about 6 km (Dijon -> Lyon by Mâcon). Tuned so that
 * Paris -> Lyon runs by Auxerre and Mâcon, Stuttgart -> München by Ulm and Augsburg, Paris ->
 * Tours by Orléans and Blois, as the motorways do.
 */
const VIA_GAIN_KM = 10
const CELL_DEG = 0.5
const LON_CELLS = 360 / CELL_DEG
const KM_PER_DEG_LAT = 110.57
const KM_PER_DEG_LON_EQUATOR = 111.32
/**
 * Roads kept in memory, in two generations (`PairCache`): the busy pairs stay, the long tail of
 * regional pairs is built again if it ever comes back (from cached stretches, at little cost).
 * A road holds its stretches and, once written whole, its string of a few kilobytes.
 */
const ROAD_GENERATION = 12_000
/** Chains of via towns per pair of agglomeration cores (tens of bytes each). */
const CHAIN_GENERATION = 150_000
/** Stretches between two anchors (a few hundred bytes each), in two generations of this many. */
const STRETCH_GENERATION = 60_000

/** A road between two towns: points from the first town's centre to the second's, 1-3 km apart. */
export interface Road {
  /** All the points, laid out in arrays on first use (the meeting points' busy roads). */
  readonly lat: Float64Array
  readonly lon: Float64Array
  /** The index of each anchor (the ends' centres, the vias' junctions) among the points. */
  readonly joints: Int32Array
  /** The number of points. */
  readonly size: number
  /** Point `i`'s coordinates, without laying the road's points out in arrays. */
  latAt(i: number): number
  lonAt(i: number): number
  /** Appends points `from..to` (both included) to the arrays. */
  appendPoints(from: number, to: number, lat: Array<number>, lon: Array<number>): void
  /** The whole road as an encoded polyline (precision 1e-5), computed once. */
  encoded(): string
}

/** The busy road between two agglomeration cores, as the meeting points generator walks it. */
export interface BusyRoad {
  readonly from: number
  readonly to: number
  /** The towns the road is routed through (FeedWorld indices), in road order. */
  readonly vias: Int32Array
  /** The share of the country's network trips that run between the two, both ways. */
  readonly share: number
}

let shared: RoadNetwork | undefined

/**
 * The generator's roads, motorway-like and deterministic, a pure function of the two towns (no
 * random draw of the feed): so that trips between the same towns share a road, that a shorter
 * feed is still a prefix of a longer one, and that the meeting points (`generateMeetingPoints`)
 * are placed on the roads the trips drive.
 *
 * A road between two agglomerations is routed through a chain of towns of at least 20,000
 * inhabitants near the straight line (a best path trading each town's size against the extra km
 * it costs), at each town's motorway junction (a fixed point 0.6..3 km from its centre, so that
 * every road through a town passes the same exits). Trips from the suburbs share their cores'
 * chain. Between junctions the road bows and wiggles a little, with a point every 1.6..2.6 km.
 *
 * Its caches (roads, chains, stretches) grow to a few hundred MB over a million trips: the
 * generators make a network of their own, which goes with them, rather than keep `shared()`'s.
 */
export class RoadNetwork {
  static shared(world: FeedWorld, network: TripNetwork): RoadNetwork {
    shared ??= new RoadNetwork(world, network)
    return shared
  }

  private readonly viaGrid = new Map<number, Array<number>>()
  private readonly junctionLat: Float64Array
  private readonly junctionLon: Float64Array
  private readonly roads = new PairCache<Road>(ROAD_GENERATION)
  private readonly chains = new PairCache<Int32Array>(CHAIN_GENERATION)
  private readonly stretches = new PairCache<Stretch>(STRETCH_GENERATION)

  constructor(
    readonly world: FeedWorld,
    readonly network: TripNetwork
  ) {
    this.junctionLat = new Float64Array(world.size).fill(Number.NaN)
    this.junctionLon = new Float64Array(world.size).fill(Number.NaN)
    for (let i = 0; i < world.size; i++) {
      if (world.population[i]! < VIA_MIN_POPULATION) continue
      const key = Math.floor((world.lat[i]! + 90) / CELL_DEG) * LON_CELLS + (Math.floor((world.lon[i]! + 180) / CELL_DEG) % LON_CELLS)
      let cell = this.viaGrid.get(key)
      if (cell === undefined) this.viaGrid.set(key, (cell = []))
      cell.push(i)
    }
  }

  /**
   * Town `i`'s motorway junction, where every road through it passes: 0.6..3 km from its centre
   * (farther for larger towns), on a bearing of its own.
   */
  junction(i: number): readonly [number, number] {
    if (Number.isNaN(this.junctionLat[i]!)) {
      const rng = new Random(`junction|${i}`)
      const big = this.world.population[i]! >= 100_000
      const [lat, lon] = offsetPoint(this.world.lat[i]!, this.world.lon[i]!, rng.next() * 2 * Math.PI, rng.between(0.6, big ? 3 : 2))
      this.junctionLat[i] = lat
      this.junctionLon[i] = lon
    }
    return [this.junctionLat[i]!, this.junctionLon[i]!]
  }

  /** The towns the road between two towns is routed through, in road order (ends excluded). */
  vias(origin: number, destination: number): Int32Array {
    const world = this.world
    const co = this.network.coreOf(origin)
    const cd = this.network.coreOf(destination)
    if (co === cd || world.distanceKm(origin, destination) < MIN_CHAIN_KM) return EMPTY
    const chain = this.chain(co, cd)
    // A suburb joins its core's chain where it heads the right way: vias behind either end, in
    // its agglomeration or too close to it are left out.
    const frame = new Frame(world.lat[origin]!, world.lon[origin]!, world.lat[destination]!, world.lon[destination]!)
    const kept: Array<number> = []
    for (const v of chain) {
      if (v === origin || v === destination) continue
      const t = frame.along(world.lat[v]!, world.lon[v]!)
      if (t <= 0.02 || t >= 0.98) continue
      if (world.distanceKm(v, origin) < 5 || world.distanceKm(v, destination) < 5) continue
      kept.push(v)
    }
    return kept.length === chain.length ? chain : Int32Array.from(kept)
  }

  /** The road from `origin` to `destination` (FeedWorld indices), the same on every call. */
  road(origin: number, destination: number): Road {
    let road = this.roads.get(origin, destination)
    if (road === undefined) this.roads.set(origin, destination, (road = this.build(origin, destination)))
    return road
  }

  /**
   * The busiest roads of each network country: the pairs of agglomerations (both ways together)
   * that carry at least `minShare` of the country's network trips, at most `perCountry` of them.
   */
  busyRoads(countries: ReadonlyArray<string>, perCountry: number, minShare: number): ReadonlyArray<BusyRoad> {
    const out: Array<BusyRoad> = []
    for (const country of countries) {
      const hubs = this.network.hubsOf(country)
      const pairs: Array<{ a: number; b: number; share: number }> = []
      for (let a = 0; a < hubs.length; a++) {
        for (let b = a + 1; b < hubs.length; b++) {
          const share = this.network.share(country, a, b) + this.network.share(country, b, a)
          if (share >= minShare) pairs.push({ a, b, share })
        }
      }
      pairs.sort((x, y) => y.share - x.share || x.a - y.a || x.b - y.b)
      for (const { a, b, share } of pairs.slice(0, perCountry)) {
        const from = hubs[a]!.core
        const to = hubs[b]!.core
        out.push({ from, to, vias: this.vias(from, to), share })
      }
    }
    return out
  }

  /**
   * The road as stretches between its anchors: the origin's centre, the vias' junctions, the
   * destination's centre. Stretches are cached by their two anchors, so that the trunk between two
   * agglomerations is drawn (and encoded) once for all the pairs of their towns.
   */
  private build(origin: number, destination: number): Road {
    const vias = this.vias(origin, destination)
    const parts: Array<Stretch> = []
    let previous = origin * 2
    for (let k = 0; k <= vias.length; k++) {
      const next = k < vias.length ? vias[k]! * 2 + 1 : destination * 2
      parts.push(this.stretch(previous, next))
      previous = next
    }
    return new CachedRoad(this.world.lat[origin]!, this.world.lon[origin]!, parts)
  }

  /** An anchor's point: `2i` is town i's centre, `2i + 1` its junction. */
  private anchor(anchor: number): readonly [number, number] {
    const town = anchor >> 1
    return anchor & 1 ? this.junction(town) : [this.world.lat[town]!, this.world.lon[town]!]
  }

  private stretch(from: number, to: number): Stretch {
    let stretch = this.stretches.get(from, to)
    if (stretch === undefined) {
      const [pLat, pLon] = this.anchor(from)
      const [qLat, qLon] = this.anchor(to)
      this.stretches.set(from, to, (stretch = drawStretch(pLat, pLon, qLat, qLon)))
    }
    return stretch
  }

  /** The chain of via towns between two agglomeration cores, in order from `a` to `b`. */
  private chain(a: number, b: number): Int32Array {
    const lo = Math.min(a, b)
    const hi = Math.max(a, b)
    let chain = this.chains.get(lo, hi)
    if (chain === undefined) this.chains.set(lo, hi, (chain = this.route(lo, hi)))
    return a === lo ? chain : chain.slice().reverse()
  }

  /**
   * The best chain from `a` to `b`: the via towns in a corridor along the straight line (up to
   * 70 km wide on long routes, narrower near the ends), chosen by dynamic programming to maximise
   * the towns' worth minus the road's length, visiting them in order along the line.
   */
  private route(a: number, b: number): Int32Array {
    const world = this.world
    const directKm = world.distanceKm(a, b)
    if (directKm < MIN_CHAIN_KM) return EMPTY
    const frame = new Frame(world.lat[a]!, world.lon[a]!, world.lat[b]!, world.lon[b]!)
    const width = Math.max(10, Math.min(70, directKm * 0.2))
    const coreA = this.network.coreOf(a)
    const coreB = this.network.coreOf(b)
    const candidates: Array<{ town: number; t: number; x: number; y: number }> = []
    const latMin = Math.min(world.lat[a]!, world.lat[b]!) - width / KM_PER_DEG_LAT
    const latMax = Math.max(world.lat[a]!, world.lat[b]!) + width / KM_PER_DEG_LAT
    const lonPad = width / (KM_PER_DEG_LON_EQUATOR * Math.max(0.05, Math.cos((Math.max(Math.abs(latMin), Math.abs(latMax)) * Math.PI) / 180)))
    const lonMin = Math.min(world.lon[a]!, world.lon[b]!) - lonPad
    const lonMax = Math.max(world.lon[a]!, world.lon[b]!) + lonPad
    for (let r = Math.floor((latMin + 90) / CELL_DEG); r <= Math.floor((latMax + 90) / CELL_DEG); r++) {
      for (let c = Math.floor((lonMin + 180) / CELL_DEG); c <= Math.floor((lonMax + 180) / CELL_DEG); c++) {
        const cell = this.viaGrid.get(r * LON_CELLS + ((c + LON_CELLS) % LON_CELLS))
        if (cell === undefined) continue
        for (const town of cell) {
          if (town === a || town === b) continue
          const core = this.network.coreOf(town)
          if (core === coreA || core === coreB) continue
          const t = frame.along(world.lat[town]!, world.lon[town]!)
          if (t <= 0.03 || t >= 0.97) continue
          // Narrower near the ends: a road leaves a city towards its destination.
          const allowed = width * Math.min(1, 4 * t, 4 * (1 - t))
          if (Math.abs(frame.across(world.lat[town]!, world.lon[town]!)) > allowed) continue
          const [jLat, jLon] = this.junction(town)
          candidates.push({ town, t, x: frame.x(jLat, jLon), y: frame.y(jLat) })
        }
      }
    }
    if (candidates.length === 0) return EMPTY
    // One junction per agglomeration, its largest town's: a motorway skirts a city once, it does
    // not call at each of its suburbs.
    // Its worth is that of its towns of the corridor together (Ulm with Neu-Ulm).
    const largest = new Map<number, (typeof candidates)[number]>()
    const weight = new Map<number, number>()
    for (const c of candidates) {
      const core = this.network.coreOf(c.town)
      weight.set(core, (weight.get(core) ?? 0) + world.population[c.town]!)
      const held = largest.get(core)
      if (held === undefined || world.population[c.town]! > world.population[held.town]! || (world.population[c.town] === world.population[held.town] && c.town < held.town)) {
        largest.set(core, c)
      }
    }
    candidates.length = 0
    candidates.push(...largest.values())
    candidates.sort((p, q) => p.t - q.t || p.town - q.town)
    const n = candidates.length
    const score = new Float64Array(n)
    const previous = new Int32Array(n)
    const startX = frame.x(world.lat[a]!, world.lon[a]!)
    const startY = frame.y(world.lat[a]!)
    for (let j = 0; j < n; j++) {
      const cj = candidates[j]!
      let best = -distance(cj.x - startX, cj.y - startY)
      let from = -1
      for (let i = 0; i < j; i++) {
        const ci = candidates[i]!
        if (ci.t >= cj.t) continue
        const s = score[i]! - distance(cj.x - ci.x, cj.y - ci.y)
        if (s > best) {
          best = s
          from = i
        }
      }
      score[j] = best + VIA_GAIN_KM * Math.log(weight.get(this.network.coreOf(cj.town))! / VIA_MIN_POPULATION)
      previous[j] = from
    }
    const endX = frame.x(world.lat[b]!, world.lon[b]!)
    const endY = frame.y(world.lat[b]!)
    let best = -distance(endX - startX, endY - startY)
    let last = -1
    for (let i = 0; i < n; i++) {
      const s = score[i]! - distance(endX - candidates[i]!.x, endY - candidates[i]!.y)
      if (s > best) {
        best = s
        last = i
      }
    }
    const chain: Array<number> = []
    for (let i = last; i >= 0; i = previous[i]!) chain.push(candidates[i]!.town)
    return Int32Array.from(chain.reverse())
  }
}

const EMPTY = new Int32Array(0)

// Math.hypot guards against overflow that km-sized values never reach, at several times the cost.
const distance = (dx: number, dy: number): number => Math.sqrt(dx * dx + dy * dy)

/** A stretch of road from one anchor to the next: its points after the first, the last included. */
class Stretch {
  private text: string | undefined
  constructor(
    private readonly startLat: number,
    private readonly startLon: number,
    readonly lat: Float64Array,
    readonly lon: Float64Array
  ) {}
  /**
   * Those points as the tail of an encoded polyline whose previous point is the stretch's first
   * anchor: the format writes each point as its difference from the previous one (of coordinates
   * rounded to 1e-5), so a road's string is its first point's followed by its stretches' tails.
   * Encoded once, when a road over the stretch is first written whole.
   */
  tail(): string {
    if (this.text === undefined) {
      const points: Array<[number, number]> = [[this.startLat, this.startLon]]
      for (let k = 0; k < this.lat.length; k++) points.push([this.lat[k]!, this.lon[k]!])
      this.text = polyline.encode(points, 5).slice(polyline.encode([[this.startLat, this.startLon]], 5).length)
    }
    return this.text
  }
}

/**
 * A road made of cached stretches. Its points are laid out only when asked for (a trip with
 * stop-overs), its string only when asked for (a trip without): most trips need one of the two.
 */
class CachedRoad implements Road {
  private text: string | undefined
  private points: { lat: Float64Array; lon: Float64Array; joints: Int32Array } | undefined
  /** Index of the last point of each part (the first part starts after point 0). */
  private readonly ends: Array<number> = []
  readonly size: number
  constructor(
    private readonly startLat: number,
    private readonly startLon: number,
    private readonly parts: ReadonlyArray<Stretch>
  ) {
    let at = 0
    for (const part of parts) this.ends.push((at += part.lat.length))
    this.size = at + 1
  }
  latAt(i: number): number {
    if (i === 0) return this.startLat
    const k = this.partOf(i)
    return this.parts[k]!.lat[i - (k > 0 ? this.ends[k - 1]! : 0) - 1]!
  }
  lonAt(i: number): number {
    if (i === 0) return this.startLon
    const k = this.partOf(i)
    return this.parts[k]!.lon[i - (k > 0 ? this.ends[k - 1]! : 0) - 1]!
  }
  appendPoints(from: number, to: number, lat: Array<number>, lon: Array<number>): void {
    let i = from
    if (i === 0 && i <= to) {
      lat.push(this.startLat)
      lon.push(this.startLon)
      i++
    }
    if (i > to) return
    let k = this.partOf(i)
    while (i <= to) {
      const part = this.parts[k]!
      const base = k > 0 ? this.ends[k - 1]! : 0
      const last = Math.min(to, this.ends[k]!)
      for (; i <= last; i++) {
        lat.push(part.lat[i - base - 1]!)
        lon.push(part.lon[i - base - 1]!)
      }
      k++
    }
  }
  /** The part holding point `i` (i >= 1). */
  private partOf(i: number): number {
    let lo = 0
    let hi = this.ends.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.ends[mid]! >= i) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  get lat(): Float64Array {
    return this.layout().lat
  }
  get lon(): Float64Array {
    return this.layout().lon
  }
  get joints(): Int32Array {
    return this.layout().joints
  }
  encoded(): string {
    this.text ??= polyline.encode([[this.startLat, this.startLon]], 5) + this.parts.map((p) => p.tail()).join("")
    return this.text
  }
  private layout(): { lat: Float64Array; lon: Float64Array; joints: Int32Array } {
    if (this.points === undefined) {
      let size = 1
      for (const part of this.parts) size += part.lat.length
      const lat = new Float64Array(size)
      const lon = new Float64Array(size)
      lat[0] = this.startLat
      lon[0] = this.startLon
      const joints = new Int32Array(this.parts.length + 1)
      let at = 1
      for (let k = 0; k < this.parts.length; k++) {
        const part = this.parts[k]!
        lat.set(part.lat, at)
        lon.set(part.lon, at)
        at += part.lat.length
        joints[k + 1] = at - 1
      }
      this.points = { lat, lon, joints }
    }
    return this.points
  }
}

/** Points `from..to-1` of a path as an encoded polyline (precision 1e-5). */
export const encodePath = (lat: ArrayLike<number>, lon: ArrayLike<number>, from: number, to: number): string => {
  const points: Array<[number, number]> = []
  for (let k = from; k < to; k++) points.push([lat[k]!, lon[k]!])
  return polyline.encode(points, 5)
}

/**
 * A local flat frame along the straight line from A to B (equirectangular, in km, around A's
 * latitude): `along` is the fraction of the way from A to B, `across` the signed offset from it.
 */
class Frame {
  private readonly kx: number
  private readonly bx: number
  private readonly by: number
  private readonly length2: number
  constructor(
    private readonly latA: number,
    private readonly lonA: number,
    latB: number,
    lonB: number
  ) {
    this.kx = KM_PER_DEG_LON_EQUATOR * Math.cos((((latA + latB) / 2) * Math.PI) / 180)
    this.bx = this.x(latB, lonB)
    this.by = this.y(latB)
    this.length2 = Math.max(1e-9, this.bx * this.bx + this.by * this.by)
  }
  x(_lat: number, lon: number): number {
    let d = lon - this.lonA
    if (d > 180) d -= 360
    if (d < -180) d += 360
    return d * this.kx
  }
  y(lat: number): number {
    return (lat - this.latA) * KM_PER_DEG_LAT
  }
  along(lat: number, lon: number): number {
    return (this.x(lat, lon) * this.bx + this.y(lat) * this.by) / this.length2
  }
  across(lat: number, lon: number): number {
    return (this.by * this.x(lat, lon) - this.bx * this.y(lat)) / Math.sqrt(this.length2)
  }
}

/** A point `km` from another on a bearing (radians), flat-earth: offsets here are a few km. */
export const offsetPoint = (lat: number, lon: number, bearing: number, km: number): readonly [number, number] => [
  lat + (km * Math.cos(bearing)) / KM_PER_DEG_LAT,
  lon + (km * Math.sin(bearing)) / (KM_PER_DEG_LON_EQUATOR * Math.max(0.05, Math.cos((lat * Math.PI) / 180)))
]

/**
 * The road from P to Q: a point every 1.6..2.6 km, bowed and wiggled sideways by a smooth curve
 * that is 0 at both ends. The curve is drawn from the stretch's two ends in a canonical order, so
 * that every road over the same stretch, either way, has the same points.
 */
const drawStretch = (pLat: number, pLon: number, qLat: number, qLon: number): Stretch => {
  const lat: Array<number> = []
  const lon: Array<number> = []
  const flip = pLat > qLat || (pLat === qLat && pLon > qLon)
  const [aLat, aLon, bLat, bLon] = flip ? [qLat, qLon, pLat, pLon] : [pLat, pLon, qLat, qLon]
  const km = haversineKm(aLat, aLon, bLat, bLon)
  const rng = new StretchRandom(Math.round(aLat * 1e5), Math.round(aLon * 1e5), Math.round(bLat * 1e5), Math.round(bLon * 1e5))
  const n = Math.max(1, Math.round(km / rng.between(1.6, 2.6)))
  const kx = KM_PER_DEG_LON_EQUATOR * Math.max(0.05, Math.cos((((aLat + bLat) / 2) * Math.PI) / 180))
  const dx = (bLon - aLon) * kx
  const dy = (bLat - aLat) * KM_PER_DEG_LAT
  const norm = Math.max(1e-9, distance(dx, dy))
  // Unit normal, in degrees per km of sideways offset.
  const nLat = dx / norm / KM_PER_DEG_LAT
  const nLon = -dy / norm / kx
  const bow = km * rng.between(-0.05, 0.05)
  const waves = 1 + Math.floor(km / 40)
  const amplitude = Math.min(1.5, km * 0.02)
  const phase = rng.next() * 2 * Math.PI
  const jitter = Math.min(0.08, km * 0.005)
  const pointsLat = new Float64Array(n - 1)
  const pointsLon = new Float64Array(n - 1)
  for (let i = 1; i < n; i++) {
    const s = (i + rng.between(-0.25, 0.25)) / n
    const envelope = Math.sin(Math.PI * s)
    const side = bow * envelope + amplitude * envelope * Math.sin(2 * Math.PI * waves * s + phase) + rng.between(-jitter, jitter)
    pointsLat[i - 1] = aLat + s * (bLat - aLat) + side * nLat
    pointsLon[i - 1] = aLon + s * (bLon - aLon) + side * nLon
  }
  if (flip) {
    for (let i = n - 2; i >= 0; i--) {
      lat.push(pointsLat[i]!)
      lon.push(pointsLon[i]!)
    }
  } else {
    for (let i = 0; i < n - 1; i++) {
      lat.push(pointsLat[i]!)
      lon.push(pointsLon[i]!)
    }
  }
  lat.push(qLat)
  lon.push(qLon)
  return new Stretch(pLat, pLon, Float64Array.from(lat), Float64Array.from(lon))
}

/**
 * A small generator seeded by a stretch's ends (mulberry32 over a hash of the four coordinates in
 * 1e-5 degrees): one per stretch, so it must cost next to nothing to create, unlike `Random`.
 */
class StretchRandom {
  private state: number
  constructor(a: number, b: number, c: number, d: number) {
    let h = 0x9e3779b9
    for (const v of [a, b, c, d]) {
      h = Math.imul(h ^ (v | 0), 0x85ebca6b)
      h ^= h >>> 13
      h = Math.imul(h, 0xc2b2ae35)
      h ^= h >>> 16
    }
    this.state = h
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  between(min: number, max: number): number {
    return min + this.next() * (max - min)
  }
}
