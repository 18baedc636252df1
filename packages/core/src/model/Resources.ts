import { Option, Schema, SchemaAST } from "effect"

/**
 * The API's resources as Schemas. They decode our responses and the real recorded responses of
 * the historical service (kept outside this repository), so fields that the recordings do not always
 * carry are optional, and open value sets (colours, categories) are plain strings.
 */

// A plain `integer` in the OpenAPI document, without the refinement's built-in title.
const Int = Schema.Number.pipe(Schema.filter(Number.isInteger, { jsonSchema: { type: "integer" }, message: () => "must be an integer" }))
/** `recommended_price` and `savings`: an integer or a numeric string, as the historical service sent them. */
const IntOrNumericString = Schema.Union(Int, Schema.String.pipe(Schema.pattern(/^-?\d+(\.\d+)?$/)).annotations({ description: "A number written as a string." }))

export const Links = Schema.Struct({
  _self: Schema.String,
  _front: Schema.optional(Schema.String),
  _threads: Schema.optional(Schema.String)
}).annotations({
  identifier: "Links",
  description: "`_self`: this object on the service (the query as asked, without `key`); `_front`: the same search or trip on the website, in the same locale and currency; `_threads`: the trip's public questions and answers."
})

export const Pager = Schema.Struct({ page: Int, pages: Int, total: Int, limit: Int }).annotations({
  identifier: "Pager",
  description: "`total`: trips matched; `pages`: `ceil(total / limit)` (0 when `limit` is 0)."
})

export const Price = Schema.Struct({
  value: Schema.Number,
  currency: Schema.String,
  symbol: Schema.String,
  string_value: Schema.String,
  price_color: Schema.optional(Schema.String)
}).annotations({
  identifier: "Price",
  description: "An amount in the asked currency, formatted for the locale. `price_color` (GREEN, ORANGE or RED) compares the net price with a reference price for the distance; it is absent on `commission` and `lowest_price_object`."
})

export const ValueObject = Schema.Struct({ value: Int, unity: Schema.String }).annotations({
  identifier: "ValueObject",
  description: "A duration (`unity` `s`, seconds) or a distance (`unity` `km`)."
})

export const Place = Schema.Struct({
  city_name: Schema.String,
  address: Schema.optional(Schema.String),
  latitude: Schema.Number,
  longitude: Schema.Number,
  country_code: Schema.String,
  meeting_point_id: Schema.optional(Int),
  departure_place: Schema.optional(Schema.Boolean),
  arrival_place: Schema.optional(Schema.Boolean)
}).annotations({
  identifier: "Place",
  description: "A waypoint. `departure_place` / `arrival_place` appear on `stop_overs` entries only, on the asked segment's ends."
})

export const MeetingPoint = Schema.Struct({
  id: Schema.optional(Int),
  name: Schema.String,
  full_name: Schema.String,
  city_name: Schema.String,
  address: Schema.optional(Schema.String),
  latitude: Schema.Number,
  longitude: Schema.Number,
  country_code: Schema.String,
  tags: Schema.optional(Schema.Array(Schema.String))
}).annotations({
  identifier: "MeetingPoint",
  description: "A place where drivers pick passengers up: `departure_meeting_point` is the meeting point of the segment's departure, whether it lies along the driver's road or is a waypoint's own."
})

export const Car = Schema.Struct({
  id: Schema.optional(Schema.String),
  model: Schema.String,
  make: Schema.String,
  color: Schema.optional(Schema.String),
  color_hexa: Schema.optional(Schema.String),
  comfort: Schema.String,
  comfort_nb_star: Int,
  number_of_seat: Schema.optional(Int),
  category: Schema.optional(Schema.String),
  picture: Schema.optional(Schema.String)
}).annotations({
  identifier: "Car",
  description: "The trip's car. Search results carry id, make, model, comfort, comfort_nb_star and category; details add color, color_hexa, number_of_seat and picture when known."
})

const Routing = Schema.Struct({
  proximity: Schema.String,
  routes: Schema.Array(Schema.Struct({ distance_in_meters: Int, type: Schema.String }))
}).annotations({
  identifier: "PassengerRouting",
  description: "How far the asked place is from the segment's end: `proximity` CLOSE (< 2 km), MIDDLE (< 10 km) or FAR; one route AS_THE_CROW_FLIES."
})

const DATE = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/

// The spec leaves these items open, and the recordings vary; the document states what this
// service sends (feed passengers without the driver; picture URLs).
const PassengerItem = Schema.Unknown.annotations({
  jsonSchema: {
    type: "object",
    required: ["id", "display_name"],
    properties: { id: { type: "string" }, display_name: { type: "string" }, picture: { type: "string" } },
    additionalProperties: false
  }
})
const PictureItem = Schema.Unknown.annotations({ jsonSchema: { type: "string", description: "A picture URL." } })

/**
 * A field's meaning in the OpenAPI document. A schema with its own JSON Schema annotation (`Int`)
 * would drop a plain description, so the description goes into that annotation too.
 */
const described = <S extends Schema.Schema.Any>(schema: S, description: string): S => {
  const own = Option.getOrUndefined(SchemaAST.getJSONSchemaAnnotation(schema.ast))
  return schema.annotations(own === undefined ? { description } : { description, jsonSchema: { ...own, description } }) as S
}

/** What a search trip and a trip detail both carry about the segment. */
const SegmentFields = {
  links: Links,
  departure_date: Schema.String.pipe(Schema.pattern(DATE)).annotations({
    description: "Local date and time at the segment's departure, `DD/MM/YYYY HH:MM:SS`."
  }),
  departure_place: Place,
  arrival_place: Place,
  departure_meeting_point: Schema.optional(MeetingPoint),
  price: Price,
  price_with_commission: Price,
  price_without_commission: Price,
  commission: Price,
  seats_left: described(Int, "Seats still free."),
  seats: described(Int, "Seats the driver offers."),
  duration: ValueObject,
  distance: ValueObject,
  permanent_id: described(
    Schema.String,
    "The trip id for the whole trip, `{id}_{i}_{j}` for the segment from waypoint i to waypoint j, an end along the road written `m{meeting point id}` (`{id}_m{mp}_{j}`); the details address takes them all."
  )
}

export const Trip = Schema.Struct({
  ...SegmentFields,
  // Some recorded trips have no car at all.
  car: Schema.optional(Car),
  multimodal_id: Schema.optional(Schema.Struct({ source: Schema.String, id: Schema.String })),
  viaggio_rosa: described(Schema.Boolean, "A women-only trip."),
  is_comfort: described(Schema.Boolean, "At most two passengers on the back seats."),
  freeway: described(Schema.Boolean, "Always true (kept for older clients)."),
  answer_delay: Schema.optional(Int),
  booking_mode: Schema.Literal("auto", "manual"),
  booking_type: Schema.Literal("online", "onboard", "no_booking"),
  locations_to_display: Schema.optional(described(Schema.Array(Schema.String), "The city of every waypoint of the whole trip.")),
  departure_passenger_routing: Schema.optional(Routing),
  arrival_passenger_routing: Schema.optional(Routing),
  corridoring_type: Schema.optional(
    described(Schema.Literal("PLANNED", "CORRIDORING"), "`PLANNED` when both ends of the segment are the driver's waypoints, `CORRIDORING` when either lies along the driver's road (a meeting point the road passes).")
  ),
  vehicle_pictures: Schema.optional(Schema.Array(PictureItem))
}).annotations({
  identifier: "Trip",
  description: "A trip of a search result: the matched segment of a trip (the whole trip, or the part between two of its waypoints, `{id}_{i}_{j}`). `links._self` is its details address."
})

export const Facet = Schema.Struct({
  name: Schema.String,
  type: Schema.Literal("checkbox", "radio", "custom"),
  // The 2017 recording carries some values as strings, and one item without a value.
  items: Schema.Array(Schema.Struct({ value: Schema.optional(Schema.Union(Int, Schema.String)), count: Int, is_selected: Schema.Boolean }))
}).annotations({
  identifier: "Facet",
  description: "Counts of the matched trips by one criterion (seats, date, hour, price, photo, experience, car_comfort), each over the trips that pass every filter but the facet's own."
})

export const SearchResponse = Schema.Struct({
  links: Links,
  pager: Pager,
  trips: Schema.Array(Trip),
  top_trips: Schema.optional(Schema.Array(Trip)),
  facets: Schema.optional(Schema.Array(Facet)),
  distance: Schema.optional(described(Int, "Km of the asked axis, when both places are known.")),
  duration: Schema.optional(described(Int, "Seconds of the asked axis, when both places are known.")),
  recommended_price: Schema.optional(IntOrNumericString),
  savings: Schema.optional(IntOrNumericString),
  lowest_price: Schema.optional(described(Int, "Floor of the smallest `price.value` among all matched trips; absent with none.")),
  lowest_price_object: Schema.optional(Price),
  full_trips_count: Schema.optional(described(Int, "Matched trips with no seat left.")),
  total_trip_count_to_display: Schema.optional(described(Int, "Trips matched, as `pager.total`.")),
  sorting_algorithm: Schema.optional(described(Schema.String, "The sort applied: `trip_date` or `trip_price`.")),
  has_bus: Schema.optional(described(Schema.Boolean, "Always false."))
}).annotations({
  identifier: "SearchResponse",
  description: "A page of matched trips with paging, top trips (up to 3 automatic-booking trips with seats, cheapest per km first, on page 1), facets and figures of the asked axis (`distance`, `duration`, `recommended_price`, `savings`: present when both places are known; `lowest_price`: absent with no trips)."
})
export type SearchResponse = typeof SearchResponse.Type

const PlanEntry = Schema.Struct({
  date: Schema.String.pipe(Schema.pattern(DATE)).annotations({ description: "Local date and time at the waypoint, `DD/MM/YYYY HH:MM:SS`." }),
  city: Schema.String,
  address: Schema.optional(Schema.String),
  latitude: Schema.Number,
  longitude: Schema.Number,
  country_code: Schema.String,
  meeting_point_id: Schema.optional(Int),
  partner_shuttle_enabled: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "PlanEntry", description: "A waypoint of the trip with its local date." })

export const TripDetail = Schema.Struct({
  ...SegmentFields,
  departure_date_iso8601: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/)).annotations({
    description: "The departure as ISO 8601 with the local UTC offset."
  }),
  is_passed: described(Schema.Boolean, "The segment's departure is past."),
  seats_count_origin: described(Int, "Seats the trip was first published with."),
  main_permanent_id: Schema.optional(described(Schema.String, "The whole trip's id, on a segment's details.")),
  comment: Schema.optional(described(Schema.String, "The driver's text.")),
  car: Car,
  viaggio_rosa: Schema.Boolean,
  is_comfort: Schema.Boolean,
  freeway: Schema.Boolean,
  luggage: Schema.optional(Schema.Literal("SMALL", "MIDDLE", "BIG")),
  stop_overs: described(Schema.Array(Place), "Every waypoint of the whole trip, and a segment's ends along the road (their meeting points) in their places on the road; the segment's ends carry `departure_place` / `arrival_place`."),
  detour: Schema.optional(Schema.Literal("ON_TIME", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "ONE_HOUR", "TWO_HOURS")),
  schedule: Schema.optional(Schema.Literal("NONE", "FIFTEEN_MINUTES", "THIRTY_MINUTES", "WHATEVER_IT_TAKES")),
  question_response_count: Schema.optional(described(Int, "Questions the driver answered.")),
  bucketing_eligible: described(Schema.Boolean, "Always false."),
  booking_mode: Schema.Literal("auto", "manual"),
  booking_type: Schema.Literal("online", "onboard", "no_booking"),
  is_booking_allowed: described(Schema.Boolean, "The trip has a booking system, a free seat, and has not left."),
  view_count: Int,
  cross_border_alert: described(Schema.Boolean, "Some waypoint is in another country than the segment's departure (its meeting point's country when it lies along the road)."),
  trip_plan: described(Schema.Array(PlanEntry), "Every waypoint of the whole trip, and a segment's ends along the road, each with its local date."),
  messaging_status: Schema.Literal("public", "private"),
  passengers: described(Schema.Array(PassengerItem), "Passengers already booked (never the driver)."),
  display_contact: described(Schema.Boolean, "The driver is contacted directly (no booking system)."),
  vehicle_pictures: Schema.Array(PictureItem),
  can_report: described(Schema.Boolean, "Always true.")
}).annotations({
  identifier: "TripDetail",
  description: "One trip, or one segment of it (`{id}_{i}_{j}`, which carries `main_permanent_id`). `stop_overs` and `trip_plan` list every waypoint of the whole trip, and, for a segment with an end along the road (`{id}_m{meeting point id}_{j}`), that end's meeting point too."
})
export type TripDetail = typeof TripDetail.Type

export const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.String,
    "developper-message": Schema.String,
    message: Schema.String,
    "support-link": Schema.String
  })
}).annotations({
  identifier: "Error",
  description: "Every error answer: `code` is the HTTP status, `developper-message` a stable token (see the list of tokens), `message` a human explanation naming the parameter and its rule, `support-link` the token's help page."
})

/** `GET /api/v2/trips/{id}/threads`: the public questions asked to the driver, and their answers. */
export const ThreadsResponse = Schema.Struct({
  links: Links,
  permanent_id: Schema.String,
  threads: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      question: Schema.String,
      asked_at: Schema.String,
      answer: Schema.optional(Schema.String),
      answered_at: Schema.optional(Schema.String)
    }).annotations({ identifier: "Thread", description: "A question (`asked_at`, ISO 8601) and its answer once given." })
  )
}).annotations({
  identifier: "ThreadsResponse",
  description: "The trip's questions and answers when its messaging is public; an empty list when it is private."
})

/** `GET /api/v2/places`: the cities a typed name may mean, best first. */
export const PlacesResponse = Schema.Struct({
  links: Links,
  places: Schema.Array(
    Schema.Struct({
      id: Int,
      name: Schema.String,
      country_code: Schema.String,
      latitude: Schema.Number,
      longitude: Schema.Number,
      population: Int,
      near: Schema.optional(Schema.String)
    }).annotations({
      identifier: "PlaceSuggestion",
      description:
        "A city of the gazetteer: its GeoNames `id`, its `name` in the locale's language (its GeoNames name where the locale has none), its country (ISO 3166-1 alpha-2), coordinates and population. When another city of the answer has the same name and country, `near` tells them apart: the nearest town of that country, within 300 km, with more inhabitants than the city and at least 10,000, under another name, named in the locale's language (absent otherwise, or when there is no such town). Given as `fn` or `tn`, its `name` resolves by the rules of `fn`: among cities of that name, the locale's country first, then the largest population."
    })
  )
}).annotations({
  identifier: "PlacesResponse",
  description:
    "Up to 10 cities with a name (in any of the locales' languages) that starts with `q`: those named exactly `q` first, then those of the locale's country, then the most populous, then the smallest id."
})
