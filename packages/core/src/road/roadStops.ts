import type { FeedTrip } from "../model/FeedTrip.js"
import { legRoad, legRoadOf } from "./roadPath.js"
import type { MeetingPointGrid } from "./MeetingPointGrid.js"

/**
 * A stop along the driver's road (docs/API.md, Along the road): a meeting point that a leg's road
 * passes, at its fraction of the leg, with what a segment starting or ending there shows.
 */
export interface RoadStop {
  /** The meeting point's id. */
  readonly mp: number
  readonly leg: number
  /** `s_t / L` of the road point nearest the meeting point (the first of equals). */
  readonly fraction: number
  /** The meeting point's coordinates. */
  readonly lat: number
  readonly lon: number
  /** Minutes after departure: `offset_min[k] + round((offset_min[k+1] - offset_min[k]) * fraction)`. */
  readonly offsetMin: number
  /** UTC offset (minutes) of the meeting point's zone at that instant. */
  readonly zoneOffsetMin: number
}

/** The UTC offset, in minutes, at a place and an instant (the stores' time-zone lookup). */
export type ZoneOffsetAt = (lat: number, lon: number, utcMs: number) => number

/**
 * One leg's passes, before the trip's own rules: meeting point, fraction, and the meeting point's
 * coordinates, in no particular order.
 */
type LegPasses = ReadonlyArray<readonly [mp: number, fraction: number, lat: number, lon: number]>

/**
 * Roads shared by many trips (the same towns, the same route) are worked out once: the passes of a
 * leg by its path and ends. The owner clears it whenever the meeting points change.
 */
export class RoadStopCache {
  /** By path: the key is the text the trip already holds (no key to build), the ends checked. */
  private readonly legs = new Map<string, { readonly ends: readonly [number, number, number, number]; readonly passes: LegPasses }>()
  constructor(private readonly limit = 200_000) {}

  get(path: string, fromLat: number, fromLon: number, toLat: number, toLon: number): LegPasses | undefined {
    const known = this.legs.get(path)
    if (known === undefined) return undefined
    const [a, b, c, d] = known.ends
    return a === fromLat && b === fromLon && c === toLat && d === toLon ? known.passes : undefined
  }

  set(path: string, fromLat: number, fromLon: number, toLat: number, toLon: number, passes: LegPasses): void {
    if (this.legs.size >= this.limit) this.legs.clear()
    this.legs.set(path, { ends: [fromLat, fromLon, toLat, toLon], passes })
  }

  clear(): void {
    this.legs.clear()
  }
}

/**
 * The meeting points leg `from -> to`'s road passes, with their fractions (no trip rule applied);
 * `points` are the path's, when the caller has decoded it already.
 */
export const legPasses = (
  path: string,
  fromLat: number,
  fromLon: number,
  toLat: number,
  toLon: number,
  grid: MeetingPointGrid,
  points?: ReadonlyArray<readonly [number, number]>
): LegPasses => {
  const road = points === undefined ? legRoad(path, fromLat, fromLon, toLat, toLon) : legRoadOf(points, fromLat, fromLon, toLat, toLon)
  if (road.length === 0) return []
  const ids: Array<number> = []
  const pointOf: Array<number> = []
  const lats: Array<number> = []
  const lons: Array<number> = []
  grid.passesOf(road.lat, road.lon, ids, pointOf, lats, lons)
  const passes: Array<readonly [number, number, number, number]> = []
  for (let j = 0; j < ids.length; j++) passes.push([ids[j]!, road.s[pointOf[j]!]! / road.length, lats[j]!, lons[j]!])
  return passes
}

/**
 * A trip's stops along the road, in road order: the active meeting points (`grid`) its legs'
 * roads pass, but none for an `ON_TIME` trip, none that is a waypoint's own meeting point, and each
 * at the first leg that passes it only; within a leg by fraction, then meeting point id.
 * `legPoints[k]`, when given, are leg `k`'s path decoded already (`decodePath`).
 */
export const roadStopsOf = (
  trip: FeedTrip,
  grid: MeetingPointGrid,
  zoneOffsetAt: ZoneOffsetAt,
  cache?: RoadStopCache,
  legPoints?: ReadonlyArray<ReadonlyArray<readonly [number, number]> | undefined>
): Array<RoadStop> => {
  if (trip.detour === "ON_TIME" || grid.size === 0) return []
  const own = new Set<number>()
  for (const w of trip.waypoints) if (w.meeting_point_id !== undefined) own.add(w.meeting_point_id)
  const seen = new Set<number>()
  const stops: Array<RoadStop> = []
  const departureMs = Date.parse(trip.departure_time)
  trip.legs.forEach((leg, k) => {
    if (leg.path === undefined) return
    const a = trip.waypoints[k]!
    const b = trip.waypoints[k + 1]!
    let passes = cache?.get(leg.path, a.lat, a.lon, b.lat, b.lon)
    if (passes === undefined) {
      passes = legPasses(leg.path, a.lat, a.lon, b.lat, b.lon, grid, legPoints?.[k])
      cache?.set(leg.path, a.lat, a.lon, b.lat, b.lon, passes)
    }
    const onLeg = passes.filter(([mp]) => !own.has(mp) && !seen.has(mp)).sort((x, y) => x[1] - y[1] || x[0] - y[0])
    for (const [mp, fraction, lat, lon] of onLeg) {
      seen.add(mp)
      const offsetMin = a.offset_min + Math.round((b.offset_min - a.offset_min) * fraction)
      stops.push({ mp, leg: k, fraction, lat, lon, offsetMin, zoneOffsetMin: zoneOffsetAt(lat, lon, departureMs + offsetMin * 60_000) })
    }
  })
  return stops
}
