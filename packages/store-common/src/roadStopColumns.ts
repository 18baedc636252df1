import {
  decodeValidPath,
  type FeedTrip,
  MeetingPointGrid,
  PASS_DEG,
  RoadStopCache,
  roadStopsOf,
  type StoredMeetingPoint
} from "@tripsearch/core"
import { encodeRoadStops } from "./roadStopsBlob.js"
import { cachedOffsetAt } from "./zoneOffsets.js"


/** What the stops along the road are worked out from: a meeting point's id, place and status. */
export type RoadMeetingPoint = Pick<StoredMeetingPoint, "id" | "lat" | "lon" | "status">

/** The stored columns of a trip's road: its stops along the road (`encodeRoadStops`) and its road's bounding box. */
export interface RoadColumns {
  readonly road_stops: Buffer | null
  readonly road_box: readonly [minLat: number, maxLat: number, minLon: number, maxLon: number] | null
}

const NO_ROAD: RoadColumns = { road_stops: null, road_box: null }

/**
 * Works out the stops along the road of the trips a store writes (docs/API.md, Along the road),
 * from the store's active meeting points, with the time-zone database for their times. Roads
 * shared by many trips are worked out once (`RoadStopCache`).
 */
export class RoadStopper {
  private readonly grid: MeetingPointGrid
  private readonly cache: RoadStopCache

  /** `cacheLegs`: how many legs' passes `RoadStopCache` keeps (core's default when not given). */
  constructor(meetingPoints: Iterable<RoadMeetingPoint>, cacheLegs?: number) {
    this.cache = new RoadStopCache(cacheLegs)
    this.grid = new MeetingPointGrid([...meetingPoints].filter((mp) => mp.status === "active"))
  }

  /** The road columns of a stored trip (its `trip_json`): none without any leg's path. */
  columnsOf(tripJson: string): RoadColumns {
    if (!tripJson.includes('"path":')) return NO_ROAD
    return this.columnsOfTrip(JSON.parse(tripJson) as FeedTrip)
  }

  /**
   * The road columns of a decoded trip, whose paths are valid (the feed's rules). `decoded[k]`,
   * when there, is leg `k`'s path decoded already (`checkedPath`).
   */
  columnsOfTrip(trip: FeedTrip, decoded?: ReadonlyArray<Array<[number, number]> | undefined>): RoadColumns {
    let minLat = Infinity
    let maxLat = -Infinity
    let minLon = Infinity
    let maxLon = -Infinity
    // Each path decoded once, for the box and the stops both: decoding is much of the work.
    const legPoints: Array<Array<[number, number]> | undefined> = []
    for (const leg of trip.legs) {
      const points = leg.path === undefined ? undefined : decoded?.[legPoints.length] ?? decodeValidPath(leg.path)
      legPoints.push(points)
      if (points === undefined) continue
      for (const [lat, lon] of points) {
        if (lat < minLat) minLat = lat
        if (lat > maxLat) maxLat = lat
        if (lon < minLon) minLon = lon
        if (lon > maxLon) maxLon = lon
      }
    }
    if (minLat === Infinity) return NO_ROAD
    const stops = roadStopsOf(trip, this.grid, cachedOffsetAt, this.cache, legPoints)
    return { road_stops: stops.length > 0 ? encodeRoadStops(stops) : null, road_box: [minLat, maxLat, minLon, maxLon] }
  }
}

/**
 * The box to look for trips whose road may pass a meeting point at (lat, lon): a road's box
 * overlaps it when a road point may lie within PASS_KM of it (roads near the antimeridian or the
 * poles are taken whole: the box spans every longitude there).
 */
export const passBox = (lat: number, lon: number): readonly [minLat: number, maxLat: number, minLon: number, maxLon: number] => {
  const cos = Math.cos(((Math.abs(lat) + PASS_DEG) * Math.PI) / 180)
  const dLon = cos > 0.05 ? PASS_DEG / cos : 360
  const minLon = lon - dLon
  const maxLon = lon + dLon
  return [lat - PASS_DEG, lat + PASS_DEG, minLon < -180 || maxLon > 180 ? -180 : minLon, minLon < -180 || maxLon > 180 ? 180 : maxLon]
}
