import { Effect } from "effect"
import type { DetailsError } from "./errors.js"
import type { TripStore } from "./ports/TripStore.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"

/** `GET /api/v2/trips/{id}`: a whole trip or a sub-trip `{id}_{i}_{j}`. */
export const tripDetails = (
  _id: string,
  _params: RawParams,
  _context: RequestContext
): Effect.Effect<JsonObject, DetailsError, TripStore> => Effect.dieMessage("tripDetails: in progress")

/** `GET /api/v2/trips/{id}/threads`: the trip's public questions and answers. */
export const tripThreads = (
  _id: string,
  _params: RawParams,
  _context: RequestContext
): Effect.Effect<JsonObject, DetailsError, TripStore> => Effect.dieMessage("tripThreads: in progress")
