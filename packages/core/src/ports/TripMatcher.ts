import { Context, type Effect } from "effect"
import type { ServiceOverloaded } from "../errors.js"
import type { MatchRequest, MatchResult } from "../search/MatchRequest.js"

/** Geo matching, filters, facets, sort and paging over every active trip. */
export class TripMatcher extends Context.Tag("@tripsearch/core/ports/TripMatcher")<
  TripMatcher,
  {
    readonly match: (request: MatchRequest) => Effect.Effect<MatchResult, ServiceOverloaded>
  }
>() {}
