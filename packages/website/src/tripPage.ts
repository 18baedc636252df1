import type { LocaleCode } from "@tripsearch/core"
import { type Html, html } from "./html.js"
import { formatIsoLocal, formatLocalDate } from "./localDate.js"
import type { MessageKey, Translate } from "./messages/catalogue.js"
import { carColour } from "./carColour.js"
import { labelled } from "./labelled.js"
import { routeSvg } from "./routeSvg.js"
import { mapBlock, type MapData, type PassengerEnds, passengerEnds } from "./tripMapData.js"
import { formatDuration, formatKm } from "./units.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Oldest question first: the API lists threads in the feed's order, which says nothing of time
 * (docs/API.md gives the threads no order). Equal times keep the API's order.
 */
export const threadsByDate = (threads: ReadonlyArray<Json>): ReadonlyArray<Json> =>
  threads
    .map((q, k) => ({ q, k, at: Date.parse(String(q.asked_at)) }))
    .sort((a, b) => (Number.isNaN(a.at) || Number.isNaN(b.at) ? Number(Number.isNaN(a.at)) - Number(Number.isNaN(b.at)) : a.at - b.at) || a.k - b.k)
    .map((e) => e.q)

/** The driver's public questions and answers (the API's `threads` of the trip); nothing when there are none. */
const questions = (threads: ReadonlyArray<Json>, locale: LocaleCode, t: Translate): Html =>
  threads.length === 0
    ? html``
    : html`<section aria-labelledby="questions"><h2 id="questions">${t("questions")}</h2><dl class="qa">${threadsByDate(threads).map(
        (q) => html`<dt>${q.question} <small>(<time datetime="${q.asked_at}">${formatIsoLocal(String(q.asked_at), locale)}</time>)</small></dt>${
          typeof q.answer === "string"
            ? html`<dd class="answer">${q.answer}${
                typeof q.answered_at === "string"
                  ? html` <small>(<time datetime="${q.answered_at}">${formatIsoLocal(q.answered_at, locale)}</time>)</small>`
                  : ""
              }</dd>`
            : html`<dd class="unanswered">${t("not_answered")}</dd>`
        }`
      )}</dl></section>`

/** The title and content of `/trip/{id}` over the API's TripDetail of that id and its threads. */
export const tripPage = (
  trip: Json,
  threads: ReadonlyArray<Json>,
  query: string,
  locale: LocaleCode,
  t: Translate,
  /** The map's data and where Leaflet is (none: the SVG drawing alone). */
  map?: { readonly data: MapData; readonly leaflet: string } | undefined,
  /** How this passenger's pickup and drop-off are named, as on the map. */
  ends: PassengerEnds = passengerEnds(trip)
): { readonly title: string; readonly content: Html } => {
  const stops = trip.stop_overs as ReadonlyArray<Json>
  const plan = trip.trip_plan as ReadonlyArray<Json>
  const from = Math.max(0, stops.findIndex((s) => s.departure_place === true))
  const to = Math.max(from, stops.findIndex((s) => s.arrival_place === true))
  const title = t("trip_title", { from: String(trip.departure_place.city_name), to: String(trip.arrival_place.city_name) })
  const car = trip.car as Json
  return {
    title,
    content: html`<h1>${title}</h1>
<p>${labelled(t, t("departure"), html`<strong>${formatLocalDate(String(trip.departure_date), locale)}</strong>`)} · ${labelled(
      t,
      t("price"),
      html`<strong class="price">${trip.price.string_value}</strong>`
    )} · <span class="seats">${t("seats_left", { left: Number(trip.seats_left), seats: Number(trip.seats) })}</span>${
      Number(trip.seats_left) === 0 ? html` <span class="badge">${t("full")}</span>` : ""
    }</p>
<p class="ends"><span data-end="pickup">${t("labelled", { label: t("pickup"), value: ends.pickup })}</span><br><span data-end="dropoff">${t("labelled", {
      label: t("dropoff"),
      value: ends.dropoff
    })}</span></p>
${trip.is_passed === true ? html`<p class="passed">${t("trip_passed")}</p>` : ""}
<h2>${t("stop_overs")}</h2>
<ol class="stop-overs">${stops.map((s, k) => {
      const part = k >= from && k <= to
      return html`<li${part ? html` class="searched"` : ""}><time>${formatLocalDate(String(plan[k]?.date ?? ""), locale)}</time> ${s.city_name}${
        s.address !== undefined ? html`, ${s.address}` : ""
      }${k === from ? html` (${t("departure")}, ${t("searched_part")})` : k === to ? html` (${t("arrival")})` : ""}</li>`
    })}</ol>
${map !== undefined ? mapBlock(map.data, t("route_map"), map.leaflet) : ""}<figure class="route-fallback">${routeSvg(
      stops.map((s) => ({ city: String(s.city_name), lat: Number(s.latitude), lon: Number(s.longitude) })),
      from,
      to,
      t("route_map")
    )}</figure>
<dl class="facts">
<dt>${t("duration")}</dt><dd>${formatDuration(Number(trip.duration.value), locale)}</dd>
<dt>${t("distance")}</dt><dd>${formatKm(Number(trip.distance.value) * 1000, locale)}</dd>
<dt>${t("car")}</dt><dd class="car">${car.make} ${car.model}${typeof car.color === "string" ? html`, ${carColour(car.color, t)}` : ""} · ${t("comfort_stars", {
      stars: Number(car.comfort_nb_star)
    })}</dd>
<dt>${t("seats")}</dt><dd>${t("seats_left", { left: Number(trip.seats_left), seats: Number(trip.seats) })}</dd>
<dt>${t("booking")}</dt><dd class="booking">${t(`booking_mode_${String(trip.booking_mode)}` as MessageKey)}, ${t(
      `booking_type_${String(trip.booking_type)}` as MessageKey
    )}</dd>
</dl>
${typeof trip.comment === "string" ? html`<h2>${t("driver_comment")}</h2><blockquote class="comment">${trip.comment}</blockquote>` : ""}
${questions(threads, locale, t)}
${trip.main_permanent_id !== undefined ? html`<p><a href="/trip/${encodeURIComponent(String(trip.main_permanent_id))}?${query}">${t("whole_trip")}</a></p>` : ""}`
  }
}
