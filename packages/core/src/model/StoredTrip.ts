import type { FeedTrip } from "./FeedTrip.js"

/**
 * A trip as the store keeps it: the feed record plus what the import derived from it, the UTC
 * offset (minutes) of each waypoint's own time zone at the instant the trip passes there.
 */
export interface StoredTrip {
  readonly trip: FeedTrip
  readonly zoneOffsets: ReadonlyArray<number>
}
