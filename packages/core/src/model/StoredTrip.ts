import type { FeedTrip } from "./FeedTrip.js"
import type { RoadStop } from "../road/roadStops.js"

/**
 * A trip as the store keeps it: the feed record plus what the import derived from it, the UTC
 * offset (minutes) of each waypoint's own time zone at the instant the trip passes there.
 */
export interface StoredTrip {
  readonly trip: FeedTrip
  readonly zoneOffsets: ReadonlyArray<number>
  /**
   * The trip's stops along the road (docs/API.md, Along the road), as the store last worked them
   * out from its legs' paths and the active meeting points; absent or empty without any.
   */
  readonly roadStops?: ReadonlyArray<RoadStop>
}
