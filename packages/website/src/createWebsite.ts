import { gzipSync } from "node:zlib"
import express, { type Express, type Request, type Response } from "express"
import { Effect, type ManagedRuntime, Option } from "effect"
import { currenciesOf, isLocaleCode, LOCALE_TABLE, type LocaleCode, TripStore } from "@tripsearch/core"
import { Gazetteer } from "@tripsearch/gazetteer"
import {
  type ApiReply,
  answerReadRequest,
  errorBody,
  supportLinkOf,
  type LineSink,
  parseQuery,
  readApiRequest,
  redactQuery,
  type UseCases,
  type UseCaseServices
} from "@tripsearch/http-express"
import type { Registry } from "prom-client"
import { appleAppSiteAssociation, appLinkTags, type AppLinks, assetLinks } from "./appLinks.js"
import { CampaignCounter, campaignOf, isTrackingParameter, type PageName } from "./campaigns.js"
import { html } from "./html.js"
import { layout, type PageHead } from "./layout.js"
import { type MessageKey, translatorOf, type Translate } from "./messages/catalogue.js"
import { pickLocale } from "./pickLocale.js"
import type { PlaceSuggester } from "./PlaceSuggester.js"
import { countryName, PICKED, placeNotice, placesMapData, placeText, readPlaces, townLabel } from "./placeReading.js"
import { searchForm, searchPage, type SearchParams } from "./searchPage.js"
import { suggestionLabels } from "./suggestionLabels.js"
import { tripPage } from "./tripPage.js"
import { mapBlock, type MapTiles, OSM_TILES, passengerEnds, tripMapData } from "./tripMapData.js"
import { tripIdOf, WEBSITE_FILTER_PAGES, websiteFiltered, websiteFiltersValid, websiteFilterValues, WEBSITE_FILTERS } from "./websiteFilters.js"
import { WebsiteAssets } from "./websiteAssets.js"
import { developersPage, errorsPage } from "./developersPage.js"

export interface WebsiteOptions {
  /** The API's runtime: the pages run the API's use-cases on the same ports. */
  readonly runtime: ManagedRuntime.ManagedRuntime<UseCaseServices, unknown>
  readonly apiBaseUrl: string
  readonly websiteBaseUrl: string
  /** The API's use-cases (the server's pool searches), so that a page shows what the API answers. */
  readonly useCases?: Partial<UseCases> | undefined
  /** The app's metrics registry: page views per campaign are counted in it (none: not counted). */
  readonly metricsRegistry?: Registry | undefined
  /** The API's query log: a line per search or trip the pages ran, with the campaign (none: no line). */
  readonly queryLog?: LineSink | undefined
  /** The mobile apps that open the pages' links (app link tags, `/.well-known` files); none by default. */
  readonly appLinks?: AppLinks | undefined
  /** The maps' tiles (`MAP_TILES_URL`); OpenStreetMap's by default; `off`: no map, the SVG drawing alone. */
  readonly mapTiles?: MapTiles | "off" | undefined
  /**
   * The place fields' suggestions: the API's `PlaceNames.suggest` (the server passes its own); by
   * default `Gazetteer.suggest` of the process's gazetteer, the same ranking.
   */
  readonly placeSuggester?: PlaceSuggester | undefined
  /** The towns the pages read names against (what was understood, nearest names); the process's one by default. */
  readonly gazetteer?: Gazetteer | undefined
}

// The form's own fields: one in the address (blank or not) means the form was sent.
const FORM_FIELDS = ["fn", "tn", PICKED.fn, PICKED.tn, "fc", "tc", "db", "seats", "hb", "he", "pmin", "pmax", "sort", "order", "photo", "aa"]

// The website's own parameters: its filters, and the towns picked among suggestions (read here,
// sent to the API as coordinates).
const WEBSITE_OWN: ReadonlySet<string> = new Set([...WEBSITE_FILTERS, PICKED.fn, PICKED.tn])

// Parameters of the API that shape its answer, not the search; `key` is never the website's.
const NOT_SEARCH = new Set(["_format", "fields", "key"])

const nameOf = (part: string): string => {
  try {
    return decodeURIComponent(part.slice(0, part.indexOf("=") === -1 ? part.length : part.indexOf("=")).replace(/\+/g, " "))
  } catch {
    return ""
  }
}

/**
 * The page's query as the API's: without the answer-shaping and tracking parameters and without empty ones
 * (a form's blank field means "not set"), with `locale` (the page's) and `cur` (the locale's)
 * added when absent. The other parameters keep their encoding, so the API reads them as sent.
 */
const apiQuery = (rawQuery: string, locale: LocaleCode): string => {
  const parts = rawQuery.split("&").filter((part) => {
    const eq = part.indexOf("=")
    return eq > 0 && eq < part.length - 1 && !NOT_SEARCH.has(nameOf(part)) && !WEBSITE_OWN.has(nameOf(part)) && !isTrackingParameter(nameOf(part))
  })
  const names = new Set(parts.map(nameOf))
  if (!names.has("locale")) parts.push(`locale=${locale}`)
  if (!names.has("cur")) {
    let asked: unknown
    try {
      asked = parseQuery(parts.join("&")).locale
    } catch {
      asked = undefined
    }
    // With a locale the API refuses, the API's message on the locale is the one to show.
    if (typeof asked === "string" && isLocaleCode(asked)) parts.push(`cur=${LOCALE_TABLE[asked].currency}`)
  }
  return parts.join("&")
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const bodyJson = (reply: ApiReply): Json => JSON.parse(typeof reply.body === "string" ? reply.body : Buffer.from(reply.body).toString("utf8")) as Json

const SEARCH_PAGE = /^\/search\/?$/
const SUGGEST = /^\/places\/suggest\/?$/
const TRIP_PAGE = /^\/trip\/([^/]+)\/?$/
const DEVELOPERS_PAGE = /^\/developers\/?$/
const ERRORS_PAGE = /^\/developers\/errors\/?$/
// Without a configured app these fall through to the API's 404.
const ASSET_LINKS = "/.well-known/assetlinks.json"
const APPLE_ASSOCIATION = "/.well-known/apple-app-site-association"

/**
 * No inline script: the site's script and Leaflet come from `/assets`, the map's data is a JSON
 * block (not run); images from the tile server's origin.
 */
const cspOf = (tiles: MapTiles | "off"): string => {
  let tileOrigin = ""
  if (tiles !== "off") {
    try {
      tileOrigin = ` ${new URL(tiles.url.replace(/\{[a-z]\}/g, "0")).origin}`
    } catch {
      tileOrigin = ""
    }
  }
  return `default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:${tileOrigin}; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`
}

/** Pages are sent gzipped to a browser that takes it: a search page is a third of its size so. */
const send = (res: Response, status: number, locale: LocaleCode, page: string, csp: string): void => {
  const gzip = /\bgzip\b/.test(res.req.get("accept-encoding") ?? "")
  res
    .status(status)
    .set({
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": status === 200 ? "private, max-age=600" : "no-store",
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "Content-Language": LOCALE_TABLE[locale].bcp47,
      Vary: "Accept-Language, Accept-Encoding"
    })
    .send(gzip ? gzipSync(page, { level: 6 }) : page)
}

/** The API's token of an error answer (none when the body is not the Error object). */
const tokenOf = (reply: ApiReply): string | undefined => {
  try {
    return String((bodyJson(reply).error as Json)["developper-message"])
  } catch {
    return undefined
  }
}

/** What a traveller is told of a refusal, in the page's language: no token, no status code. */
const travellerMessage = (reply: ApiReply, t: Translate): string =>
  reply.status === 503 || reply.status === 429 ? t("busy") : tokenOf(reply) === "trip.not_found" ? t("trip_not_found") : t("search_failed")

/** The form's fields by the parameter they send: a refusal names the field as the form labels it. */
const FIELD_LABELS: Readonly<Record<string, MessageKey>> = {
  fn: "from",
  tn: "to",
  fc: "from_coordinates",
  tc: "to_coordinates",
  db: "date",
  seats: "seats",
  hb: "hour_from",
  he: "hour_to",
  pmin: "price_min",
  pmax: "price_max",
  sort: "sort",
  order: "order"
}

/**
 * A search refused for a field of the form: which field, and its rule, in the page's language,
 * read from the API's message (`he: must be greater than hb (20), got 5`); none for a refusal the
 * form cannot cause.
 */
export const fieldRefusal = (reply: ApiReply, t: Translate): { readonly message: string; readonly fields: ReadonlySet<string> } | undefined => {
  if (reply.status !== 400) return undefined
  let text: string
  try {
    text = String((bodyJson(reply).error as Json).message)
  } catch {
    return undefined
  }
  const m = /^(\w+): (.*)$/.exec(text)
  const param = m?.[1]
  const label = param === undefined ? undefined : FIELD_LABELS[param]
  if (m === null || param === undefined || label === undefined) return undefined
  const rule = m[2]!
  const other = /^(?:must be greater than|is required when) (\w+)\b/.exec(rule)?.[1]
  const otherLabel = other === undefined ? undefined : FIELD_LABELS[other]
  const field = t(label)
  if (otherLabel !== undefined && rule.startsWith("must be greater than")) return { message: t("field_greater", { field, other: t(otherLabel) }), fields: new Set([param, other!]) }
  if (otherLabel !== undefined) return { message: t("field_needs", { field, other: t(otherLabel) }), fields: new Set([param, other!]) }
  const range = /^must be an integer from (\d+) to (\d+)/.exec(rule)
  if (range !== null) return { message: t("field_range", { field, min: Number(range[1]), max: Number(range[2]) }), fields: new Set([param]) }
  return { message: t("field_invalid", { field }), fields: new Set([param]) }
}

/** The query's parameters, the last of each name; none when it cannot be read. */
const safeParams = (raw: string): Map<string, string> => {
  try {
    return new Map(new URLSearchParams(raw))
  } catch {
    return new Map()
  }
}

const rawQueryOf = (req: Request): string => {
  const url = req.originalUrl ?? req.url ?? ""
  const q = url.indexOf("?")
  return q === -1 ? "" : url.slice(q + 1)
}

/** The page's locale: the URL's `locale`, else `Accept-Language`'s. */
const localeOf = (req: Request): LocaleCode => {
  let asked: unknown
  try {
    asked = parseQuery(rawQueryOf(req)).locale
  } catch {
    asked = undefined
  }
  return pickLocale(typeof asked === "string" ? asked : undefined, req.get("accept-language"))
}

/**
 * The website's routes (`GET` and `HEAD`): `/developers` and `/developers/errors`; `/search` (without
 * parameters, the home page: the form) and `/trip/{permanent_id}`, answered from the API's own answer to the same
 * parameters (`readApiRequest` + `answerReadRequest`, without key or quota): a page shows the API's
 * trips in the API's order. A request the API refuses is a page for travellers with the API's
 * status, in the page's language, the form kept and, for a place it does not know, the nearest
 * names (no token, no status code: those are the `/developers` pages'). `experience` and `comfort`
 * are the website's own filters over the API's answer. `/places/suggest?q=&locale=` gives the place
 * fields' suggestions (JSON), `/assets/*` the script, Leaflet and its style sheet. `svc_cmkt` and
 * `utm_*` are accepted on every page, left out of the API's query, of the page's links and of its
 * canonical address, and counted per campaign. Other requests fall through (`next`).
 */
export const websiteRouter = (options: WebsiteOptions): express.Router => {
  const router = express.Router()
  const answerOptions = { apiBaseUrl: options.apiBaseUrl, websiteBaseUrl: options.websiteBaseUrl, useCases: options.useCases }
  const campaigns = new CampaignCounter(options.metricsRegistry)
  const apps = options.appLinks ?? {}
  const assets = new WebsiteAssets()
  const tiles = options.mapTiles ?? OSM_TILES
  const csp = cspOf(tiles)
  // The process's gazetteer (the API's resolver holds the same one), taken on first use.
  let gazetteer = options.gazetteer
  const gazetteerOf = (): Gazetteer => (gazetteer ??= Gazetteer.shared())
  let suggester = options.placeSuggester
  const suggesterOf = (): PlaceSuggester => (suggester ??= gazetteerOf())
  const supportLink = supportLinkOf({ websiteBaseUrl: options.websiteBaseUrl })

  /** The page's address on the website, without tracking parameters, `key` or blank fields. */
  const canonicalOf = (path: string, raw: string): string => {
    const kept = raw.split("&").filter((part) => {
      const eq = part.indexOf("=")
      return eq > 0 && eq < part.length - 1 && !isTrackingParameter(nameOf(part)) && nameOf(part) !== "key"
    })
    return `${options.websiteBaseUrl}${path}${kept.length > 0 ? `?${kept.join("&")}` : ""}`
  }

  /** The query's parts a page's own links keep: not blank, not tracking, never `key`. */
  const keptParts = (raw: string, drop: ReadonlySet<string>): Array<string> =>
    raw.split("&").filter((part) => {
      const name = nameOf(part)
      return part.indexOf("=") > 0 && !part.endsWith("=") && name !== "key" && !drop.has(name) && !isTrackingParameter(name)
    })

  /**
   * The page in another locale. `cur` is kept where that locale takes the page's currency (written
   * out, since the new locale's own may differ); elsewhere the currency follows the new locale and
   * the prices typed in the old one (`pmin`, `pmax`) go with it. `places`: the place fields in the
   * new locale's language, so that the form does not keep the old one's names.
   */
  const inLocaleOf = (path: string, raw: string, current: LocaleCode, places?: (locale: LocaleCode) => Readonly<Record<string, string>>) => {
    // Read once for the page's every language link.
    const asked = safeParams(raw).get("cur")
    const cur = asked !== undefined && asked !== "" ? asked : LOCALE_TABLE[current].currency
    return (locale: LocaleCode): string => {
      const keep = (currenciesOf(locale) as ReadonlyArray<string>).includes(cur)
      const names = places?.(locale) ?? {}
      const drop = new Set(["locale", "cur", ...Object.keys(names), ...(keep ? [] : ["pmin", "pmax"])])
      const added = [...Object.entries(names).map(([n, v]) => `${n}=${encodeURIComponent(v)}`), ...(keep && cur !== LOCALE_TABLE[locale].currency ? [`cur=${cur}`] : [])]
      return `${path}?${[...keptParts(raw, drop), ...added, `locale=${locale}`].join("&")}`
    }
  }

  /**
   * The page in the locale's other currencies (its alternative, where it has one), the prices
   * typed in the current one (`pmin`, `pmax`) left out.
   */
  const inCurrenciesOf = (path: string, raw: string, locale: LocaleCode): PageHead["currencies"] => {
    const all = currenciesOf(locale)
    if (all.length < 2) return undefined
    const asked = safeParams(raw).get("cur")
    const current = asked !== undefined && (all as ReadonlyArray<string>).includes(asked) ? asked : all[0]!
    const drop = new Set(["cur", "pmin", "pmax", "page"])
    return { current, links: all.map((code) => ({ code, href: `${path}?${[...keptParts(raw, drop), `cur=${code}`].join("&")}` })) }
  }

  /** The campaign of the request, counted for the page; its label (or none). */
  const countCampaign = (raw: string, page: PageName): string | undefined => {
    let params: Array<[string, string]>
    try {
      params = [...new URLSearchParams(raw)]
    } catch {
      return undefined
    }
    const campaign = campaignOf(params)
    return campaign === undefined ? undefined : campaigns.count(campaign, page)
  }

  /** The API's answer to `apiPath?query`, or none when the reader went away first. */
  const ask = async (res: Response, apiPath: string, query: string): Promise<ApiReply | undefined> => {
    const read = readApiRequest({ method: "GET", url: `${apiPath}?${query}`, headers: {} })
    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    const reply = await answerReadRequest(options.runtime, read, answerOptions, { signal: abort.signal })
    res.off("close", onClose)
    return abort.signal.aborted ? undefined : reply
  }

  /**
   * The search with the website's own filters (`experience`, `comfort`): the API's pages of 100
   * rides, up to `WEBSITE_FILTER_PAGES`, filtered here (the drivers' experience read from the store).
   */
  const askFiltered = async (res: Response, query: string, params: SearchParams): Promise<ApiReply | undefined> => {
    const base = query.split("&").filter((part) => nameOf(part) !== "limit" && nameOf(part) !== "page")
    const pageOf = (n: number) => [...base, "limit=100", `page=${n}`].join("&")
    const first = await ask(res, "/api/v2/trips", pageOf(1))
    if (first === undefined || first.status !== 200) return first
    const answers = [bodyJson(first)]
    const pages = Math.min(WEBSITE_FILTER_PAGES, Number(answers[0]!.pager?.pages ?? 1))
    for (let n = 2; n <= pages; n++) {
      const next = await ask(res, "/api/v2/trips", pageOf(n))
      if (next === undefined) return undefined
      if (next.status !== 200) break
      answers.push(bodyJson(next))
    }
    const ids = [...new Set(answers.flatMap((a) => (a.trips as ReadonlyArray<Json>).map((trip) => tripIdOf(String(trip.permanent_id)))))]
    const stored = await options.runtime.runPromise(Effect.flatMap(TripStore, (store) => store.getTrips(ids)))
    const experienceOf = new Map([...stored].map(([id, s]) => [id, Number(s.trip.driver.experience)]))
    const asked = (name: string, fallback: number, max: number) => {
      const v = Number(params.get(name))
      return Number.isSafeInteger(v) && v >= 1 && v <= max ? v : fallback
    }
    const body = websiteFiltered(answers, experienceOf, websiteFilterValues(params), asked("page", 1, 10_000), asked("limit", 10, 100))
    return { ...first, body: JSON.stringify(body) }
  }

  /** The stored trip's waypoints and legs, for the driver's road on the map (none when not found). */
  const storedRoad = async (detail: Json) => {
    const id = tripIdOf(String(detail.main_permanent_id ?? detail.permanent_id ?? ""))
    try {
      const found = await options.runtime.runPromise(Effect.flatMap(TripStore, (store) => store.getTrip(id)))
      if (Option.isNone(found)) return undefined
      // A leg without `path` (a feed without roads) is drawn straight.
      const { waypoints, legs } = found.value.trip
      return { waypoints, legs }
    } catch {
      return undefined
    }
  }

  /** The names of the active meeting points among `ids`: the search answer names only the departure's. */
  const meetingPointNames = async (ids: ReadonlyArray<number>): Promise<ReadonlyMap<number, string>> => {
    if (ids.length === 0) return new Map()
    try {
      const found = await options.runtime.runPromise(Effect.flatMap(TripStore, (store) => store.meetingPoints([...new Set(ids)])))
      return new Map([...found].map(([id, mp]) => [id, mp.name]))
    } catch {
      return new Map()
    }
  }

  /** The trip's public questions and answers, as the API's `threads` answer lists them. */
  const threadsOf = async (id: string, query: string): Promise<ReadonlyArray<Json>> => {
    const reply = await answerReadRequest(options.runtime, readApiRequest({ method: "GET", url: `/api/v2/trips/${id}/threads?${query}`, headers: {} }), answerOptions)
    return reply.status === 200 ? ((bodyJson(reply).threads as ReadonlyArray<Json> | undefined) ?? []) : []
  }

  // Matched on the raw path, so that a malformed id reaches the API's reading (its 400) rather than
  // Express's parameter decoding.
  router.use(async (req, res, next) => {
    const path = (req.originalUrl ?? req.url ?? "").split("?")[0]!
    if (req.method !== "GET" && req.method !== "HEAD") {
      next()
      return
    }
    const wellKnown = path === ASSET_LINKS ? assetLinks(apps) : path === APPLE_ASSOCIATION ? appleAppSiteAssociation(apps) : undefined
    if (wellKnown !== undefined) {
      res.status(200).set({ "Content-Type": "application/json", "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff" }).send(JSON.stringify(wellKnown))
      return
    }
    if (assets.serve(path, req, res)) return
    const raw = rawQueryOf(req)
    // The server's root opened in a browser (which prefers HTML): the home page, not the API's 404,
    // which an API client still gets there. No query goes along: a key in it must not be echoed.
    if (path === "/" && req.accepts(["application/json", "application/xml", "text/html"]) === "text/html") {
      res.status(302).set({ Location: "/search", "Cache-Control": "no-cache", Vary: "Accept" }).end()
      return
    }
    if (SUGGEST.test(path)) return suggest(req, res, raw)
    if (DEVELOPERS_PAGE.test(path) || ERRORS_PAGE.test(path)) {
      const errors = ERRORS_PAGE.test(path)
      countCampaign(raw, errors ? "errors" : "developers")
      const locale = localeOf(req)
      const t = translatorOf(locale)
      const page = errors ? errorsPage(t) : developersPage(options.apiBaseUrl, t)
      const pagePath = errors ? "/developers/errors" : "/developers"
      send(
        res,
        200,
        locale,
        layout(locale, t, page.title, page.content, { canonical: canonicalOf(pagePath, raw), inLocale: inLocaleOf(pagePath, raw, locale) }),
        csp
      )
      return
    }
    const trip = TRIP_PAGE.exec(path)
    if (trip === null && !SEARCH_PAGE.test(path)) {
      next()
      return
    }
    const startedAt = performance.now()
    const campaign = countCampaign(raw, trip === null ? "search" : "trip")
    const apiPath = trip === null ? "/api/v2/trips" : `/api/v2/trips/${trip[1]!}`
    const locale = localeOf(req)
    const t = translatorOf(locale)
    const typed = apiQuery(raw, locale)
    // The page's parameters: the API's, with the website's own.
    const rawParams = safeParams(raw)
    const given: SearchParams = new Map([...new URLSearchParams(typed), ...[...rawParams].filter(([name, value]) => WEBSITE_OWN.has(name) && value !== "")])
    // The search page keeps its form and what was typed, whatever the API answered.
    const places = trip === null ? readPlaces(gazetteerOf(), given, locale, t) : undefined
    // A picked town is searched at its coordinates (the API then leaves its name aside); a pick
    // the field no longer names is dropped, from the page's links too.
    const picks = (places?.reads ?? []).filter((r) => r.picked && r.city !== undefined)
    const query = [typed, ...picks.map((r) => `${r.param === "fn" ? "fc" : "tc"}=${r.city!.lat}%7C${r.city!.lon}`)].join("&")
    const params: SearchParams = new Map(
      [...given].filter(([name]) => (name !== PICKED.fn && name !== PICKED.tn) || picks.some((r) => PICKED[r.param] === name))
    )
    const filtered = trip === null && [...WEBSITE_FILTERS].some((name) => params.has(name))
    // A website filter it cannot read is refused as the API refuses a parameter (a 400).
    let reply: ApiReply | undefined =
      filtered && !websiteFiltersValid(params)
        ? { status: 400, headers: {}, body: JSON.stringify({ error: { code: "400", "developper-message": "parameter.invalid", message: "experience must be 0 to 4, comfort 1 to 4" } }) }
        : filtered
          ? await askFiltered(res, query, params)
          : await ask(res, apiPath, query)
    if (reply === undefined) return
    // Over more rides than the website filters, its experience and comfort facets are counted over
    // those it can filter, so that a count is what its link lists (the API's are over every ride).
    if (trip === null && !filtered && reply.status === 200 && Number(bodyJson(reply).pager?.total) > WEBSITE_FILTER_PAGES * 100) {
      const over = await askFiltered(res, query, new Map([...params].filter(([name]) => name !== "page")))
      if (over === undefined) return
      if (over.status === 200) {
        const counted = bodyJson(over)
        const own = new Map((counted.facets as ReadonlyArray<Json>).filter((f) => f.name === "experience" || f.name === "car_comfort").map((f) => [f.name, f]))
        const body = bodyJson(reply)
        reply = {
          ...reply,
          body: JSON.stringify({ ...body, filter_scope: counted.filter_scope, facets: (body.facets as ReadonlyArray<Json>).map((f) => own.get(f.name) ?? f) })
        }
      }
    }
    // The search the page ran, as the API's query log records a request (the replay tool reads it
    // so), with the page and campaign it came from.
    options.queryLog?.write(
      JSON.stringify({
        time: new Date().toISOString(),
        path: apiPath,
        query: redactQuery(query),
        status: reply.status,
        duration_ms: Math.round((performance.now() - startedAt) * 100) / 100,
        page: trip === null ? "search" : "trip",
        ...(campaign !== undefined ? { campaign } : {})
      }) + "\n"
    )
    const canonical = canonicalOf(path, raw)
    // The towns understood, named in another locale's language for its link.
    const placesIn = (other: LocaleCode): Record<string, string> =>
      Object.fromEntries((places?.reads ?? []).flatMap((r) => (r.city === undefined ? [] : [[r.param, placeText(gazetteerOf(), r.city, other)]])))
    // Leaflet's style sheet is in the pages that have a map only.
    const headWith = (map: boolean): PageHead => ({
      canonical,
      extra: appLinkTags(apps, canonical),
      inLocale: inLocaleOf(path, raw, locale, placesIn),
      currencies: inCurrenciesOf(path, raw, locale),
      description: t("search_title"),
      styles: map ? [assets.paths.leafletCss] : [],
      // Leaflet itself is loaded by the site's script when the map comes near the screen.
      scripts: [assets.paths.siteJs]
    })
    const head = headWith(false)
    if (trip !== null) {
      if (reply.status !== 200) {
        // A traveller's page: what happened in their language, and a way on; no token, no status.
        // A ride gone is said as such, with the search to find another (its form just below).
        const gone = tokenOf(reply) === "trip.not_found"
        const heading = gone ? t("trip_gone_title") : t("error_title")
        const content = html`<h1>${heading}</h1><section class="error"><p class="message">${gone ? t("trip_gone_text") : travellerMessage(reply, t)}</p></section>${searchForm(
          new Map([["locale", locale]]),
          locale,
          t
        )}`
        send(res, reply.status, locale, layout(locale, t, heading, content, head), csp)
        return
      }
      const detail = bodyJson(reply)
      const arrivalMp = Number((detail.arrival_place as Json | undefined)?.meeting_point_id)
      const names = await meetingPointNames(Number.isSafeInteger(arrivalMp) ? [arrivalMp] : [])
      const ends = passengerEnds(detail, (id) => names.get(id))
      const labels = { pickup: (place: string) => t("labelled", { label: t("pickup"), value: place }), dropoff: (place: string) => t("labelled", { label: t("dropoff"), value: place }) }
      const map = tiles === "off" ? undefined : tripMapData(detail, await storedRoad(detail), labels, tiles, ends)
      const page = tripPage(detail, await threadsOf(trip[1]!, query), query, locale, t, map === undefined ? undefined : { data: map, leaflet: assets.paths.leafletJs }, ends)
      send(res, 200, locale, layout(locale, t, page.title, page.content, headWith(map !== undefined)), csp)
      return
    }
    if (places === undefined) return
    const notice = placeNotice(gazetteerOf(), places.reads, params, locale, t)
    const mapData = tiles === "off" ? undefined : placesMapData(places.from, places.to, tiles, t)
    if (reply.status !== 200) {
      const unknownPlace = tokenOf(reply) === "place.not_found" && places.reads.some((r) => r.city === undefined)
      const refusal = fieldRefusal(reply, t)
      const content = html`<h1>${t("search_title")}</h1>${searchForm(params, locale, t, refusal?.fields)}${
        unknownPlace ? notice : html`<section class="notice" role="status"><p>${refusal?.message ?? travellerMessage(reply, t)}</p></section>`
      }`
      send(res, reply.status, locale, layout(locale, t, t("search_title"), content, head), csp)
      return
    }
    const body = bodyJson(reply)
    // The rides dropping off along the road: their meeting points' names, which the answer does not give.
    const arrivals = (body.trips as ReadonlyArray<Json>).flatMap((ride) => {
      const m = /_m(\d+)$/.exec(String(ride.permanent_id))
      return m === null ? [] : [Number(m[1])]
    })
    const names = await meetingPointNames(arrivals)
    // A town searched by name is said as the page names it (Mnichov), coordinates as typed.
    const townOf = (param: "fn" | "tn"): string | undefined => {
      const read = places.reads.find((r) => r.param === param)
      return read?.city !== undefined ? townLabel(gazetteerOf(), read.city, locale, t) : (param === "fn" ? places.from : places.to)?.name
    }
    const page = searchPage(body, params, locale, t, {
      notice,
      heading: { from: townOf("fn"), to: townOf("tn") },
      submitted: FORM_FIELDS.some((name) => rawParams.has(name)),
      map: mapData === undefined ? undefined : mapBlock(mapData, t("route_map"), assets.paths.leafletJs),
      along: { from: townOf("fn"), to: townOf("tn"), meetingPointName: (id) => names.get(id) }
    })
    send(res, 200, locale, layout(locale, t, page.title, page.content, headWith(mapData !== undefined)), csp)
  })

  /** `GET /places/suggest?q=&locale=`: towns for a place field, as JSON (no key: the website's own). */
  const suggest = (req: Request, res: Response, raw: string): void => {
    const params = safeParams(raw)
    const q = params.get("q") ?? ""
    const locale = localeOf(req)
    const refuse = (message: string) => {
      res
        .status(400)
        .set({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" })
        .send(JSON.stringify(errorBody({ status: 400, token: "parameter.invalid", message }, supportLink("parameter.invalid"))))
    }
    if (params.has("locale") && !isLocaleCode(params.get("locale")!)) return refuse(`locale must be one of the locale table's codes, got "${params.get("locale")}"`)
    if (q.trim() === "" || q.length > 100) return refuse("q must be 1 to 100 characters of a place's name")
    const found = suggesterOf().suggest(q, locale, 8)
    const labels = suggestionLabels(found, locale, translatorOf(locale))
    const places = found.map((p, k) => ({
      id: p.id,
      name: p.name,
      country_code: p.countryCode,
      country: countryName(p.countryCode, locale),
      label: labels[k]!,
      value: `${p.name}, ${countryName(p.countryCode, locale)}`,
      latitude: p.lat,
      longitude: p.lon
    }))
    res
      .status(200)
      .set({ "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=3600", "X-Content-Type-Options": "nosniff", Vary: "Accept-Language" })
      .send(JSON.stringify({ places }))
  }

  return router
}

/**
 * The API's app with the website in front of it: the website's routes answer their pages, every
 * other request is the API's, unchanged.
 */
export const withWebsite = (api: Express, options: WebsiteOptions): Express => {
  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.use(websiteRouter(options))
  app.use(api)
  return app
}
