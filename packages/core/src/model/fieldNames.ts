/** Top-level fields of the Search response, in response order (docs/API.md, SearchResponse). */
export const SEARCH_FIELD_NAMES: ReadonlyArray<string> = [
  "links", "pager", "trips", "top_trips", "facets", "distance", "duration", "recommended_price", "savings",
  "lowest_price", "lowest_price_object", "full_trips_count", "total_trip_count_to_display", "sorting_algorithm", "has_bus"
]

/** Fields of a trip in `trips` / `top_trips`, in response order (docs/API.md, Trip). */
export const TRIP_FIELD_NAMES: ReadonlyArray<string> = [
  "links", "departure_date", "departure_place", "arrival_place", "departure_meeting_point", "price",
  "price_with_commission", "price_without_commission", "commission", "seats_left", "seats", "duration", "distance",
  "permanent_id", "car", "multimodal_id", "viaggio_rosa", "is_comfort", "freeway", "answer_delay", "booking_mode",
  "booking_type", "locations_to_display", "departure_passenger_routing", "arrival_passenger_routing",
  "corridoring_type", "vehicle_pictures"
]
