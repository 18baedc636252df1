import { Clock, Effect, Option } from "effect"
import { TripNotFound, type DetailsError } from "./errors.js"
import { decodeDetailsQuery } from "./model/DetailsQuery.js"
import { LOCALE_TABLE } from "./model/Locale.js"
import type { StoredTrip } from "./model/StoredTrip.js"
import { PlaceNames } from "./ports/PlaceNames.js"
import { TripStore } from "./ports/TripStore.js"
import { cityNamer } from "./render/cityNamer.js"
import { renderTripDetail } from "./render/renderTripDetail.js"
import { tripSelfUrl } from "./render/renderSearchTrip.js"
import { segmentView } from "./render/SegmentView.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"

const TRIP_ID = /^([A-Za-z0-9-]{1,64})(?:_(\d{1,2})_(\d{1,2}))?$/

/** A permanent id (`{id}` or `{id}_{i}_{j}`) to its active trip and segment, or 404. */
const findSegment = (permanentId: string) =>
  Effect.gen(function* () {
    const m = TRIP_ID.exec(permanentId)
    if (m === null) return yield* new TripNotFound({ id: permanentId })
    const store = yield* TripStore
    const found = yield* store.getTrip(m[1]!)
    if (Option.isNone(found) || found.value.trip.status !== "active") return yield* new TripNotFound({ id: permanentId })
    const stored: StoredTrip = found.value
    const last = stored.trip.waypoints.length - 1
    const i = m[2] === undefined ? 0 : Number(m[2])
    const j = m[3] === undefined ? last : Number(m[3])
    if (!(i < j && j <= last)) return yield* new TripNotFound({ id: permanentId })
    return { stored, i, j }
  })

/** `GET /api/v2/trips/{id}`: a whole trip or a sub-trip `{id}_{i}_{j}`. */
export const tripDetails = (id: string, params: RawParams, context: RequestContext): Effect.Effect<JsonObject, DetailsError, TripStore> =>
  Effect.gen(function* () {
    const query = yield* decodeDetailsQuery(params)
    const { stored, i, j } = yield* findSegment(id)
    const locale = LOCALE_TABLE[query.locale]
    const rates = yield* (yield* TripStore).rates
    const nowMs = yield* Clock.currentTimeMillis
    const view = segmentView(stored, i, j, locale, query.cur ?? locale.currency, rates)
    return renderTripDetail(view, locale, context, nowMs, cityNamer(yield* PlaceNames, locale))
  })

/** `GET /api/v2/trips/{id}/threads`: the questions asked to the driver, with answers, when messaging is public. */
export const tripThreads = (id: string, params: RawParams, context: RequestContext): Effect.Effect<JsonObject, DetailsError, TripStore> =>
  Effect.gen(function* () {
    const query = yield* decodeDetailsQuery(params)
    const { stored, i, j } = yield* findSegment(id)
    const locale = LOCALE_TABLE[query.locale]
    const { trip } = stored
    const permanentId = i === 0 && j === trip.waypoints.length - 1 ? trip.id : `${trip.id}_${i}_${j}`
    const questions = trip.messaging_status === "public" ? (trip.questions ?? []) : []
    return {
      links: { _self: tripSelfUrl(context, permanentId, locale, query.cur ?? locale.currency, "/threads") },
      permanent_id: permanentId,
      threads: questions.map((q) => ({
        id: q.id,
        question: q.question,
        asked_at: q.asked_at,
        ...(q.answer !== undefined ? { answer: q.answer } : {}),
        ...(q.answered_at !== undefined ? { answered_at: q.answered_at } : {})
      }))
    }
  })
