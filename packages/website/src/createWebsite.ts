import express, { type Express, type Request, type Response } from "express"
import type { ManagedRuntime } from "effect"
import { isLocaleCode, LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { type ApiReply, answerReadRequest, parseQuery, readApiRequest, type UseCases, type UseCaseServices } from "@tripsearch/http-express"
import { html } from "./html.js"
import { layout } from "./layout.js"
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
 * The page's query as the API's: without the answer-shaping parameters and without empty ones
 * (a form's blank field means "not set"), with `locale` (the page's) and `cur` (the locale's)
 * added when absent. The other parameters keep their encoding, so the API reads them as sent.
 */
const apiQuery = (rawQuery: string, locale: LocaleCode): string => {
  const parts = rawQuery.split("&").filter((part) => {
    const eq = part.indexOf("=")
    return eq > 0 && eq < part.length - 1 && !NOT_SEARCH.has(nameOf(part))
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
 * is a page with the API's status and message. Other requests fall through (`next`).
 */
export const websiteRouter = (options: WebsiteOptions): express.Router => {
  const router = express.Router()
  const answerOptions = { apiBaseUrl: options.apiBaseUrl, websiteBaseUrl: options.websiteBaseUrl, useCases: options.useCases }

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
    if (DEVELOPERS_PAGE.test(path) || ERRORS_PAGE.test(path)) {
      const locale = localeOf(req)
      const t = translatorOf(locale)
      const page = ERRORS_PAGE.test(path) ? errorsPage(t) : developersPage(options.apiBaseUrl, t)
      send(res, 200, locale, layout(locale, t, page.title, page.content))
      return
    }
    const trip = TRIP_PAGE.exec(path)
    if (trip === null && !SEARCH_PAGE.test(path)) {
      next()
      return
    }
    const answered = await answer(req, res, trip === null ? "/api/v2/trips" : `/api/v2/trips/${trip[1]!}`)
    if (answered === undefined) return
    const { reply, locale, t, query } = answered
    if (reply.status !== 200) return errorPage(res, reply, locale, t)
    const page =
      trip === null
        ? searchPage(bodyJson(reply), new Map([...new URLSearchParams(query)]), locale, t)
        : tripPage(bodyJson(reply), await threadsOf(trip[1]!, query), query, locale, t)
    send(res, 200, locale, layout(locale, t, page.title, page.content))
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
