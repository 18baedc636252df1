import express, { type Express, type Request, type Response } from "express"
import type { ManagedRuntime } from "effect"
import { isLocaleCode, LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import {
  type ApiReply,
  answerReadRequest,
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
import { translatorOf, type Translate } from "./messages/catalogue.js"
import { pickLocale } from "./pickLocale.js"
import { searchPage } from "./searchPage.js"
import { tripPage } from "./tripPage.js"
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
}

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
    return eq > 0 && eq < part.length - 1 && !NOT_SEARCH.has(nameOf(part)) && !isTrackingParameter(nameOf(part))
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
const TRIP_PAGE = /^\/trip\/([^/]+)\/?$/
const DEVELOPERS_PAGE = /^\/developers\/?$/
const ERRORS_PAGE = /^\/developers\/errors\/?$/
// Without a configured app these fall through to the API's 404.
const ASSET_LINKS = "/.well-known/assetlinks.json"
const APPLE_ASSOCIATION = "/.well-known/apple-app-site-association"

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const send = (res: Response, status: number, locale: LocaleCode, page: string): void => {
  res
    .status(status)
    .set({
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": status === 200 ? "private, max-age=600" : "no-store",
      "Content-Security-Policy": CSP,
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "Content-Language": LOCALE_TABLE[locale].bcp47,
      Vary: "Accept-Language"
    })
    .send(page)
}

/** The API's Error object as a page, with the API's status, token and message. */
const errorPage = (res: Response, reply: ApiReply, locale: LocaleCode, t: Translate): void => {
  let error: Json
  try {
    error = bodyJson(reply).error as Json
  } catch {
    error = { "developper-message": "service.error", message: "" }
  }
  send(
    res,
    reply.status,
    locale,
    layout(
      locale,
      t,
      t("error_title"),
      html`<h1>${t("error_title")}</h1><section class="error"><p class="message">${error.message}</p><p><code>${error["developper-message"]}</code> (${reply.status})</p></section><p><a href="/search?locale=${locale}">${t("back_to_search")}</a></p>`
    )
  )
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
 * The website's routes (`GET` and `HEAD`): `/developers` and `/developers/errors`, and `/search` and
 * `/trip/{permanent_id}`, answered from
 * the API's own answer to the same parameters (`readApiRequest` + `answerReadRequest`, without
 * key or quota): a page shows the API's trips in the API's order, and a request the API refuses
 * is a page with the API's status and message. `svc_cmkt` and `utm_*` are accepted on every page,
 * left out of the API's query, of the page's links and of its canonical address, and counted per
 * campaign. Other requests fall through (`next`).
 */
export const websiteRouter = (options: WebsiteOptions): express.Router => {
  const router = express.Router()
  const answerOptions = { apiBaseUrl: options.apiBaseUrl, websiteBaseUrl: options.websiteBaseUrl, useCases: options.useCases }
  const campaigns = new CampaignCounter(options.metricsRegistry)
  const apps = options.appLinks ?? {}

  /** The page's address on the website, without tracking parameters, `key` or blank fields. */
  const canonicalOf = (path: string, raw: string): string => {
    const kept = raw.split("&").filter((part) => {
      const eq = part.indexOf("=")
      return eq > 0 && eq < part.length - 1 && !isTrackingParameter(nameOf(part)) && nameOf(part) !== "key"
    })
    return `${options.websiteBaseUrl}${path}${kept.length > 0 ? `?${kept.join("&")}` : ""}`
  }

  /**
   * The page in another locale: the same address without `locale` and `cur` (the currency follows
   * the new locale) nor tracking parameters.
   */
  const inLocaleOf =
    (path: string, raw: string) =>
    (locale: LocaleCode): string => {
      const kept = raw.split("&").filter((part) => {
        const name = nameOf(part)
        return part.indexOf("=") > 0 && !part.endsWith("=") && name !== "locale" && name !== "cur" && name !== "key" && !isTrackingParameter(name)
      })
      return `${path}?${[...kept, `locale=${locale}`].join("&")}`
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

  const answer = async (req: Request, res: Response, apiPath: string): Promise<{ reply: ApiReply; locale: LocaleCode; t: Translate; query: string } | undefined> => {
    const raw = rawQueryOf(req)
    const locale = localeOf(req)
    const query = apiQuery(raw, locale)
    const read = readApiRequest({ method: "GET", url: `${apiPath}?${query}`, headers: {} })
    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    const reply = await answerReadRequest(options.runtime, read, answerOptions, { signal: abort.signal })
    res.off("close", onClose)
    if (abort.signal.aborted) return undefined
    return { reply, locale, t: translatorOf(locale), query }
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
    const raw = rawQueryOf(req)
    if (DEVELOPERS_PAGE.test(path) || ERRORS_PAGE.test(path)) {
      const errors = ERRORS_PAGE.test(path)
      countCampaign(raw, errors ? "errors" : "developers")
      const locale = localeOf(req)
      const t = translatorOf(locale)
      const page = errors ? errorsPage(t) : developersPage(options.apiBaseUrl, t)
      const pagePath = errors ? "/developers/errors" : "/developers"
      send(res, 200, locale, layout(locale, t, page.title, page.content, { canonical: canonicalOf(pagePath, raw), inLocale: inLocaleOf(pagePath, raw) }))
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
    const answered = await answer(req, res, apiPath)
    if (answered === undefined) return
    const { reply, locale, t, query } = answered
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
    if (reply.status !== 200) return errorPage(res, reply, locale, t)
    const page =
      trip === null
        ? searchPage(bodyJson(reply), new Map([...new URLSearchParams(query)]), locale, t)
        : tripPage(bodyJson(reply), await threadsOf(trip[1]!, query), query, locale, t)
    const canonical = canonicalOf(path, raw)
    const head: PageHead = { canonical, extra: appLinkTags(apps, canonical), inLocale: inLocaleOf(path, raw) }
    send(res, 200, locale, layout(locale, t, page.title, page.content, head))
  })

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
