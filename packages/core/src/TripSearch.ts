import { Effect } from "effect"
import type { SearchError } from "./errors.js"
import type { PlaceResolver } from "./ports/PlaceResolver.js"
import type { TripMatcher } from "./ports/TripMatcher.js"
import type { TripStore } from "./ports/TripStore.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"

/** `GET /api/v2/trips`: decodes the parameters, matches, and renders the Search response. */
export const searchTrips = (
  _params: RawParams,
  _context: RequestContext
): Effect.Effect<JsonObject, SearchError, TripStore | PlaceResolver | TripMatcher> => Effect.dieMessage("searchTrips: in progress")
