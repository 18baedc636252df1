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
import { endsKnown, meetingPointIdsOf, type RoadEnds, segmentId, segmentView } from "./render/SegmentView.js"
import type { RoadStop } from "./road/roadStops.js"
import type { JsonObject, RawParams, RequestContext } from "./RequestContext.js"

// Numbers as a permanent id writes them, without leading zeros: `B_01_2` is no id this service gives.
const TRIP_ID = /^([A-Za-z0-9-]{1,64})(?:_(0|[1-9]\d?|m[1-9]\d{0,9})_(0|[1-9]\d?|m[1-9]\d{0,9}))?$/

/**
 * A permanent id (`{id}`, `{id}_{i}_{j}`, an end along the road written `m{meeting point id}`) to
 * its active trip and segment, or 404: also when that meeting point is no longer a stop of the
 * trip, or the ends are not in road order.
 */
const findSegment = (permanentId: string) =>
  Effect.gen(function* () {
    const m = TRIP_ID.exec(permanentId)
    if (m === null) return yield* new TripNotFound({ id: permanentId })
    const store = yield* TripStore
    const found = yield* store.getTrip(m[1]!)
    if (Option.isNone(found) || found.value.trip.status !== "active") return yield* new TripNotFound({ id: permanentId })
    const stored: StoredTrip = found.value
    const last = stored.trip.waypoints.length - 1
    const end = (text: string | undefined, whole: number): { k: number; stop?: RoadStop } | undefined => {
      if (text === undefined) return { k: whole }
      if (!text.startsWith("m")) return { k: Number(text) }
      const stop = (stored.roadStops ?? []).find((s) => s.mp === Number(text.slice(1)))
      return stop === undefined ? undefined : { k: stop.leg, stop }
    }
    const a = end(m[2], 0)
    const b = end(m[3], last)
    if (a === undefined || b === undefined) return yield* new TripNotFound({ id: permanentId })
    const position = (e: { k: number; stop?: RoadStop }) => (e.stop !== undefined ? e.stop.leg + e.stop.fraction : e.k < last ? e.k : last)
    const ordered = a.stop === undefined && b.stop === undefined ? a.k < b.k && b.k <= last : b.k <= last && position(b) > position(a)
    if (!ordered || (b.stop === undefined && b.k === 0)) return yield* new TripNotFound({ id: permanentId })
    const ends: RoadEnds = { ...(a.stop !== undefined ? { fromStop: a.stop } : {}), ...(b.stop !== undefined ? { toStop: b.stop } : {}) }
    const meetingPoints = yield* store.meetingPoints(meetingPointIdsOf(stored.trip, a.k, ends))
    if (!endsKnown(ends, meetingPoints)) return yield* new TripNotFound({ id: permanentId })
    return { stored, i: a.k, j: b.k, ends, meetingPoints }
  })

/** `GET /api/v2/trips/{id}`: a whole trip or a sub-trip `{id}_{i}_{j}`. */
export const tripDetails = (id: string, params: RawParams, context: RequestContext): Effect.Effect<JsonObject, DetailsError, TripStore> =>
  Effect.gen(function* () {
    const query = yield* decodeDetailsQuery(params)
    const { stored, i, j, ends, meetingPoints } = yield* findSegment(id)
    const locale = LOCALE_TABLE[query.locale]
    const rates = yield* (yield* TripStore).rates
    const nowMs = yield* Clock.currentTimeMillis
    const view = segmentView(stored, i, j, locale, query.cur ?? locale.currency, rates, ends)
    return renderTripDetail(view, locale, context, nowMs, cityNamer(yield* PlaceNames, locale), meetingPoints)
  })

/** `GET /api/v2/trips/{id}/threads`: the questions asked to the driver, with answers, when messaging is public. */
export const tripThreads = (id: string, params: RawParams, context: RequestContext): Effect.Effect<JsonObject, DetailsError, TripStore> =>
  Effect.gen(function* () {
    const query = yield* decodeDetailsQuery(params)
    const { stored, i, j, ends } = yield* findSegment(id)
    const locale = LOCALE_TABLE[query.locale]
    const { trip } = stored
    const permanentId = segmentId(trip.id, i, j, trip.waypoints.length - 1, ends)
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
