import { EARTH_RADIUS_KM, haversineKm, RAD } from "../geo/haversine.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"
import type { FeedTrip } from "../model/FeedTrip.js"
import type { ZoneOffsetAt } from "../road/roadStops.js"
import type { IndexRecord } from "../search/IndexRecord.js"
import type { MatchPlace, MatchRequest, MatchResult } from "../search/MatchRequest.js"
import { referenceSearch } from "../search/referenceSearch.js"

/**
 * `referenceSearch` over a whole store, the way a test or a benchmark can afford it. The
 * reference measures every path point of every trip against every meeting point: over a store of
 * a million trips, days a search. It is given only what can change its answer, and its rules stay
 * as they are:
 * - the trips whose waypoints or road come within each asked place's radius + 1.5 km (a stop along
 *   the road is a meeting point within 1 km of the road), by a box test wider than the circle;
 * - the meeting points within an asked place's radius: a segment's ends lie within it, and a stop
 *   belongs to its meeting point whatever others there are, in the same order among those left.
 */
/** The places a request asks about: its `from`, its `to`, or both. */
const placesOf = (req: MatchRequest): Array<MatchPlace> => [req.from, req.to].filter((p) => p !== undefined)

export class ReferenceNear {
  /** Per record, the box of its waypoints and road: min lat, max lat, min lon, max lon. */
  private readonly boxes: Float64Array

  /**
   * `roadBox`: the box of a trip's road (every path point), undefined for a trip without one;
   * `tripsOf`: the feed trips of these ids (their roads); `zoneOffsetAt`: the stores' time zones.
   */
  constructor(
    readonly records: ReadonlyArray<IndexRecord>,
    roadBox: (id: string) => readonly [number, number, number, number] | undefined,
    private readonly tripsOf: (ids: ReadonlyArray<string>) => ReadonlyMap<string, FeedTrip>,
    private readonly meetingPoints: ReadonlyArray<StoredMeetingPoint>,
    private readonly zoneOffsetAt: ZoneOffsetAt
  ) {
    this.boxes = new Float64Array(4 * records.length)
    records.forEach((r, k) => {
      const road = roadBox(r.id)
      this.boxes[4 * k] = Math.min(...r.lat, road?.[0] ?? Infinity)
      this.boxes[4 * k + 1] = Math.max(...r.lat, road?.[1] ?? -Infinity)
      this.boxes[4 * k + 2] = Math.min(...r.lon, road?.[2] ?? Infinity)
      this.boxes[4 * k + 3] = Math.max(...r.lon, road?.[3] ?? -Infinity)
    })
  }

  /** The records that may have a stop or waypoint within every asked place's radius. */
  near(req: MatchRequest): Array<IndexRecord> {
    const places = placesOf(req)
    const out: Array<IndexRecord> = []
    for (let k = 0; k < this.records.length; k++) if (places.every((p) => this.mayReach(k, p, p.radiusKm + 1.5))) out.push(this.records[k]!)
    return out
  }

  /** The reference's answer to `req` over `near` (`near(req)`'s records), with its meeting points and roads. */
  search(req: MatchRequest, near: ReadonlyArray<IndexRecord>): MatchResult {
    const places = placesOf(req)
    const meetingPoints = this.meetingPoints.filter((mp) => places.some((p) => haversineKm(p.lat, p.lon, mp.lat, mp.lon) <= p.radiusKm + 0.01))
    return referenceSearch(near, req, { trips: this.tripsOf(near.map((r) => r.id)), meetingPoints, zoneOffsetAt: this.zoneOffsetAt })
  }

  /** Whether record k's box, widened, may hold a point within `km` of the place: errs wide, never narrow. */
  private mayReach(k: number, p: MatchPlace, km: number): boolean {
    const b = this.boxes
    const dLat = (km / EARTH_RADIUS_KM / RAD) * 1.01 + 1e-6
    if (p.lat - dLat > b[4 * k + 1]! || p.lat + dLat < b[4 * k]!) return false
    const maxLat = Math.max(Math.abs(b[4 * k]!), Math.abs(b[4 * k + 1]!), Math.abs(p.lat)) + dLat
    if (maxLat >= 89) return true
    // The widest longitude span of a circle of `km` about a point at latitude maxLat or nearer the equator.
    const dLon = (Math.asin(Math.min(1, Math.sin(km / EARTH_RADIUS_KM) / Math.cos(maxLat * RAD))) / RAD) * 1.01 + 1e-6
    if (p.lon - dLon < -180 || p.lon + dLon > 180) return true
    return !(p.lon - dLon > b[4 * k + 3]! || p.lon + dLon < b[4 * k + 2]!)
  }
}
