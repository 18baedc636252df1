import type { LocaleInfo } from "../model/Locale.js"
import type { StoredTrip } from "../model/StoredTrip.js"
import type { JsonObject } from "../RequestContext.js"
import { formatIsoWithOffset, formatLocalDate } from "./localTime.js"
import { type CityNamer, renderCar, renderPlace, renderStopPlace, renderValue, roundHalfUp } from "./renderParts.js"
import { departureMeetingPoint, endPlace, renderTripLinks, renderTripPrices, type TripLinks } from "./renderSearchTrip.js"
import { type MeetingPointsById, waypointLocalMs, type SegmentView } from "./SegmentView.js"
import type { RoadStop } from "../road/roadStops.js"

/**
 * The stops a trip detail lists, in road order: the waypoints, and the segment's ends that lie
 * along the road (not the trip's other stops along the road).
 */
const listedStops = (view: SegmentView, n: number): Array<{ readonly k: number } | { readonly stop: RoadStop; readonly end: "from" | "to" }> => {
  const out: Array<{ readonly k: number } | { readonly stop: RoadStop; readonly end: "from" | "to" }> = []
  const along = [
    ...(view.fromStop !== undefined ? [{ stop: view.fromStop, end: "from" as const }] : []),
    ...(view.toStop !== undefined ? [{ stop: view.toStop, end: "to" as const }] : [])
  ]
  for (let k = 0; k <= n; k++) {
    out.push({ k })
    for (const a of along) if (a.stop.leg === k) out.push(a)
  }
  return out
}

/** The Trip detail object (docs/API.md, TripDetail). */
export const renderTripDetail = (
  view: SegmentView<StoredTrip>,
  locale: LocaleInfo,
  links: TripLinks,
  nowMs: number,
  cityName: CityNamer,
  meetingPoints: MeetingPointsById = new Map()
): JsonObject => {
  const { stored } = view
  const { trip } = stored
  const passed = view.departureUtcMs < nowMs
  // The segment's departure stop: a meeting point along the road is where this passenger boards,
  // whatever country the waypoint before it is in.
  const departureCountry = view.fromStop !== undefined ? meetingPoints.get(view.fromStop.mp)!.country : trip.waypoints[view.i]!.country
  const listed = listedStops(view, trip.waypoints.length - 1)
  const meetingPoint = departureMeetingPoint(view, meetingPoints, cityName)
  const departureMs = Date.parse(trip.departure_time)
  return {
    links: renderTripLinks(view, locale, links),
    departure_date: formatLocalDate(view.departureLocalMs),
    departure_date_iso8601: formatIsoWithOffset(view.departureUtcMs, view.fromStop?.zoneOffsetMin ?? stored.zoneOffsets[view.i]!),
    is_passed: passed,
    departure_place: endPlace(view, "from", meetingPoints, cityName),
    arrival_place: endPlace(view, "to", meetingPoints, cityName),
    ...(meetingPoint !== undefined ? { departure_meeting_point: meetingPoint } : {}),
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
    stop_overs: listed.map((entry) =>
      "k" in entry
        ? renderPlace(trip, entry.k, cityName, {
            ...(entry.k === view.i && view.fromStop === undefined ? { departure_place: true } : {}),
            ...(entry.k === view.j && view.toStop === undefined ? { arrival_place: true } : {})
          })
        : renderStopPlace(meetingPoints.get(entry.stop.mp)!, cityName, entry.end === "from" ? { departure_place: true } : { arrival_place: true })
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
    trip_plan: listed.map((entry) => {
      if ("k" in entry) {
        const w = trip.waypoints[entry.k]!
        return {
          date: formatLocalDate(waypointLocalMs(stored, entry.k)),
          city: cityName(w),
          ...(w.address !== undefined ? { address: w.address } : {}),
          latitude: w.lat,
          longitude: w.lon,
          country_code: w.country,
          ...(w.meeting_point_id !== undefined ? { meeting_point_id: w.meeting_point_id } : {}),
          partner_shuttle_enabled: false
        }
      }
      const mp = meetingPoints.get(entry.stop.mp)!
      return {
        date: formatLocalDate(departureMs + (entry.stop.offsetMin + entry.stop.zoneOffsetMin) * 60_000),
        city: cityName(mp),
        ...(mp.address !== undefined ? { address: mp.address } : {}),
        latitude: mp.lat,
        longitude: mp.lon,
        country_code: mp.country,
        meeting_point_id: mp.id,
        partner_shuttle_enabled: false
      }
    }),
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

