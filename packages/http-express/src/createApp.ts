import { randomUUID } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import express, { type Express, type NextFunction, type Request, type Response } from "express"
import type { ManagedRuntime } from "effect"
import type { KeyStore } from "@tripsearch/core"
import { type ApiMetrics, metricsFormatOf, metricsRouteOf } from "./ApiMetrics.js"
import { type ApiReply, answerReadRequest, internalErrorReply, shedReply, type UseCases, type UseCaseServices } from "./answerApiRequest.js"
import { CORS_PREFLIGHT_HEADERS, type CorsOrigins, corsHeaders, varyHeader } from "./corsHeaders.js"
import { keyQuota } from "./keyQuota.js"
import { negotiateCoding } from "./negotiateCoding.js"
import { headerOf, isSearchPath, type ReadRequest, readApiRequest } from "./readApiRequest.js"
import { type LineSink, type RequestLogger, jsonLineLogger } from "./RequestLogger.js"
import { redactPath, redactQuery } from "./redactSecrets.js"

/** The services the app's runtime must provide. */
export type AppServices = UseCaseServices | KeyStore

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
  /** The origins whose pages may read the answers (CORS); default `"*"`, any. */
  readonly corsOrigins?: CorsOrigins | undefined
}

export interface CreateAppOptions {
  /** Provides the ports; built once by the app and disposed by it on shutdown. */
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, unknown>
  readonly config: AppConfig
  readonly useCases?: Partial<UseCases> | undefined
  /** Counts every request and serves `GET /metrics` (no key, no quota); none: `/metrics` is a 404. */
  readonly metrics?: ApiMetrics | undefined
  /** Refuses a search at once, before its key is looked up (see `AnswerOptions.shedSearch`). */
  readonly shedSearch?: ((key: string) => boolean) | undefined
  /**
   * With the listener: once a search refused by `shedSearch` is answered, its connection is not
   * read for this long (ms; default 0, none). A client that asks again at once, not waiting the
   * `Retry-After` it was told, is answered no sooner; its request waits in the kernel's buffer,
   * where it costs this thread nothing. Without it, under overload such clients are refused as
   * fast as this thread can answer, and those answers take it from the searches it admitted.
   */
  readonly refusalHoldMs?: number | undefined
  /** Whether the server is draining (see `AnswerOptions.draining`); default never. */
  readonly draining?: (() => boolean) | undefined
}

/** The app, and the node:http 'request' listener to serve it with (`http.createServer(listener)`). */
export interface ApiRequestListener {
  readonly app: Express
  /**
   * Answers a search (`GET` or `HEAD` on the search route) itself, without Express, with the
   * reply, headers, logs and counts `app` would have given it (a refusal by `shedSearch` first,
   * before anything else is read); hands every other request to `app`.
   */
  readonly listener: (req: IncomingMessage, res: ServerResponse) => void
  /** `listener`, handing every other request to `rest` instead: `app` behind something in front of it. */
  readonly listenerBefore: (rest: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => void
}

// As the API routes: case-insensitive, one optional trailing slash.
const METRICS_ROUTE = /^\/metrics\/?$/i

const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

/** On every answer, as name, value, ...: no sniffing, no framing, no referrer, no active content. */
const SECURITY_HEADERS = [
  "X-Content-Type-Options",
  "nosniff",
  "X-Frame-Options",
  "DENY",
  "Referrer-Policy",
  "no-referrer",
  "Content-Security-Policy",
  "default-src 'none'; frame-ancestors 'none'"
]

interface RequestState {
  readonly requestId: string
  readonly startedAt: bigint
  readonly startedAtMs: number
  /** The request target as received (path and query), before any routing rewrote `req.url`. */
  readonly url: string
  /** The path as asked (still percent-encoded), never the query, with any `name=secret` pair redacted. */
  readonly path: string
  /**
   * The headers every answer carries (request id, security, `Vary`, CORS) as name, value, name,
   * value..., while they are not yet set on the response: the listener writes them with the rest
   * in one `writeHead`; Express's path sets them at once, and this is then undefined.
   */
  headers: Array<string> | undefined
  /** What the request asks, once read; whether it reached an API route (the query log). */
  read?: ReadRequest
  /** A `GET /metrics` answered by the metrics registry. */
  scrape?: boolean
}

const states = new WeakMap<IncomingMessage, RequestState>()

const rawTarget = (url: string): { readonly path: string; readonly query: string } => {
  const q = url.indexOf("?")
  return q === -1 ? { path: url, query: "" } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

/**
 * Stops reading a connection for `ms` once the answer on it has gone out. Node's server resumes
 * reading when a response finishes, so the pause is taken after that, on 'finish'; it honours its
 * own pause (a client pipelining faster than it reads answers) when this one ends.
 */
const holdConnection = (socket: Socket, res: ServerResponse, ms: number): void => {
  res.once("finish", () => {
    socket.pause()
    setTimeout(() => socket.resume(), ms).unref()
  })
}

/**
 * Writes a reply; to HEAD, the same status and headers (`Content-Length` included) without the body.
 * Node's own API only, so that a reply written without Express is the same on the wire.
 */
const sendReply = (req: IncomingMessage, res: ServerResponse, reply: ApiReply, state: RequestState | undefined): void => {
  // One `writeHead` with every header, rather than a `setHeader` each: Node validates and stores
  // each `setHeader` on its own, and a refusal's dozen headers were a good part of its cost.
  const headers = state?.headers ?? []
  if (state !== undefined) state.headers = undefined
  for (const name in reply.headers) headers.push(name, reply.headers[name]!)
  if (reply.status === 204) {
    res.writeHead(reply.status, headers).end()
    return
  }
  const bytes = typeof reply.body === "string" ? Buffer.from(reply.body, "utf8") : reply.body
  headers.push("Content-Length", String(bytes.byteLength))
  res.writeHead(reply.status, headers)
  if (req.method === "HEAD") res.end()
  else res.end(bytes)
}

/**
 * The Express app of the API (not listening). Every request is answered by `answerReadRequest`
 * (routes `GET /api/v2/trips`, `/api/v2/trips/:id`, `/api/v2/trips/:id/threads`,
 * `/api/v2/openapi.json`, `/health`, each also as HEAD and OPTIONS; any other is an Error object:
 * 404, 405, 413, 414) with keys and quotas checked and the body compressed as `Accept-Encoding`
 * asks; Express adds the request id, the security and CORS headers (a preflight gets its 204
 * without key or quota), the logs and the query log, and with `metrics` the request counts and
 * `GET /metrics`.
 */
export const createApp = (options: CreateAppOptions): Express => createRequestListener(options).app

/** `createApp`, with the listener that answers searches before Express (see `ApiRequestListener`). */
export const createRequestListener = ({ runtime, config, useCases, metrics, shedSearch, refusalHoldMs = 0, draining }: CreateAppOptions): ApiRequestListener => {
  const logger = config.logger ?? jsonLineLogger(process.stdout, process.stderr)
  const now = config.now ?? Date.now
  const corsOrigins = config.corsOrigins ?? "*"
  const vary = varyHeader(corsOrigins)
  const options = {
    apiBaseUrl: config.apiBaseUrl,
    websiteBaseUrl: config.websiteBaseUrl,
    supportLink: config.supportLink,
    maxUrlLength: config.maxUrlLength,
    useCases,
    admission: keyQuota,
    shedSearch,
    draining,
    logger
  }

  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")

  // Request id, security headers, logs: for every request, in the app or before it.
  const begin = (req: IncomingMessage, res: ServerResponse): RequestState => {
    const incoming = headerOf(req.headers, "x-request-id")
    const requestId = incoming !== undefined && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID()
    const url = (req as IncomingMessage & { readonly originalUrl?: string }).originalUrl ?? req.url ?? ""
    const target = rawTarget(url)
    const headers = ["X-Request-Id", requestId, ...SECURITY_HEADERS, "Vary", vary]
    const cors = corsHeaders(headerOf(req.headers, "origin"), corsOrigins)
    for (const name in cors) headers.push(name, cors[name]!)
    const state: RequestState = {
      requestId,
      startedAt: process.hrtime.bigint(),
      startedAtMs: now(),
      url,
      path: redactPath(target.path),
      headers
    }
    states.set(req, state)
    let logged = false
    const log = () => {
      if (logged) return
      logged = true
      const elapsedNs = Number(process.hrtime.bigint() - state.startedAt)
      const durationMs = Math.round(elapsedNs / 1e4) / 100
      const aborted = !res.writableFinished
      // A scrape does not count itself: the counters move by the API's traffic only.
      if (metrics !== undefined && !state.scrape) {
        metrics.observeRequest(metricsRouteOf(state.read), aborted ? "aborted" : res.statusCode, metricsFormatOf(state.read), elapsedNs / 1e9)
      }
      logger.info({
        event: "request",
        request_id: requestId,
        method: req.method,
        path: state.path.length > 512 ? `${state.path.slice(0, 512)}...` : state.path,
        status: res.statusCode,
        duration_ms: durationMs,
        ...(aborted ? { aborted: true } : {})
      })
      if (state.read?.apiRequest === true && config.queryLog !== undefined) {
        config.queryLog.write(
          JSON.stringify({
            time: new Date(state.startedAtMs).toISOString(),
            path: state.path,
            // Redacted only now, and once: the read request's own when it has one.
            query: state.read._tag === "UseCase" ? state.read.query : redactQuery(rawTarget(state.url).query),
            status: res.statusCode,
            duration_ms: durationMs
          }) + "\n"
        )
      }
    }
    res.on("finish", log)
    res.on("close", log)
    return state
  }
  app.use((req: Request, res: Response, next: NextFunction) => {
    // Set at once: Express's own answers (a body parser's error, a handler that throws) carry them too.
    const state = begin(req, res)
    const headers = state.headers!
    state.headers = undefined
    for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i]!, headers[i + 1]!)
    next()
  })

  // Metrics, outside the API: no key, no quota; HEAD as GET (Express sends no body). Other methods
  // fall through to the API's 405.
  if (metrics !== undefined) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      const state = states.get(req)
      if ((req.method !== "GET" && req.method !== "HEAD") || state === undefined || !METRICS_ROUTE.test(state.path)) {
        next()
        return
      }
      state.scrape = true
      metrics.scrape().then(
        ({ contentType, body }) => {
          res.status(200).setHeader("Content-Type", contentType).setHeader("Cache-Control", "no-store").send(body)
        },
        (error: unknown) => next(error)
      )
    })
  }

  // Everything else: the adapter's one answer function, as the replay tool's core target uses it.
  const answer = async (req: IncomingMessage, res: ServerResponse, state: RequestState, answerOptions = options): Promise<void> => {
    const read = state.read ?? readApiRequest({ method: req.method ?? "", url: state.url, headers: req.headers }, options)
    state.read = read
    if (read._tag === "Options" && read.preflight && res.hasHeader("Access-Control-Allow-Origin")) {
      for (const [name, value] of Object.entries(CORS_PREFLIGHT_HEADERS)) res.setHeader(name, value)
    }
    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    // A client gone before this handler ran fired its 'close' already: its search must not run.
    if (req.socket.destroyed) abort.abort()
    const reply = await answerReadRequest(runtime, read, answerOptions, {
      requestId: state.requestId,
      receivedAtMs: state.startedAtMs,
      signal: abort.signal,
      coding: negotiateCoding(headerOf(req.headers, "accept-encoding"))
    })
    res.off("close", onClose)
    if (abort.signal.aborted) return
    sendReply(req, res, reply, state)
  }
  app.use(async (req: Request, res: Response) => {
    const state = states.get(req)
    if (state === undefined) throw new Error("request state missing")
    await answer(req, res, state)
  })

  // Errors thrown by a handler: a 500 without internals.
  const fail = (error: unknown, req: IncomingMessage, res: ServerResponse): void => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const state = states.get(req)
    logger.error({
      event: "request_failed",
      request_id: state?.requestId,
      path: state?.path,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    })
    const format = state?.read !== undefined && "format" in state.read ? state.read.format : "json"
    sendReply(req, res, internalErrorReply(format, state?.requestId ?? "unknown", options), state)
  }
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => fail(error, req, res))

  // A search the listener let through was just checked: `shedSearch` is not asked twice.
  const checkedOptions = { ...options, shedSearch: undefined }
  const listenerBefore = (rest: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse): void => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !isSearchPath(req.url ?? "")) {
      rest(req, res)
      return
    }
    // Searches are the load, and under overload this thread is what saturates first (the workers
    // wait for it): Express's router and request wrappers cost a search about a fifth of its time
    // here, and a refusal about half (docs/PERFORMANCE.md, Overload). The search route is answered
    // here with the app's own steps, the refusal first: a refused search costs the parsing of its
    // request, its log lines and counts, and nothing else.
    const state = begin(req, res)
    const read = readApiRequest({ method: req.method, url: state.url, headers: req.headers }, options)
    state.read = read
    const refused = shedReply(read, options, negotiateCoding(headerOf(req.headers, "accept-encoding")))
    if (refused !== undefined) {
      if (refusalHoldMs > 0) holdConnection(req.socket, res, refusalHoldMs)
      sendReply(req, res, refused, state)
    } else answer(req, res, state, checkedOptions).catch((error: unknown) => fail(error, req, res))
  }

  return { app, listener: listenerBefore(app), listenerBefore }
}
