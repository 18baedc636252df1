import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { type Html, html } from "./html.js"
import { facetDate, formatLocalDate } from "./localDate.js"
import type { MessageKey, Translate } from "./messages/catalogue.js"

// The API's Search response, as far as the page reads it.
type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** The parameters of the search as the API received them: one value each (repeats are refused before). */
export type SearchParams = ReadonlyMap<string, string>

/** `/search` with the page's parameters changed (`undefined` removes one); a new filter goes back to page 1. */
export const searchHref = (params: SearchParams, changes: Readonly<Record<string, string | undefined>>): string => {
  const next = new URLSearchParams()
  for (const [name, value] of params) if (!(name in changes)) next.append(name, value)
  for (const [name, value] of Object.entries(changes)) if (value !== undefined) next.append(name, value)
  return `/search?${next.toString()}`
}

/** The `/trip` page of a trip, in the locale and currency of the search. */
export const tripHref = (permanentId: string, params: SearchParams): string => {
  const q = new URLSearchParams()
  for (const name of ["locale", "cur"]) if (params.has(name)) q.append(name, params.get(name)!)
  return `/trip/${encodeURIComponent(permanentId)}?${q.toString()}`
}

const input = (params: SearchParams, name: string, label: string, attrs: { type?: string; min?: number; max?: number; hint?: string } = {}) =>
  html`<label>${label}<input name="${name}" type="${attrs.type ?? "text"}" value="${name === "db" ? params.get(name)?.slice(0, 10) : params.get(name)}"${
    attrs.min !== undefined ? html` min="${attrs.min}"` : ""
  }${attrs.max !== undefined ? html` max="${attrs.max}"` : ""}${attrs.hint !== undefined ? html` placeholder="${attrs.hint}"` : ""}></label>`

const select = (params: SearchParams, name: string, label: string, options: ReadonlyArray<readonly [string, string]>) =>
  html`<label>${label}<select name="${name}">${options.map(
    ([value, text]) => html`<option value="${value}"${params.get(name) === value ? html` selected` : ""}>${text}</option>`
  )}</select></label>`

const checkbox = (params: SearchParams, name: string, label: string) =>
  html`<label><span><input type="checkbox" name="${name}" value="1"${params.get(name) === "1" || params.get(name) === "true" ? html` checked` : ""}> ${label}</span></label>`

// Parameters the form has no field for, carried through as they are.
const CARRIED = ["locale", "cur", "de", "limit", "radius", "radius_from", "radius_to", "shortlines"]

// The form's fields beyond places, date and seats: folded on a first visit, open once one is set.
const MORE = ["fc", "tc", "hb", "he", "pmin", "pmax", "sort", "order", "photo", "aa"]

const searchForm = (params: SearchParams, t: Translate): Html =>
  html`<form method="get" action="/search" role="search">
${CARRIED.filter((n) => params.has(n)).map((n) => html`<input type="hidden" name="${n}" value="${params.get(n)}">`)}
${input(params, "fn", t("from"), { hint: t("place_hint") })}${input(params, "tn", t("to"), { hint: t("place_hint") })}
${input(params, "db", t("date"), { type: "date" })}${input(params, "seats", t("seats"), { type: "number", min: 1, max: 8 })}
<details class="more"${MORE.some((n) => params.has(n)) ? html` open` : ""}><summary>${t("more_criteria")}</summary><div class="fields">
${input(params, "fc", t("from_coordinates"), { hint: "48.8566|2.3522" })}${input(params, "tc", t("to_coordinates"), { hint: "45.764|4.8357" })}
${input(params, "hb", t("hour_from"), { type: "number", min: 0, max: 23 })}${input(params, "he", t("hour_to"), { type: "number", min: 1, max: 24 })}
${input(params, "pmin", t("price_min"), { type: "number", min: 0 })}${input(params, "pmax", t("price_max"), { type: "number", min: 0 })}
${select(params, "sort", t("sort"), [["", t("any")], ["trip_date", t("sort_trip_date")], ["trip_price", t("sort_trip_price")]])}
${select(params, "order", t("order"), [["asc", t("order_asc")], ["desc", t("order_desc")]])}
${checkbox(params, "photo", t("photo"))}${checkbox(params, "aa", t("auto_approval"))}</div></details>
<button type="submit">${t("search_button")}</button></form>`

/** Facets with more values than this are shown folded. */
const FOLDED_FACET = 8

/** Which parameters a facet's item sets; none for facets the API cannot filter on. */
const facetChanges = (name: string, value: number): Record<string, string | undefined> | undefined => {
  switch (name) {
    case "seats":
      return { seats: String(value) }
    case "date":
      return { db: facetDate(value), de: facetDate(value) }
    case "hour":
      return { hb: String(value), he: String(value + 1) }
    case "price":
      // The facet counts prices by their whole units: `value` stands for [value, value + 1).
      return { pmin: String(value), pmax: String(value + 1) }
    case "photo":
      return { photo: value === 1 ? "1" : undefined }
    default:
      return undefined
  }
}

const facetLabel = (name: string, value: number, locale: LocaleCode, t: Translate): string =>
  name === "date"
    ? new Intl.DateTimeFormat(LOCALE_TABLE[locale].bcp47, { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(`${facetDate(value)}T00:00:00Z`))
    : name === "hour"
      ? `${String(value).padStart(2, "0")}:00`
      : name === "photo"
        ? t(value === 1 ? "yes" : "no")
        : String(value)

const facets = (list: ReadonlyArray<Json>, params: SearchParams, locale: LocaleCode, t: Translate): Html =>
  html`<h2>${t("filters")}</h2><section class="facets" aria-label="${t("filters")}">${list.map((facet) => {
    const items = (facet.items as ReadonlyArray<Json>).filter((item) => item.count > 0 || item.is_selected)
    if (items.length === 0) return html``
    const title = t(`facet_${String(facet.name)}` as MessageKey)
    const list = html`<ul>${items.map((item) => {
      const label = `${facetLabel(String(facet.name), Number(item.value), locale, t)} (${Number(item.count)})`
      const changes = facetChanges(String(facet.name), Number(item.value))
      const cls = item.is_selected === true ? "selected" : undefined
      return changes === undefined
        ? html`<li class="${cls}">${label}</li>`
        : html`<li class="${cls}"><a href="${searchHref(params, { ...changes, page: undefined })}">${label}</a></li>`
    })}</ul>`
    // A facet of many values (dates, hours, prices) is folded unless one of them is selected.
    return items.length > FOLDED_FACET && !items.some((item) => item.is_selected === true)
      ? html`<details class="facet" data-facet="${facet.name}"><summary><h3>${title}</h3></summary>${list}</details>`
      : html`<div class="facet" data-facet="${facet.name}"><h3>${title}</h3>${list}</div>`
  })}</section>`

const tripItem = (trip: Json, params: SearchParams, locale: LocaleCode, t: Translate): Html =>
  html`<li data-id="${trip.permanent_id}"><a href="${tripHref(String(trip.permanent_id), params)}"><strong>${trip.departure_place.city_name} → ${
    trip.arrival_place.city_name
  }</strong></a><br>${formatLocalDate(String(trip.departure_date), locale)} · <strong>${trip.price.string_value}</strong> · ${t("seats_left", {
    left: trip.seats_left,
    seats: trip.seats
  })} · ${trip.car.make} ${trip.car.model} · ${t(`booking_mode_${String(trip.booking_mode)}` as MessageKey)}</li>`

const pager = (p: Json, params: SearchParams, t: Translate): Html => {
  const page = Number(p.page)
  const pages = Number(p.pages)
  if (pages <= 1) return html``
  const numbers = [...new Set([1, page - 2, page - 1, page, page + 1, page + 2, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b)
  return html`<nav class="pages" aria-label="${t("pages")}"><p>${t("page_of", { page, pages })}</p>${
    page > 1 ? html`<a rel="prev" href="${searchHref(params, { page: String(page - 1) })}">${t("previous")}</a>` : ""
  }${numbers.map((n) =>
    n === page ? html`<span aria-current="page">${n}</span>` : html`<a href="${searchHref(params, { page: String(n) })}">${n}</a>`
  )}${page < pages ? html`<a rel="next" href="${searchHref(params, { page: String(page + 1) })}">${t("next")}</a>` : ""}</nav>`
}

/** The API's `top_trips` (page 1): the recommended rides, apart from the list so that its order stays the API's. */
const topTrips = (trips: ReadonlyArray<Json> | undefined, params: SearchParams, locale: LocaleCode, t: Translate): Html =>
  trips === undefined || trips.length === 0
    ? html``
    : html`<section class="top-trips" aria-labelledby="top-trips"><h2 id="top-trips">${t("top_trips")}</h2><ul>${trips.map(
        (trip) =>
          html`<li data-top-id="${trip.permanent_id}"><a href="${tripHref(String(trip.permanent_id), params)}">${trip.departure_place.city_name} → ${
            trip.arrival_place.city_name
          }</a> · ${formatLocalDate(String(trip.departure_date), locale)} · <strong>${trip.price.string_value}</strong></li>`
      )}</ul></section>`

/** The title and content of `/search` over the API's Search response for `params`. */
export const searchPage = (body: Json, params: SearchParams, locale: LocaleCode, t: Translate): { readonly title: string; readonly content: Html } => {
  const from = params.get("fn") ?? params.get("fc")
  const to = params.get("tn") ?? params.get("tc")
  const searched = from !== undefined || to !== undefined
  const title = searched ? t("search_results_title", { from: from ?? "…", to: to ?? "…" }) : t("search_title")
  const trips = body.trips as ReadonlyArray<Json>
  return {
    title,
    content: html`<h1>${title}</h1>${searchForm(params, t)}${
      searched
        ? // The rides come first in the document (a phone shows them before the filters); a wide
          // screen puts the filters in a column beside them.
          html`<div class="results"><div class="list">${topTrips(body.top_trips, params, locale, t)}<h2 class="total">${t("results", {
            total: Number(body.pager.total)
          })}</h2>${
            trips.length === 0 ? html`<p>${t("no_results")}</p>` : html`<ol class="trips">${trips.map((trip) => tripItem(trip, params, locale, t))}</ol>`
          }${pager(body.pager, params, t)}</div><aside class="filters">${facets(body.facets, params, locale, t)}</aside></div>`
        : ""
    }`
  }
}
