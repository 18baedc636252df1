import { Effect } from "effect"
import type { InvalidParameter } from "./errors.js"
import { decodePlacesQuery } from "./model/PlacesQuery.js"
import { PlaceNames } from "./ports/PlaceNames.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"

/** How many cities `GET /api/v2/places` answers. */
export const PLACES_LIMIT = 10

/** `GET /api/v2/places`: the best cities for what a traveller has typed, named in the locale. */
export const suggestPlaces = (params: RawParams, context: RequestContext): Effect.Effect<JsonObject, InvalidParameter> =>
  Effect.gen(function* () {
    const query = yield* decodePlacesQuery(params)
    const names = yield* PlaceNames
    const withQuery = context.query === "" ? "" : `?${context.query}`
    return {
      links: { _self: `${context.apiBaseUrl}${context.path}${withQuery}` },
      places: names.suggest(query.q, query.locale, PLACES_LIMIT).map((p) => ({
        id: p.id,
        name: p.name,
        country_code: p.countryCode,
        latitude: p.lat,
        longitude: p.lon,
        population: p.population,
        ...(p.near !== undefined ? { near: p.near } : {})
      }))
    }
  })
