import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import type { Gazetteer, GazetteerCity } from "@tripsearch/gazetteer"
import { Option } from "effect"
import { type Html, html } from "./html.js"
import type { Translate } from "./messages/catalogue.js"
import { nearestPlaces } from "./nearestPlaces.js"
import { PICKED, searchHref, type SearchParams } from "./searchPage.js"

export { PICKED }
import type { MapData, MapStop, MapTiles } from "./tripMapData.js"

/** A place name beyond which a town counts as far from the other end (its namesake may be meant). */
export const FAR_KM = 1_000

/** How the page read one of the search's place names. */
export interface PlaceRead {
  readonly param: "fn" | "tn"
  readonly text: string
  /** The town the name resolves to (none: unknown). */
  readonly city: GazetteerCity | undefined
  /** Other towns of that name, most populous first (only when the text names no country). */
  readonly others: ReadonlyArray<GazetteerCity>
  /** For an unknown name, the nearest names the gazetteer has. */
  readonly nearest: ReadonlyArray<GazetteerCity>
  /** Over `FAR_KM` from the other end, or in another country than the locale's. */
  readonly surprising: boolean
  /** The town is the one a suggestion picked (`fid`/`tid`), not the name's most populous. */
  readonly picked: boolean
}


interface End {
  readonly name: string
  readonly lat: number
  readonly lon: number
}

const haversineKm = (a: End, b: End): number => {
  const r = Math.PI / 180
  const h = Math.sin(((b.lat - a.lat) * r) / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lon - a.lon) * r) / 2) ** 2
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)))
}

const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*\|\s*(-?\d+(?:\.\d+)?)\s*$/

const regionNames = new Map<string, Intl.DisplayNames>()
/** A country's name in the locale's language. */
export const countryName = (code: string, locale: LocaleCode): string => {
  let names = regionNames.get(locale)
  if (names === undefined) regionNames.set(locale, (names = new Intl.DisplayNames([LOCALE_TABLE[locale].bcp47], { type: "region" })))
  return names.of(code) ?? code
}


/**
 * A town as the page names it: with the larger town near it when a namesake of its country reads
 * the same (`Lyons (vers Vidalia)`), as its suggestion did.
 */
export const townLabel = (gazetteer: Gazetteer, city: GazetteerCity, locale: LocaleCode, t: Translate): string => {
  const near = gazetteer.nearTown(city, locale)
  return near === undefined ? gazetteer.shownName(city, locale) : t("near_town", { name: gazetteer.shownName(city, locale), town: near })
}

/** `townLabel` and its country: `Lyons (vers Vidalia), États-Unis`. */
export const placeLabel = (gazetteer: Gazetteer, city: GazetteerCity, locale: LocaleCode, t: Translate): string =>
  `${townLabel(gazetteer, city, locale, t)}, ${countryName(city.country, locale)}`

/** The town a picked suggestion's id names, when the field still names it (else the pick was edited away). */
const pickedCity = (gazetteer: Gazetteer, text: string, id: string | undefined): GazetteerCity | undefined => {
  if (id === undefined || !/^[1-9]\d{0,11}$/.test(id)) return undefined
  const city = gazetteer.city(Number(id))
  const name = text.split(",")[0] ?? ""
  return city !== undefined && gazetteer.candidates(name).some((c) => c.id === city.id) ? city : undefined
}

/**
 * A town as a place field takes it back: its name and its country in the locale's language, which
 * the API reads (`Mnichov, Německo`), as a picked suggestion writes it.
 */
export const placeText = (gazetteer: Gazetteer, city: GazetteerCity, locale: LocaleCode): string =>
  `${gazetteer.shownName(city, locale)}, ${countryName(city.country, locale)}`

/**
 * The search's ends as the page reads them: `fc`/`tc` coordinates when given (as the API prefers
 * them), else the town a suggestion picked (`fid`/`tid`, while the field still names it), else the
 * names resolved by the gazetteer with the API's rules (the locale's country first). With `t`, a
 * town with a namesake is named with the larger town near it.
 */
export const readPlaces = (
  gazetteer: Gazetteer,
  params: SearchParams,
  locale: LocaleCode,
  t?: Translate
): { readonly reads: ReadonlyArray<PlaceRead>; readonly from?: End | undefined; readonly to?: End | undefined } => {
  const country = LOCALE_TABLE[locale].country
  const ends: Partial<Record<"fn" | "tn", End>> = {}
  const cities: Partial<Record<"fn" | "tn", GazetteerCity>> = {}
  const named: Array<"fn" | "tn"> = []
  const picked = new Set<"fn" | "tn">()
  for (const [param, coords] of [["fn", "fc"], ["tn", "tc"]] as const) {
    const c = COORDINATES.exec(params.get(coords) ?? "")
    if (c !== null) {
      ends[param] = { name: params.get(coords)!, lat: Number(c[1]), lon: Number(c[2]) }
      continue
    }
    const text = params.get(param)
    if (text === undefined || text.trim() === "") continue
    named.push(param)
    const pick = pickedCity(gazetteer, text, params.get(PICKED[param]))
    if (pick !== undefined) picked.add(param)
    const city = pick ?? Option.getOrUndefined(gazetteer.resolveCity(text, country))
    if (city !== undefined) {
      cities[param] = city
      ends[param] = { name: t === undefined ? placeText(gazetteer, city, locale) : placeLabel(gazetteer, city, locale, t), lat: city.lat, lon: city.lon }
    }
  }
  const reads = named.map((param): PlaceRead => {
    const text = params.get(param)!
    const city = cities[param]
    const other = ends[param === "fn" ? "tn" : "fn"]
    if (city === undefined)
      return { param, text, city, others: [], nearest: nearestPlaces(gazetteer, text, country, 5, locale), surprising: false, picked: false }
    const surprising = city.country !== country || (other !== undefined && haversineKm(ends[param]!, other) > FAR_KM)
    // A name with a country part (a picked suggestion's, or typed) leaves only that country's
    // namesakes in doubt. Each is offered by its id, so that its link searches that very town.
    const others = gazetteer
      .candidates(text.split(",")[0] ?? "")
      .filter((c) => c.id !== city.id && (!text.includes(",") || c.country === city.country))
      .sort((a, b) => b.population - a.population || a.id - b.id)
      .slice(0, 5)
    return { param, text, city, others, nearest: [], surprising, picked: picked.has(param) }
  })
  return { reads, from: ends.fn, to: ends.tn }
}

const links = (gazetteer: Gazetteer, cities: ReadonlyArray<GazetteerCity>, param: "fn" | "tn", params: SearchParams, locale: LocaleCode, t: Translate): Html =>
  html`<ul>${cities.map(
    (c) =>
      html`<li><a href="${searchHref(params, { [param]: placeText(gazetteer, c, locale), [PICKED[param]]: String(c.id), page: undefined })}">${placeLabel(
        gazetteer,
        c,
        locale,
        t
      )}</a></li>`
  )}</ul>`

/**
 * What the page says of the names: an unknown one with the nearest names (each a link that
 * searches it), a surprising one with the town understood and the other towns of that name.
 */
export const placeNotice = (gazetteer: Gazetteer, reads: ReadonlyArray<PlaceRead>, params: SearchParams, locale: LocaleCode, t: Translate): Html | undefined => {
  const parts = reads.flatMap((r) =>
    r.city === undefined
      ? [
          html`<div class="place-unknown" data-param="${r.param}"><p>${t("place_unknown", { name: r.text })}</p>${
            r.nearest.length > 0 ? html`<p>${t("did_you_mean")}</p>${links(gazetteer, r.nearest, r.param, params, locale, t)}` : ""
          }</div>`
        ]
      : r.surprising
        ? [
            html`<div class="place-understood" data-param="${r.param}"><p>${t("understood", {
              name: r.text,
              city: townLabel(gazetteer, r.city, locale, t),
              country: countryName(r.city.country, locale)
            })}</p>${r.others.length > 0 ? html`<p>${t("other_places")}</p>${links(gazetteer, r.others, r.param, params, locale, t)}` : ""}</div>`
          ]
        : []
  )
  return parts.length === 0 ? undefined : html`<section class="notice" role="status">${parts}</section>`
}

/** The search page's map: the places searched, labelled, and the line between them. */
export const placesMapData = (from: End | undefined, to: End | undefined, tiles: MapTiles, t: Translate): MapData | undefined => {
  const stops: Array<MapStop> = []
  if (from !== undefined) stops.push({ ...from, role: "from", label: t("labelled", { label: t("from"), value: from.name }) })
  if (to !== undefined) stops.push({ ...to, role: "to", label: t("labelled", { label: t("to"), value: to.name }) })
  if (stops.length === 0) return undefined
  const line = from !== undefined && to !== undefined ? [[from.lat, from.lon] as const, [to.lat, to.lon] as const] : []
  return { tiles, road: line, part: line, stops }
}
