import { randomUUID } from "node:crypto"
import express, { type Express, type NextFunction, type Request, type Response } from "express"
import { Cause, Effect, Exit, type ManagedRuntime, Option } from "effect"
import {
  InvalidKey,
  KeyStore,
  MissingKey,
  type JsonObject,
  type PlaceResolver,
  type RawParams,
  type RequestContext,
  searchTrips,
  type TripMatcher,
  tripDetails,
  TripStore,
  tripThreads
} from "@tripsearch/core"
import { type ErrorReply, errorBody, errorReplyOf, errorReplyOfCause, internalError } from "./httpErrors.js"
import { negotiateFormat, type ResponseFormat } from "./negotiateFormat.js"
import { MalformedQuery, type ParsedQuery, parseQuery, stripKey } from "./parseQuery.js"
import { type LineSink, type RequestLogger, jsonLineLogger } from "./RequestLogger.js"
import { toXml } from "./toXml.js"

/** The services the app's runtime must provide. */
export type AppServices = TripStore | PlaceResolver | TripMatcher | KeyStore

/** The use-cases behind the routes: the core's by default (tests may replace them). */
export interface UseCases {
  readonly searchTrips: (params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, TripStore | PlaceResolver | TripMatcher>
  readonly tripDetails: (id: string, params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, TripStore>
  readonly tripThreads: (id: string, params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, TripStore>
}

export interface AppConfig {
  /** Public base URL of the service (links), no trailing slash. */
  readonly apiBaseUrl: string
  /** Base URL of the public website (`_front` links), no trailing slash. */
  readonly websiteBaseUrl: string
  /** NDJSON query log for the replay tool (one line per API request), or none. */
  readonly queryLog?: LineSink | undefined
  /** Structured request logs; default: JSON lines on stdout (errors on stderr). */
  readonly logger?: RequestLogger | undefined
  /** URL of the help page of an error token; default `{websiteBaseUrl}/developers/errors#{token}`. */
  readonly supportLink?: ((token: string) => string) | undefined
  /** Longest accepted request target (path and query), in bytes; default 8 KiB. */
  readonly maxUrlLength?: number | undefined
  /** Clock for quota days (epoch ms); default `Date.now`. */
  readonly now?: (() => number) | undefined
}

export interface CreateAppOptions {
  /** Provides the ports; built once by the app and disposed by it on shutdown. */
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, unknown>
  readonly config: AppConfig
  readonly useCases?: Partial<UseCases> | undefined
}

export const API_PREFIX = "/api/v2"
export const DEFAULT_MAX_URL_LENGTH = 8 * 1024
const CACHE_OK = "private, max-age=600"
const CACHE_ERROR = "no-store"
const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

/** `YYYY-MM-DD` of the UTC day of an instant (the quota day). */
export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10)

/** Whole seconds (at least 1) from an instant to the next UTC midnight. */
export const secondsToUtcMidnight = (nowMs: number): number => {
  const d = new Date(nowMs)
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
  return Math.max(1, Math.ceil((midnight - nowMs) / 1000))
}

interface RequestState {
  readonly requestId: string
  readonly startedAt: bigint
  readonly startedAtMs: number
  /** The path as asked (still percent-encoded), never the query. */
  readonly path: string
  /** The query string as asked, without `key`. */
  readonly queryWithoutKey: string
  /** Whether the request goes to the query log. */
  apiRequest: boolean
}

interface RateLimit {
  readonly limit: number
  readonly remaining: number
}

type Outcome =
  | { readonly _tag: "Done"; readonly exit: Exit.Exit<JsonObject, unknown>; readonly rate: RateLimit }
  | { readonly _tag: "OverQuota"; readonly rate: RateLimit; readonly retryAfterSeconds: number }

const states = new WeakMap<Request, RequestState>()

const rawTarget = (req: Request): { readonly path: string; readonly query: string } => {
  const url = req.originalUrl ?? req.url ?? ""
  const q = url.indexOf("?")
  return q === -1 ? { path: url, query: "" } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

/**
 * The Express app of the API (not listening). Routes: `GET /api/v2/trips`, `/api/v2/trips/:id`,
 * `/api/v2/trips/:id/threads`, `/health`; anything else is an Error object (404, 405, 413, 414).
 */
export const createApp = ({ runtime, config, useCases }: CreateAppOptions): Express => {
  const cases: UseCases = {
    searchTrips: useCases?.searchTrips ?? searchTrips,
    tripDetails: useCases?.tripDetails ?? tripDetails,
    tripThreads: useCases?.tripThreads ?? tripThreads
  }
  const logger = config.logger ?? jsonLineLogger(process.stdout, process.stderr)
  const supportLink = config.supportLink ?? ((token: string) => `${config.websiteBaseUrl}/developers/errors#${token}`)
  const maxUrlLength = config.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH
  const now = config.now ?? Date.now

  const stateOf = (req: Request): RequestState => {
    const state = states.get(req)
    if (state === undefined) throw new Error("request state missing")
    return state
  }

  /** Format for answers given before (or without) a successful `_format` decision. */
  const bestEffortFormat = (req: Request): ResponseFormat => {
    let formatParam: string | ReadonlyArray<string> | undefined
    try {
      formatParam = (req.query as ParsedQuery)._format
    } catch {
      formatParam = undefined
    }
    const choice = negotiateFormat(formatParam, req.get("accept"))
    return choice._tag === "Format" ? choice.format : "json"
  }

  const send = (res: Response, format: ResponseFormat, status: number, body: JsonObject): void => {
    let payload: string
    let type: string
    try {
      payload = format === "xml" ? toXml(body) : JSON.stringify(body)
      type = format === "xml" ? "application/xml; charset=utf-8" : "application/json; charset=utf-8"
    } catch (error) {
      // An encoder failure is ours: answer the 500 in JSON, the format that cannot fail.
      logger.error({ event: "encode_failed", error: error instanceof Error ? error.message : String(error) })
      status = 500
      payload = JSON.stringify(errorBody(internalError(res.getHeader("X-Request-Id") as string), supportLink("service.error")))
      type = "application/json; charset=utf-8"
    }
    res.status(status)
    res.setHeader("Cache-Control", status === 200 ? CACHE_OK : CACHE_ERROR)
    res.setHeader("Content-Type", type)
    res.send(payload)
  }

  const sendError = (res: Response, format: ResponseFormat, reply: ErrorReply, rate?: RateLimit): void => {
    if (rate !== undefined) setRateHeaders(res, rate)
    if (reply.retryAfterSeconds !== undefined && Number.isFinite(reply.retryAfterSeconds)) {
      res.setHeader("Retry-After", String(Math.max(0, Math.ceil(reply.retryAfterSeconds))))
    }
    send(res, format, reply.status, errorBody(reply, supportLink(reply.token)))
  }

  const setRateHeaders = (res: Response, rate: RateLimit): void => {
    res.setHeader("X-RateLimit-Limit-day", String(rate.limit))
    res.setHeader("X-RateLimit-Remaining-day", String(rate.remaining))
  }

  const logDefect = (req: Request, cause: Cause.Cause<unknown>): void => {
    const state = stateOf(req)
    logger.error({ event: "request_failed", request_id: state.requestId, path: state.path, cause: Cause.pretty(cause) })
  }

  /**
   * Checks the key (SEMANTICS §9), runs the use-case, counts the request when it answered 200 or
   * 404. Missing or invalid keys fail; a spent quota is an outcome (it carries the rate headers).
   */
  const keyed = (
    plainKey: string | undefined,
    nowMs: number,
    requestId: string,
    useCase: Effect.Effect<JsonObject, unknown, AppServices>
  ): Effect.Effect<Outcome, unknown, AppServices> =>
    Effect.gen(function* () {
      if (plainKey === undefined) return yield* new MissingKey()
      const keys = yield* KeyStore
      const found = yield* keys.find(plainKey)
      if (Option.isNone(found) || found.value.revoked) return yield* new InvalidKey()
      const key = found.value
      const day = utcDay(nowMs)
      const used = yield* keys.usage(key.id, day)
      if (used >= key.dailyLimit) {
        return {
          _tag: "OverQuota",
          rate: { limit: key.dailyLimit, remaining: 0 },
          retryAfterSeconds: secondsToUtcMidnight(nowMs)
        } as const
      }
      const exit = yield* Effect.exit(useCase)
      const status = Exit.isSuccess(exit) ? 200 : errorReplyOfCause(exit.cause, requestId).status
      const counted = status === 200 || status === 404
      if (counted) yield* keys.count(key.id, day)
      const remaining = Math.max(0, key.dailyLimit - used - (counted ? 1 : 0))
      return { _tag: "Done", exit, rate: { limit: key.dailyLimit, remaining } } as const
    })

  type Run = (req: Request, params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, AppServices>

  const apiRoute = (run: Run) => async (req: Request, res: Response): Promise<void> => {
    const state = stateOf(req)
    state.apiRequest = true
    let query: ParsedQuery
    try {
      query = req.query as ParsedQuery
    } catch (error) {
      if (!(error instanceof MalformedQuery)) throw error
      const choice = negotiateFormat(undefined, req.get("accept"))
      return sendError(res, choice._tag === "Format" ? choice.format : "json", {
        status: 400,
        token: "parameter.invalid",
        message: error.message
      })
    }
    const choice = negotiateFormat(query._format, req.get("accept"))
    if (choice._tag === "InvalidFormat") {
      return sendError(res, "json", { status: 400, token: "parameter.invalid", message: choice.message })
    }
    const format = choice.format

    const headerKey = req.get("key")
    const queryKey = query.key
    let plainKey: string | undefined
    if (headerKey !== undefined && headerKey !== "") plainKey = headerKey
    else if (Array.isArray(queryKey)) {
      return sendError(res, format, { status: 400, token: "parameter.invalid", message: "key: must be given at most once" })
    } else if (typeof queryKey === "string" && queryKey !== "") plainKey = queryKey

    const params: Record<string, string | ReadonlyArray<string>> = Object.create(null) as Record<string, string>
    for (const [name, value] of Object.entries(query)) if (name !== "key") params[name] = value
    const context: RequestContext = {
      apiBaseUrl: config.apiBaseUrl,
      websiteBaseUrl: config.websiteBaseUrl,
      path: state.path,
      query: state.queryWithoutKey
    }

    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    const exit = await runtime.runPromiseExit(keyed(plainKey, state.startedAtMs, state.requestId, run(req, params, context)), {
      signal: abort.signal
    })
    res.off("close", onClose)
    if (abort.signal.aborted) return

    if (Exit.isFailure(exit)) {
      const reply = errorReplyOfCause(exit.cause, state.requestId)
      if (reply.defect) logDefect(req, exit.cause)
      return sendError(res, format, reply)
    }
    const outcome = exit.value
    if (outcome._tag === "OverQuota") {
      return sendError(
        res,
        format,
        errorReplyOf({ _tag: "QuotaExceeded", limit: outcome.rate.limit, retryAfterSeconds: outcome.retryAfterSeconds }, state.requestId),
        outcome.rate
      )
    }
    if (Exit.isFailure(outcome.exit)) {
      const reply = errorReplyOfCause(outcome.exit.cause, state.requestId)
      if (reply.defect) logDefect(req, outcome.exit.cause)
      return sendError(res, format, reply, outcome.rate)
    }
    setRateHeaders(res, outcome.rate)
    send(res, format, 200, outcome.exit.value)
  }

  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")
  app.set("query parser", parseQuery)

  // Request id, security headers, logs.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id")
    const requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    const target = rawTarget(req)
    const state: RequestState = {
      requestId,
      startedAt: process.hrtime.bigint(),
      startedAtMs: now(),
      path: target.path,
      queryWithoutKey: stripKey(target.query),
      apiRequest: false
    }
    states.set(req, state)
    res.setHeader("X-Request-Id", requestId)
    res.setHeader("X-Content-Type-Options", "nosniff")
    res.setHeader("X-Frame-Options", "DENY")
    res.setHeader("Referrer-Policy", "no-referrer")
    res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
    res.setHeader("Vary", "Accept")
    let logged = false
    const log = () => {
      if (logged) return
      logged = true
      const durationMs = Math.round(Number(process.hrtime.bigint() - state.startedAt) / 1e4) / 100
      const aborted = !res.writableFinished
      logger.info({
        event: "request",
        request_id: requestId,
        method: req.method,
        path: state.path.length > 512 ? `${state.path.slice(0, 512)}...` : state.path,
        status: res.statusCode,
        duration_ms: durationMs,
        ...(aborted ? { aborted: true } : {})
      })
      if (state.apiRequest && config.queryLog !== undefined) {
        config.queryLog.write(
          JSON.stringify({
            time: new Date(state.startedAtMs).toISOString(),
            path: state.path,
            query: state.queryWithoutKey,
            status: res.statusCode,
            duration_ms: durationMs
          }) + "\n"
        )
      }
    }
    res.on("finish", log)
    res.on("close", log)
    next()
  })

  // Guards: target length, method, body.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const target = req.originalUrl ?? req.url ?? ""
    if (Buffer.byteLength(target, "utf8") > maxUrlLength) {
      return sendError(res, bestAccept(req), {
        status: 414,
        token: "request.uri_too_long",
        message: `The request URL is longer than ${maxUrlLength} bytes`
      })
    }
    if (req.method !== "GET") {
      res.setHeader("Allow", "GET")
      if (hasBody(req)) res.setHeader("Connection", "close")
      return sendError(res, bestEffortFormat(req), {
        status: 405,
        token: "method.not_allowed",
        message: `Method ${req.method} is not allowed: the service answers GET only`
      })
    }
    if (hasBody(req)) {
      res.setHeader("Connection", "close")
      return sendError(res, bestEffortFormat(req), {
        status: 413,
        token: "request.body_not_allowed",
        message: "A GET request of this service carries no body"
      })
    }
    next()
  })

  app.get("/health", async (_req: Request, res: Response) => {
    const exit = await runtime.runPromiseExit(
      Effect.gen(function* () {
        const store = yield* TripStore
        const changes = yield* store.changesSince(Number.MAX_SAFE_INTEGER)
        return changes.seq
      })
    )
    res.setHeader("Cache-Control", CACHE_ERROR)
    if (Exit.isSuccess(exit)) {
      res.status(200).json({ status: "ok", store: "reachable", data_version: exit.value })
    } else {
      logger.error({ event: "health_failed", cause: Cause.pretty(exit.cause) })
      res.status(503).json({ status: "unavailable", store: "unreachable" })
    }
  })

  app.get(`${API_PREFIX}/trips`, apiRoute((_req, params, context) => cases.searchTrips(params, context)))
  app.get(`${API_PREFIX}/trips/:id`, apiRoute((req, params, context) => cases.tripDetails(req.params.id as string, params, context)))
  app.get(
    `${API_PREFIX}/trips/:id/threads`,
    apiRoute((req, params, context) => cases.tripThreads(req.params.id as string, params, context))
  )

  app.use((req: Request, res: Response) => {
    sendError(res, bestEffortFormat(req), {
      status: 404,
      token: "resource.not_found",
      message: "No resource at this path: the API lives under /api/v2/trips"
    })
  })

  // Errors thrown by Express itself (a malformed path parameter) or by a handler.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const status = (error as { status?: unknown } | null)?.status
    if (status === 400) {
      return sendError(res, bestEffortFormat(req), {
        status: 400,
        token: "parameter.invalid",
        message: "id: malformed percent-encoding in the path"
      })
    }
    const state = states.get(req)
    logger.error({
      event: "request_failed",
      request_id: state?.requestId,
      path: state?.path,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    })
    sendError(res, bestEffortFormat(req), internalError(state?.requestId ?? "unknown"))
  })

  return app
}

const bestAccept = (req: Request): ResponseFormat => {
  const choice = negotiateFormat(undefined, req.get("accept"))
  return choice._tag === "Format" ? choice.format : "json"
}

const hasBody = (req: Request): boolean => {
  const length = req.get("content-length")
  if (length !== undefined && length.trim() !== "0") return true
  return req.get("transfer-encoding") !== undefined
}
