import type { LocaleInfo } from "../model/Locale.js"
import type { JsonObject } from "../RequestContext.js"
import { formatLocalDate } from "./localTime.js"
import { type CityNamer, renderCar, renderMeetingPoint, renderPlace, renderPrice, renderStopPlace, renderValue, roundHalfUp } from "./renderParts.js"
import type { MeetingPointsById, SegmentView } from "./SegmentView.js"

/** `departure_meeting_point`: the departure stop's meeting point, along the road or a waypoint's own. */
export const departureMeetingPoint = (view: SegmentView, meetingPoints: MeetingPointsById, cityName: CityNamer): JsonObject | undefined => {
  const id = view.fromStop?.mp ?? view.stored.trip.waypoints[view.i]!.meeting_point_id
  const mp = id === undefined ? undefined : meetingPoints.get(id)
  return mp === undefined ? undefined : renderMeetingPoint(mp, cityName)
}

/** The Place of a segment's departure (`from`) or arrival end. */
export const endPlace = (view: SegmentView, end: "from" | "to", meetingPoints: MeetingPointsById, cityName: CityNamer, marks?: JsonObject): JsonObject => {
  const stop = end === "from" ? view.fromStop : view.toStop
  return stop !== undefined
    ? renderStopPlace(meetingPoints.get(stop.mp)!, cityName, marks)
    : renderPlace(view.stored.trip, end === "from" ? view.i : view.j, cityName, marks)
}

export interface TripLinks {
  readonly apiBaseUrl: string
  readonly websiteBaseUrl: string
}

/** The detail address of a trip, carrying the locale and currency it was shown in. */
export const tripSelfUrl = (links: TripLinks, permanentId: string, locale: LocaleInfo, currency: string, suffix = ""): string =>
  `${links.apiBaseUrl}/api/v2/trips/${encodeURIComponent(permanentId)}${suffix}?locale=${locale.locale}&cur=${currency}`

/**
 * `links` of a trip: its details address, its website page, its questions. Each carries the locale
 * and currency the trip was shown in: a partner's user who follows `_front` reads the page in the
 * language and the prices it was offered in.
 */
export const renderTripLinks = (view: SegmentView, locale: LocaleInfo, links: TripLinks): JsonObject => ({
  _self: tripSelfUrl(links, view.permanentId, locale, view.currency),
  _front: `${links.websiteBaseUrl}/trip/${encodeURIComponent(view.permanentId)}?locale=${locale.locale}&cur=${view.currency}`,
  _threads: tripSelfUrl(links, view.permanentId, locale, view.currency, "/threads")
})

/** The four price objects of a trip, in response order; `commission` has no colour. */
export const renderTripPrices = ({ amounts, currency, color }: SegmentView, bcp47: string): JsonObject => ({
  price: renderPrice(amounts.price, currency, bcp47, color),
  price_with_commission: renderPrice(amounts.withCommission, currency, bcp47, color),
  price_without_commission: renderPrice(amounts.net, currency, bcp47, color),
  commission: renderPrice(amounts.commission, currency, bcp47)
})

const routing = (km: number): JsonObject => ({
  proximity: km < 2 ? "CLOSE" : km < 10 ? "MIDDLE" : "FAR",
  routes: [{ distance_in_meters: Math.round(km * 1000), type: "AS_THE_CROW_FLIES" }]
})

/** A trip of `trips` / `top_trips` (docs/API.md, Trip). */
export const renderSearchTrip = (
  view: SegmentView,
  locale: LocaleInfo,
  links: TripLinks,
  fromKm: number | undefined,
  toKm: number | undefined,
  cityName: CityNamer,
  meetingPoints: MeetingPointsById = new Map()
): JsonObject => {
  const { trip } = view.stored
  const prices = renderTripPrices(view, locale.bcp47)
  // Built in response order, optional fields added in place (see renderParts.ts: no spreads here).
  const out: Record<string, unknown> = {
    links: renderTripLinks(view, locale, links),
    departure_date: formatLocalDate(view.departureLocalMs),
    departure_place: endPlace(view, "from", meetingPoints, cityName),
    arrival_place: endPlace(view, "to", meetingPoints, cityName)
  }
  const meetingPoint = departureMeetingPoint(view, meetingPoints, cityName)
  if (meetingPoint !== undefined) out["departure_meeting_point"] = meetingPoint
  Object.assign(out, {
    price: prices["price"],
    price_with_commission: prices["price_with_commission"],
    price_without_commission: prices["price_without_commission"],
    commission: prices["commission"],
    seats_left: trip.seats_left,
    seats: trip.seats,
    duration: renderValue(view.durationS, "s"),
    distance: renderValue(roundHalfUp(view.distanceM / 1000), "km"),
    permanent_id: view.permanentId,
    car: renderCar(trip.car, false),
    multimodal_id: { source: "CARPOOLING", id: view.permanentId },
    viaggio_rosa: trip.viaggio_rosa,
    is_comfort: trip.is_comfort,
    freeway: true,
    answer_delay: trip.answer_delay,
    booking_mode: trip.booking_mode,
    booking_type: trip.booking_type,
    locations_to_display: trip.waypoints.map(cityName)
  })
  if (fromKm !== undefined) out["departure_passenger_routing"] = routing(fromKm)
  if (toKm !== undefined) out["arrival_passenger_routing"] = routing(toKm)
  out["corridoring_type"] = view.fromStop !== undefined || view.toStop !== undefined ? "CORRIDORING" : "PLANNED"
  out["vehicle_pictures"] = trip.vehicle_pictures ?? []
  return out as JsonObject
}
