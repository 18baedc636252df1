import type { FeedTrip } from "./FeedTrip.js"

/** The fields of a trip a search result shows: what `renderSearchTrip` and `segmentView` read. */
export type ShownTrip = Pick<
  FeedTrip,
  | "id"
  | "departure_time"
  | "waypoints"
  | "legs"
  | "currency"
  | "seats"
  | "seats_left"
  | "booking_mode"
  | "booking_type"
  | "viaggio_rosa"
  | "is_comfort"
  | "answer_delay"
  | "car"
  | "vehicle_pictures"
>

/** A shown trip with its waypoints' UTC offsets, as `StoredTrip` has them. */
export interface ShownStoredTrip {
  readonly trip: ShownTrip
  readonly zoneOffsets: ReadonlyArray<number>
}
