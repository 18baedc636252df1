import type { LocaleInfo } from "../model/Locale.js"
import type { StoredTrip } from "../model/StoredTrip.js"
import type { JsonObject } from "../RequestContext.js"
import { formatIsoWithOffset, formatLocalDate } from "./localTime.js"
import { type CityNamer, renderCar, renderPlace, renderValue, roundHalfUp } from "./renderParts.js"
import { renderTripLinks, renderTripPrices, type TripLinks } from "./renderSearchTrip.js"
import { waypointLocalMs, type SegmentView } from "./SegmentView.js"

/** The Trip detail object (docs/API.md, TripDetail). */
export const renderTripDetail = (
  view: SegmentView<StoredTrip>,
  locale: LocaleInfo,
  links: TripLinks,
  nowMs: number,
  cityName: CityNamer
): JsonObject => {
  const { stored } = view
  const { trip } = stored
  const passed = view.departureUtcMs < nowMs
  const departureCountry = trip.waypoints[view.i]!.country
  return {
    links: renderTripLinks(view, locale, links),
    departure_date: formatLocalDate(view.departureLocalMs),
    departure_date_iso8601: formatIsoWithOffset(view.departureUtcMs, stored.zoneOffsets[view.i]!),
    is_passed: passed,
    departure_place: renderPlace(trip, view.i, cityName),
    arrival_place: renderPlace(trip, view.j, cityName),
    ...renderTripPrices(view, locale.bcp47),
    seats_left: trip.seats_left,
    seats: trip.seats,
    seats_count_origin: trip.seats_count_origin ?? trip.seats,
    duration: renderValue(view.durationS, "s"),
    distance: renderValue(roundHalfUp(view.distanceM / 1000), "km"),
    permanent_id: view.permanentId,
    ...(view.isWhole ? {} : { main_permanent_id: trip.id }),
    ...(trip.comment !== undefined ? { comment: trip.comment } : {}),
    car: renderCar(trip.car, true),
    viaggio_rosa: trip.viaggio_rosa,
    is_comfort: trip.is_comfort,
    freeway: true,
    luggage: trip.luggage,
    stop_overs: trip.waypoints.map((_, k) =>
      renderPlace(trip, k, cityName, {
        ...(k === view.i ? { departure_place: true } : {}),
        ...(k === view.j ? { arrival_place: true } : {})
      })
    ),
    detour: trip.detour,
    schedule: trip.schedule,
    question_response_count: (trip.questions ?? []).filter((q) => q.answer !== undefined).length,
    bucketing_eligible: false,
    booking_mode: trip.booking_mode,
    booking_type: trip.booking_type,
    is_booking_allowed: trip.booking_type !== "no_booking" && trip.seats_left > 0 && !passed,
    view_count: trip.view_count,
    cross_border_alert: trip.waypoints.some((w) => w.country !== departureCountry),
    trip_plan: trip.waypoints.map((w, k) => ({
      date: formatLocalDate(waypointLocalMs(stored, k)),
      city: cityName(w),
      ...(w.address !== undefined ? { address: w.address } : {}),
      latitude: w.lat,
      longitude: w.lon,
      country_code: w.country,
      ...(w.meeting_point_id !== undefined ? { meeting_point_id: w.meeting_point_id } : {}),
      partner_shuttle_enabled: false
    })),
    messaging_status: trip.messaging_status,
    passengers: (trip.passengers ?? []).map((p) => ({
      id: p.id,
      display_name: p.display_name,
      ...(p.picture !== undefined ? { picture: p.picture } : {})
    })),
    display_contact: trip.booking_type === "no_booking",
    vehicle_pictures: trip.vehicle_pictures ?? [],
    can_report: true
  }
}

