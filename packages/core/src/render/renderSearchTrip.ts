import type { LocaleInfo } from "../model/Locale.js"
import type { JsonObject } from "../RequestContext.js"
import { formatLocalDate } from "./localTime.js"
import { type CityNamer, renderCar, renderPlace, renderPrice, renderValue, roundHalfUp } from "./renderParts.js"
import type { SegmentView } from "./SegmentView.js"

export interface TripLinks {
  readonly apiBaseUrl: string
  readonly websiteBaseUrl: string
}

/** The detail address of a trip, carrying the locale and currency it was shown in. */
export const tripSelfUrl = (links: TripLinks, permanentId: string, locale: LocaleInfo, currency: string, suffix = ""): string =>
  `${links.apiBaseUrl}/api/v2/trips/${encodeURIComponent(permanentId)}${suffix}?locale=${locale.locale}&cur=${currency}`

/** `links` of a trip: its details address, its website page, its questions. */
export const renderTripLinks = (view: SegmentView, locale: LocaleInfo, links: TripLinks): JsonObject => ({
  _self: tripSelfUrl(links, view.permanentId, locale, view.currency),
  _front: `${links.websiteBaseUrl}/trip/${encodeURIComponent(view.permanentId)}`,
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
  cityName: CityNamer
): JsonObject => {
  const { trip } = view.stored
  const prices = renderTripPrices(view, locale.bcp47)
  // Built in response order, optional fields added in place (see renderParts.ts: no spreads here).
  const out: Record<string, unknown> = {
    links: renderTripLinks(view, locale, links),
    departure_date: formatLocalDate(view.departureLocalMs),
    departure_place: renderPlace(trip, view.i, cityName),
    arrival_place: renderPlace(trip, view.j, cityName),
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
  }
  if (fromKm !== undefined) out["departure_passenger_routing"] = routing(fromKm)
  if (toKm !== undefined) out["arrival_passenger_routing"] = routing(toKm)
  out["corridoring_type"] = "PLANNED"
  out["vehicle_pictures"] = trip.vehicle_pictures ?? []
  return out as JsonObject
}
