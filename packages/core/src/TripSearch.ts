import { Clock, Effect, Option } from "effect"
import { PlaceNotFound, type SearchError } from "./errors.js"
import { haversineKm } from "./geo/haversine.js"
import type { Point } from "./geo/radius.js"
import { LOCALE_TABLE, MINOR_DIGITS, type LocaleInfo } from "./model/Locale.js"
import { decodeSearchQuery } from "./model/SearchQuery.js"
import { mulDivRound, RATE_SCALE, scaledRate } from "./pricing/exactMath.js"
import { PlaceNames } from "./ports/PlaceNames.js"
import { PlaceResolver } from "./ports/PlaceResolver.js"
import { TripMatcher } from "./ports/TripMatcher.js"
import { TripStore } from "./ports/TripStore.js"
import { applyFields } from "./render/applyFields.js"
import { frontQuery } from "./render/frontQuery.js"
import { renderFacets } from "./render/renderFacets.js"
import { cityNamer } from "./render/cityNamer.js"
import { renderPrice } from "./render/renderParts.js"
import { renderSearchTrip } from "./render/renderSearchTrip.js"
import { endsKnown, meetingPointIdsOf, segmentView } from "./render/SegmentView.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"
import type { MatchResult, SegmentHit } from "./search/MatchRequest.js"
import type { ShownStoredTrip } from "./model/ShownTrip.js"
import { toMatchRequest } from "./search/toMatchRequest.js"

const EMPTY_RESULT: MatchResult = {
  total: 0,
  fullTripsCount: 0,
  page: [],
  top: [],
  facets: { seats: [0, 0, 0, 0], dates: [], hours: [], prices: [], photo: [0, 0], experience: [0, 0, 0, 0, 0], comfort: [0, 0, 0, 0] }
}

/** `fc` wins over `fn` (which is then not resolved); a name is looked up in the gazetteer. */
const resolvePlace = (coords: Point | undefined, name: string | undefined, parameter: string, locale: LocaleInfo) =>
  Effect.gen(function* () {
    if (coords !== undefined) return Option.some(coords)
    if (name === undefined) return Option.none<Point>()
    const resolver = yield* PlaceResolver
    const place = yield* resolver.resolve(name, locale.country)
    if (Option.isNone(place)) return yield* new PlaceNotFound({ parameter, text: name })
    return Option.some<Point>({ lat: place.value.lat, lon: place.value.lon })
  })

/** `GET /api/v2/trips`: decodes the parameters, matches, and renders the Search response. */
export const searchTrips = (
  params: RawParams,
  context: RequestContext
): Effect.Effect<JsonObject, SearchError, TripStore | PlaceResolver | TripMatcher> =>
  Effect.gen(function* () {
    const query = yield* decodeSearchQuery(params)
    const locale = LOCALE_TABLE[query.locale]
    const from = Option.getOrUndefined(yield* resolvePlace(query.fc, query.fn, "fn", locale))
    const to = Option.getOrUndefined(yield* resolvePlace(query.tc, query.tn, "tn", locale))
    const store = yield* TripStore
    const rates = yield* store.rates
    const nowMs = yield* Clock.currentTimeMillis
    const request = toMatchRequest(query, from, to, nowMs, rates)
    const result = from === undefined && to === undefined ? EMPTY_RESULT : yield* (yield* TripMatcher).match(request)

    const shown = [...result.page, ...result.top]
    // The matcher answers the shown trips when it keeps them beside its index; else the store does.
    const trips: ReadonlyMap<string, ShownStoredTrip> =
      result.trips ?? (shown.length === 0 ? new Map() : yield* store.getTrips([...new Set(shown.map((h) => h.id))]))
    const currency = query.cur
    const mpIds = shown.flatMap((h) => {
      const stored = trips.get(h.id)
      return stored === undefined ? [] : meetingPointIdsOf(stored.trip, h.i, h)
    })
    const meetingPoints = mpIds.length === 0 ? new Map() : yield* store.meetingPoints([...new Set(mpIds)])
    // A trip cancelled between matching and reading is left out rather than shown stale, and so is
    // a segment whose meeting point along the road was removed meanwhile.
    const names = yield* PlaceNames
    const cityName = cityNamer(names, locale)
    const render = (hits: ReadonlyArray<SegmentHit>) =>
      hits.flatMap((h) => {
        const stored = trips.get(h.id)
        if (stored === undefined) return []
        const view = segmentView(stored, h.i, h.j, locale, currency, rates, h)
        if (!endsKnown(view, meetingPoints)) return []
        return [renderSearchTrip(view, locale, context, h.fromKm, h.toKm, cityName, meetingPoints)]
      })

    const axisKm = from !== undefined && to !== undefined ? Math.round(1.2 * haversineKm(from.lat, from.lon, to.lat, to.lon)) : undefined
    const rate = scaledRate(rates[currency])
    const withQuery = (q: string) => (q === "" ? "" : `?${q}`)
    const response: JsonObject = {
      links: {
        _self: `${context.apiBaseUrl}${context.path}${withQuery(context.query)}`,
        _front: `${context.websiteBaseUrl}/search${withQuery(frontQuery(context.query))}`
      },
      pager: {
        page: query.page,
        pages: query.limit === 0 ? 0 : Math.ceil(result.total / query.limit),
        total: result.total,
        limit: query.limit
      },
      trips: render(result.page),
      top_trips: render(result.top),
      facets: renderFacets(result.facets, query),
      ...(axisKm !== undefined
        ? {
            distance: axisKm,
            duration: Math.round((axisKm / 75) * 3600),
            recommended_price: mulDivRound([65, axisKm, rate], [1000, RATE_SCALE]),
            savings: mulDivRound([135, axisKm, rate], [1000, RATE_SCALE])
          }
        : {}),
      ...(result.lowestPriceMinor !== undefined
        ? {
            lowest_price: Math.floor(result.lowestPriceMinor / 10 ** MINOR_DIGITS[currency]),
            lowest_price_object: renderPrice(result.lowestPriceMinor, currency, locale.bcp47)
          }
        : {}),
      full_trips_count: result.fullTripsCount,
      total_trip_count_to_display: result.total,
      sorting_algorithm: request.sort,
      has_bus: false
    }
    return applyFields(response, query.fields)
  })
