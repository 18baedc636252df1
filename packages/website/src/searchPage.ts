import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { type Html, html } from "./html.js"
import { facetDate, formatLocalDate } from "./localDate.js"
import type { MessageKey, Translate } from "./messages/catalogue.js"
import { formatKm } from "./units.js"

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

const input = (
  params: SearchParams,
  name: string,
  label: string,
  attrs: { type?: string; min?: number | string; max?: number; hint?: string; invalid?: ReadonlySet<string> | undefined } = {}
) =>
  html`<label>${label}<input name="${name}" type="${attrs.type ?? "text"}" value="${name === "db" ? params.get(name)?.slice(0, 10) : params.get(name)}"${
    attrs.min !== undefined ? html` min="${attrs.min}"` : ""
  }${attrs.max !== undefined ? html` max="${attrs.max}"` : ""}${attrs.hint !== undefined ? html` placeholder="${attrs.hint}"` : ""}${
    attrs.invalid?.has(name) === true ? html` aria-invalid="true"` : ""
  }></label>`

/**
 * The earliest day that is today somewhere the service's travellers are (UTC-12 aside): a search
 * before it can only be in the past, wherever the traveller is.
 */
export const earliestToday = (now: number = Date.now()): string => new Date(now - 12 * 3_600_000).toISOString().slice(0, 10)

/**
 * The parameter a picked suggestion's GeoNames id rides in, beside its field's `Town, Country`: the
 * name alone resolves to the most populous namesake, not to the Lyons picked near Vidalia.
 */
export const PICKED = { fn: "fid", tn: "tid" } as const

/**
 * A place field: a town's name. The site's script turns it into a combobox that suggests towns
 * (name and country) as one types; without it, the field is plain text the API reads. A town
 * picked also writes its id in a hidden field (`PICKED`), which the script empties when the
 * field is edited.
 */
const placeInput = (params: SearchParams, name: "fn" | "tn", label: string, locale: LocaleCode, t: Translate) =>
  html`<div class="place"><label for="${name}">${label}</label><input id="${name}" name="${name}" type="text" value="${params.get(name)}" data-pick="${PICKED[name]}" placeholder="${t("place_hint")}" autocomplete="off" spellcheck="false" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="${name}-suggestions" data-suggest data-locale="${locale}"><ul id="${name}-suggestions" class="suggestions" role="listbox" aria-label="${t(
    "suggestions"
  )}" hidden></ul>${params.has(PICKED[name]) ? html`<input type="hidden" name="${PICKED[name]}" value="${params.get(PICKED[name])}">` : ""}</div>`

const select = (params: SearchParams, name: string, label: string, options: ReadonlyArray<readonly [string, string]>) =>
  html`<label>${label}<select name="${name}">${options.map(
    ([value, text]) => html`<option value="${value}"${params.get(name) === value ? html` selected` : ""}>${text}</option>`
  )}</select></label>`

const checkbox = (params: SearchParams, name: string, label: string) =>
  html`<label><span><input type="checkbox" name="${name}" value="1"${params.get(name) === "1" || params.get(name) === "true" ? html` checked` : ""}> ${label}</span></label>`

// Parameters the form has no field for, carried through as they are (`experience` and `comfort`
// are the website's own filters, applied over the API's answer).
const CARRIED = ["locale", "cur", "de", "limit", "radius", "radius_from", "radius_to", "shortlines", "experience", "comfort"]

// The form's fields beyond places, date and seats: folded on a first visit, open once one is set.
const MORE = ["fc", "tc", "hb", "he", "pmin", "pmax", "sort", "order", "photo", "aa"]

/**
 * Whether one of the folded fields is set: the form sends `order` with every search (a select has
 * no blank choice), so its default `asc` alone leaves them folded.
 */
export const moreSet = (params: SearchParams): boolean => MORE.some((n) => params.has(n) && params.get(n) !== "" && !(n === "order" && params.get(n) === "asc"))

/** The search form; `invalid`: the fields a refusal named (marked `aria-invalid`). */
export const searchForm = (params: SearchParams, locale: LocaleCode, t: Translate, invalid?: ReadonlySet<string>): Html =>
  html`<form method="get" action="/search" role="search">
${CARRIED.filter((n) => params.has(n)).map((n) => html`<input type="hidden" name="${n}" value="${params.get(n)}">`)}
${placeInput(params, "fn", t("from"), locale, t)}${placeInput(params, "tn", t("to"), locale, t)}
${input(params, "db", t("date"), { type: "date", min: earliestToday(), invalid })}${input(params, "seats", t("seats"), { type: "number", min: 1, max: 8, invalid })}
<details class="more"${moreSet(params) ? html` open` : ""}><summary>${t("more_criteria")}</summary><div class="fields">
${input(params, "fc", t("from_coordinates"), { hint: "48.8566|2.3522", invalid })}${input(params, "tc", t("to_coordinates"), { hint: "45.764|4.8357", invalid })}
${input(params, "hb", t("hour_from"), { type: "number", min: 0, max: 23, invalid })}${input(params, "he", t("hour_to"), { type: "number", min: 1, max: 24, invalid })}
${input(params, "pmin", t("price_min"), { type: "number", min: 0, invalid })}${input(params, "pmax", t("price_max"), { type: "number", min: 1, invalid })}
${select(params, "sort", t("sort"), [["", t("any")], ["trip_date", t("sort_trip_date")], ["trip_price", t("sort_trip_price")]])}
${select(params, "order", t("order"), [["asc", t("order_asc")], ["desc", t("order_desc")]])}
${checkbox(params, "photo", t("photo"))}${checkbox(params, "aa", t("auto_approval"))}</div></details>
<button type="submit">${t("search_button")}</button></form>`

/** Facets with more values than this are shown folded. */
const FOLDED_FACET = 8

/** Which parameters a facet's item sets; none for facets nothing can filter on. */
const facetChanges = (name: string, value: number): Record<string, string | undefined> | undefined => {
  switch (name) {
    case "seats":
      return { seats: String(value) }
    case "date":
      return { db: facetDate(value), de: facetDate(value) }
    case "hour":
      return { hb: String(value), he: String(value + 1) }
    case "photo":
      return { photo: "1" }
    case "experience":
      return { experience: String(value) }
    case "car_comfort":
      return { comfort: String(value) }
    default:
      return undefined
  }
}

/** The parameters a facet's filter is made of: removing them removes the filter. */
const FACET_PARAMS: Readonly<Record<string, ReadonlyArray<string>>> = {
  seats: ["seats"],
  date: ["db", "de"],
  hour: ["hb", "he"],
  price: ["pmin", "pmax"],
  photo: ["photo"],
  experience: ["experience"],
  car_comfort: ["comfort"]
}

const removing = (names: ReadonlyArray<string>): Record<string, undefined> => Object.fromEntries(names.map((n) => [n, undefined]))

const facetLabel = (name: string, value: number, locale: LocaleCode, t: Translate): string =>
  name === "date"
    ? new Intl.DateTimeFormat(LOCALE_TABLE[locale].bcp47, { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(`${facetDate(value)}T00:00:00Z`))
    : name === "hour"
      ? `${String(value).padStart(2, "0")}:00`
      : name === "photo"
        ? t("with_photo")
        : name === "experience"
          ? t(`experience_${value}` as MessageKey)
          : name === "car_comfort"
            ? t("comfort_stars", { stars: value })
            : String(value)

/** A price range the API can select exactly: `pmin=min&pmax=max`, both inclusive. */
export interface PriceRange {
  readonly min: number
  readonly max: number
  /** The rides it selects, when the facet tells it exactly (none: it does not). */
  readonly count?: number | undefined
}

/**
 * Price ranges over the price facet's whole units, about `parts` of them with as many rides each.
 * The API's price filter is inclusive at both ends, so no range can select one whole unit alone
 * (27 to 28 takes the rides at 28.00 too). A range is cut where the next whole unit has no ride,
 * so that its count is the facet's sum exactly; where the prices leave no such gap, the ranges
 * share their ends and their counts are not shown, since the facet cannot tell them; so too
 * when one range cut at gaps would hold over `LOPSIDED` of the rides.
 */
/** The share of the rides beyond which one exact range makes the price facet useless. */
export const LOPSIDED = 0.6

export const priceRanges = (items: ReadonlyArray<{ readonly value: number; readonly count: number }>, parts = 5): ReadonlyArray<PriceRange> => {
  const floors = items.filter((i) => i.count > 0).sort((a, b) => a.value - b.value)
  const total = floors.reduce((n, i) => n + i.count, 0)
  const cut = (gapsOnly: boolean): Array<PriceRange> => {
    const out: Array<PriceRange> = []
    let start = 0
    let count = 0
    floors.forEach((item, k) => {
      count += item.count
      const next = floors[k + 1]
      const gap = next === undefined || next.value > item.value + 1
      if (next === undefined || (count >= total / parts && (gap || !gapsOnly))) {
        out.push({ min: floors[start]!.value, max: item.value + 1, count: gap ? count : undefined })
        start = k + 1
        count = 0
      }
    })
    return out
  }
  const exact = cut(true)
  if (floors.length < 2) return exact
  // A range holding most rides (23–53 € (808) beside 54–55 € (2)) narrows nothing: balanced
  // ranges, even with shared ends and fewer counts, are the better choice then.
  const lopsided = exact.some((r) => r.count !== undefined && r.count > LOPSIDED * total)
  return exact.length >= 2 && !lopsided ? exact : cut(false)
}

/** A price range in the locale's way with the search's currency: `27–28 €`, `£27 – £28`. */
export const formatPriceRange = (min: number, max: number, currency: string | undefined, locale: LocaleCode): string => {
  const tag = LOCALE_TABLE[locale].bcp47
  if (currency === undefined) return new Intl.NumberFormat(tag).formatRange(min, max)
  return new Intl.NumberFormat(tag, { style: "currency", currency, minimumFractionDigits: 0, maximumFractionDigits: 0 }).formatRange(min, max)
}

const countOf = (n: number, locale: LocaleCode): string => new Intl.NumberFormat(LOCALE_TABLE[locale].bcp47).format(n)

/**
 * The price facet: ranges that map exactly onto `pmin`/`pmax`; the range that is on first, with
 * the number of rides the API found for it, as a link that removes it.
 */
const priceItems = (facet: Json, params: SearchParams, total: number, locale: LocaleCode): ReadonlyArray<Html> => {
  const cur = params.get("cur")
  const pmin = Number(params.get("pmin"))
  const pmax = Number(params.get("pmax"))
  const on = params.has("pmin") && params.has("pmax") && Number.isSafeInteger(pmin) && Number.isSafeInteger(pmax)
  const ranges = priceRanges(facet.items as ReadonlyArray<{ value: number; count: number }>)
  if (!on && ranges.length < 2) return []
  const item = (range: PriceRange, selected: boolean) => {
    const label = `${formatPriceRange(range.min, range.max, cur, locale)}${range.count !== undefined ? ` (${countOf(range.count, locale)})` : ""}`
    const href = searchHref(params, selected ? { pmin: undefined, pmax: undefined, page: undefined } : { pmin: String(range.min), pmax: String(range.max), page: undefined })
    return html`<li${selected ? html` class="selected"` : ""}><a href="${href}" aria-pressed="${selected ? "true" : "false"}" role="button">${label}</a></li>`
  }
  return [
    ...(on ? [item({ min: pmin, max: pmax, count: total }, true)] : []),
    ...ranges.filter((r) => !on || r.min !== pmin || r.max !== pmax).map((r) => item(r, false))
  ]
}

/**
 * The facets: an item not selected is a link that applies its filter, a selected one a link that
 * removes it (`aria-pressed` tells which).
 */
const facets = (list: ReadonlyArray<Json>, params: SearchParams, total: number, locale: LocaleCode, t: Translate, scope?: Json): Html => {
  // The website's own facets, counted over the rides it filters: said once, under the first shown.
  let scoped = scope === undefined
  return html`<section class="facets" aria-label="${t("filters")}">${list.map((facet) => {
    const name = String(facet.name)
    const title = t(`facet_${name}` as MessageKey)
    if (name === "price") {
      const prices = priceItems(facet, params, total, locale)
      return prices.length === 0 ? html`` : html`<div class="facet" data-facet="price"><h3>${title}</h3><ul>${prices}</ul></div>`
    }
    // The API's photo=0 is no filter: only "with a photo" is a choice; the others are counted.
    const without = name === "photo" ? Number((facet.items as ReadonlyArray<Json>).find((item) => Number(item.value) === 0)?.count ?? 0) : 0
    const items = (facet.items as ReadonlyArray<Json>).filter((item) => (item.count > 0 || item.is_selected) && (name !== "photo" || Number(item.value) === 1))
    if (items.length === 0) return html``
    const list = html`<ul>${items.map((item) => {
      const label = `${facetLabel(name, Number(item.value), locale, t)} (${countOf(Number(item.count), locale)})`
      const changes = facetChanges(name, Number(item.value))
      const selected = item.is_selected === true
      if (changes === undefined) return html`<li>${label}</li>`
      const href = searchHref(params, { ...(selected ? removing(FACET_PARAMS[name] ?? []) : changes), page: undefined })
      return html`<li${selected ? html` class="selected"` : ""}><a href="${href}" aria-pressed="${selected ? "true" : "false"}" role="button">${label}</a></li>`
    })}${without > 0 ? html`<li class="count">${t("without_photo_count", { count: without })}</li>` : ""}</ul>${
      !scoped && (name === "experience" || name === "car_comfort") && (scoped = true)
        ? html`<p class="facet-scope">${t("filters_scope", { count: Number(scope!.counted), total: Number(scope!.total) })}</p>`
        : ""
    }`
    // A facet of many values (dates, hours, prices) is folded unless one of them is selected.
    return items.length > FOLDED_FACET && !items.some((item) => item.is_selected === true)
      ? html`<details class="facet" data-facet="${name}"><summary><h3>${title}</h3></summary>${list}</details>`
      : html`<div class="facet" data-facet="${name}"><h3>${title}</h3>${list}</div>`
  })}</section>`
}

/** A filter that is on: what it is, in words, and the link that removes it. */
interface ActiveFilter {
  readonly name: string
  readonly text: string
  readonly remove: string
}

const formatDay = (ymd: string, locale: LocaleCode): string =>
  /^\d{4}-\d{2}-\d{2}/.test(ymd)
    ? new Intl.DateTimeFormat(LOCALE_TABLE[locale].bcp47, { dateStyle: "medium", timeZone: "UTC" }).format(Date.parse(`${ymd.slice(0, 10)}T00:00:00Z`))
    : ymd

/** The filters of the search that are on, in the order of the facets. */
export const activeFilters = (params: SearchParams, locale: LocaleCode, t: Translate): ReadonlyArray<ActiveFilter> => {
  const out: Array<ActiveFilter> = []
  const add = (name: string, label: MessageKey, value: string, names: ReadonlyArray<string>) =>
    out.push({ name, text: t("labelled", { label: t(label), value }), remove: searchHref(params, { ...removing(names), page: undefined }) })
  const get = (n: string) => params.get(n)
  if (get("seats") !== undefined) add("seats", "facet_seats", String(get("seats")), ["seats"])
  if (get("db") !== undefined || get("de") !== undefined) {
    const days = [get("db"), get("de")].filter((d): d is string => d !== undefined).map((d) => formatDay(d, locale))
    add("date", "facet_date", [...new Set(days)].join(" – "), ["db", "de"])
  }
  if (get("hb") !== undefined || get("he") !== undefined) add("hour", "facet_hour", `${get("hb") ?? "0"}:00 – ${get("he") ?? "24"}:00`, ["hb", "he"])
  if (get("pmin") !== undefined && get("pmax") !== undefined)
    add("price", "facet_price", formatPriceRange(Number(get("pmin")), Number(get("pmax")), get("cur"), locale), ["pmin", "pmax"])
  if (get("photo") === "1" || get("photo") === "true") add("photo", "facet_photo", t("yes"), ["photo"])
  if (get("aa") === "1" || get("aa") === "true") add("aa", "auto_approval", t("yes"), ["aa"])
  const experience = get("experience")
  if (experience !== undefined && /^[0-4]$/.test(experience)) add("experience", "facet_experience", t(`experience_${experience}` as MessageKey), ["experience"])
  const comfort = get("comfort")
  if (comfort !== undefined && /^[1-4]$/.test(comfort)) add("car_comfort", "facet_car_comfort", t("comfort_stars", { stars: Number(comfort) }), ["comfort"])
  return out
}

const activeFiltersBlock = (filters: ReadonlyArray<ActiveFilter>, params: SearchParams, t: Translate): Html =>
  filters.length === 0
    ? html``
    : html`<section class="active-filters" aria-labelledby="active-filters"><h2 id="active-filters">${t("active_filters")}</h2><ul>${filters.map(
        (f) => html`<li data-filter="${f.name}"><span>${f.text}</span> <a href="${f.remove}">${t("remove_filter")}<span class="visually-hidden"> ${f.text}</span></a></li>`
      )}</ul><p><a href="${searchHref(params, { ...removing([...new Set(filters.flatMap((f) => FACET_PARAMS[f.name] ?? [f.name]))]), page: undefined })}">${t(
        "clear_filters"
      )}</a></p></section>`

/** What a ride's ends along the driver's road are said against: the searched towns, the meeting points' names. */
export interface AlongTheRoad {
  /** The searched departure town as the page names it: the resolved town in the locale, else what was typed. */
  readonly from?: string | undefined
  readonly to?: string | undefined
  /** A meeting point's name (the arrival's is not in the search answer); none when unknown. */
  readonly meetingPointName?: ((id: number) => string | undefined) | undefined
}

/** Which ends of a ride lie along the road: `{id}_m{meeting point}_{k}` and the like (the API's permanent ids). */
const ALONG_ENDS = /_(m?)(\d+)_(m?)(\d+)$/


/** A meeting point that `formatKm` would put at 0 km from the town searched: it is in the town. */
const inTown = (meters: number): boolean => meters < 50

/**
 * For a ride matched along the driver's road (`corridoring_type` CORRIDORING), where the traveller
 * is picked up or dropped off, and how far from the town searched: "Picked up at Gare de
 * Mâcon-Ville, 0.6 km from Mâcon".
 */
export const alongTheRoad = (trip: Json, along: AlongTheRoad, locale: LocaleCode, t: Translate): ReadonlyArray<{ readonly end: "pickup" | "dropoff"; readonly text: string }> => {
  const ends = trip.corridoring_type === "CORRIDORING" ? ALONG_ENDS.exec(String(trip.permanent_id)) : null
  if (ends === null) return []
  const meters = (routing: Json | undefined): number | undefined => {
    const m = Number(routing?.routes?.[0]?.distance_in_meters)
    return Number.isFinite(m) ? m : undefined
  }
  const out: Array<{ end: "pickup" | "dropoff"; text: string }> = []
  const from = meters(trip.departure_passenger_routing)
  if (ends[1] === "m" && from !== undefined && along.from !== undefined) {
    const mp = trip.departure_meeting_point as Json | undefined
    const place = typeof mp?.name === "string" ? mp.name : (along.meetingPointName?.(Number(ends[2])) ?? String(trip.departure_place.city_name))
    out.push({
      end: "pickup",
      text: inTown(from) ? t("picked_up_in_town", { place, town: along.from }) : t("picked_up_along", { place, distance: formatKm(from, locale), town: along.from })
    })
  }
  const to = meters(trip.arrival_passenger_routing)
  if (ends[3] === "m" && to !== undefined && along.to !== undefined) {
    const place = along.meetingPointName?.(Number(ends[4])) ?? String(trip.arrival_place.city_name)
    out.push({
      end: "dropoff",
      text: inTown(to) ? t("dropped_off_in_town", { place, town: along.to }) : t("dropped_off_along", { place, distance: formatKm(to, locale), town: along.to })
    })
  }
  return out
}

const tripItem = (trip: Json, params: SearchParams, locale: LocaleCode, t: Translate, along: AlongTheRoad): Html => {
  // A full trip stays in the list (the API lists it without `seats`), marked and greyed.
  const full = Number(trip.seats_left) === 0
  return html`<li data-id="${trip.permanent_id}"${full ? html` class="full"` : ""}>${full ? html`<span class="badge">${t("full")}</span> ` : ""}<a href="${tripHref(
    String(trip.permanent_id),
    params
  )}"><strong>${trip.departure_place.city_name} → ${trip.arrival_place.city_name}</strong></a><br>${formatLocalDate(
    String(trip.departure_date),
    locale
  )} · <strong>${trip.price.string_value}</strong> · ${t("seats_left", {
    left: Number(trip.seats_left),
    seats: Number(trip.seats)
  })} · ${trip.car.make} ${trip.car.model} · ${t(`booking_mode_${String(trip.booking_mode)}` as MessageKey)}${alongTheRoad(trip, along, locale, t).map(
    (line) => html`<br><span class="along" data-end="${line.end}">${line.text}</span>`
  )}</li>`
}

const pager = (p: Json, params: SearchParams, t: Translate): Html => {
  const page = Number(p.page)
  const pages = Number(p.pages)
  // A page past the last is said in the list's place, with a link to the last one.
  if (pages <= 1 || page > pages) return html``
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

/** What the page shows besides the API's answer: the places as understood, and their map. */
export interface SearchExtras {
  /** What was understood of the place names (or what they may have meant). */
  readonly notice?: Html | undefined
  /** The searched places' map. */
  readonly map?: Html | undefined
  /** What the rides matched along the driver's road are said against. */
  readonly along?: AlongTheRoad | undefined
  /** The searched places as the page names them (the resolved towns in its language); what was typed otherwise. */
  readonly heading?: { readonly from?: string | undefined; readonly to?: string | undefined } | undefined
  /** The form was sent (a field of it is in the address), not the home page opened. */
  readonly submitted?: boolean | undefined
}

/** What a search of no ride may be missing: a day that is past. */
const pastDay = (params: SearchParams): string | undefined => {
  const last = params.get("de") ?? params.get("db")
  return last !== undefined && /^\d{4}-\d{2}-\d{2}/.test(last) && last.slice(0, 10) < earliestToday() ? last.slice(0, 10) : undefined
}

/** Why the list is empty, in words, with a way on where there is one. */
const noRides = (body: Json, params: SearchParams, locale: LocaleCode, t: Translate): Html => {
  const page = Number(body.pager.page)
  const pages = Number(body.pager.pages)
  if (Number(body.pager.total) > 0 && page > pages) {
    return html`<p class="past-last">${t("page_past_last", { page, pages })} <a href="${searchHref(params, { page: pages > 1 ? String(pages) : undefined })}">${t("last_page")}</a></p>`
  }
  const past = pastDay(params)
  return past !== undefined ? html`<p class="date-past">${t("date_past", { date: formatDay(past, locale) })}</p>` : html`<p>${t("no_results")}</p>`
}

/** The title and content of `/search` over the API's Search response for `params`. */
export const searchPage = (
  body: Json,
  params: SearchParams,
  locale: LocaleCode,
  t: Translate,
  extras: SearchExtras = {}
): { readonly title: string; readonly content: Html } => {
  const from = extras.heading?.from ?? params.get("fn") ?? params.get("fc")
  const to = extras.heading?.to ?? params.get("tn") ?? params.get("tc")
  const searched = from !== undefined || to !== undefined
  const title = searched ? t("search_results_title", { from: from ?? "…", to: to ?? "…" }) : t("search_title")
  const trips = body.trips as ReadonlyArray<Json>
  const filters = activeFilters(params, locale, t)
  return {
    title,
    content: html`<h1>${title}</h1>${searchForm(params, locale, t)}${extras.notice}${
      !searched && extras.submitted === true ? html`<section class="notice" role="status"><p class="places-missing">${t("places_missing")}</p></section>` : ""
    }${
      searched
        ? // The rides come first in the document; a wide screen puts the filters in a column
          // beside them, a phone behind a button above them.
          html`${extras.map === undefined ? "" : html`<div class="places-map">${extras.map}</div>`}<div class="results"><a class="filters-button" href="#filters" aria-controls="filters">${t("filters")}${
            filters.length > 0 ? html` · ${t("filters_on", { count: filters.length })}` : ""
          }</a><div class="list">${activeFiltersBlock(filters, params, t)}${
            // The recommended rides are the API's, which knows nothing of the website's own filters.
            params.has("experience") || params.has("comfort") ? "" : topTrips(body.top_trips, params, locale, t)
          }<h2 class="total">${t("results", {
            total: Number(body.pager.total)
          })}</h2>${
            trips.length === 0 ? noRides(body, params, locale, t) : html`<ol class="trips">${trips.map((trip) => tripItem(trip, params, locale, t, extras.along ?? {}))}</ol>`
          }${pager(body.pager, params, t)}</div><aside class="filters" id="filters" tabindex="-1" aria-labelledby="filters-title"><h2 id="filters-title">${t(
            "filters"
          )}</h2>${facets(body.facets, params, Number(body.pager.total), locale, t, body.filter_scope)}</aside></div>`
        : ""
    }`
  }
}
