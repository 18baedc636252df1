import { randomUUID } from "node:crypto"
import express, { type Express, type NextFunction, type Request, type Response } from "express"
import type { ManagedRuntime } from "effect"
import type { KeyStore } from "@tripsearch/core"
import { type ApiReply, answerReadRequest, internalErrorReply, type UseCases, type UseCaseServices } from "./answerApiRequest.js"
import { keyQuota } from "./keyQuota.js"
import { type ReadRequest, readApiRequest } from "./readApiRequest.js"
import { type LineSink, type RequestLogger, jsonLineLogger } from "./RequestLogger.js"
import { stripKey } from "./parseQuery.js"

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
}

export interface CreateAppOptions {
  /** Provides the ports; built once by the app and disposed by it on shutdown. */
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, unknown>
  readonly config: AppConfig
  readonly useCases?: Partial<UseCases> | undefined
}

const SANE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

interface RequestState {
  readonly requestId: string
  readonly startedAt: bigint
  readonly startedAtMs: number
  /** The path as asked (still percent-encoded), never the query. */
  readonly path: string
  /** The query string as asked, without `key`. */
  readonly queryWithoutKey: string
  /** What the request asks, once read; whether it reached an API route (the query log). */
  read?: ReadRequest
}

const states = new WeakMap<Request, RequestState>()

const rawTarget = (req: Request): { readonly path: string; readonly query: string } => {
  const url = req.originalUrl ?? req.url ?? ""
  const q = url.indexOf("?")
  return q === -1 ? { path: url, query: "" } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

const sendReply = (res: Response, reply: ApiReply): void => {
  res.status(reply.status)
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value)
  res.send(reply.body)
}

/**
 * The Express app of the API (not listening). Every request is answered by `answerReadRequest`
 * (routes `GET /api/v2/trips`, `/api/v2/trips/:id`, `/api/v2/trips/:id/threads`, `/api/v2/openapi.json`, `/health`; any
 * other is an Error object: 404, 405, 413, 414) with keys and quotas checked; Express adds the
 * request id, the security headers, the logs and the query log.
 */
export const createApp = ({ runtime, config, useCases }: CreateAppOptions): Express => {
  const logger = config.logger ?? jsonLineLogger(process.stdout, process.stderr)
  const now = config.now ?? Date.now
  const options = {
    apiBaseUrl: config.apiBaseUrl,
    websiteBaseUrl: config.websiteBaseUrl,
    supportLink: config.supportLink,
    maxUrlLength: config.maxUrlLength,
    useCases,
    admission: keyQuota,
    logger
  }

  const app = express()
  app.disable("x-powered-by")
  app.disable("etag")

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
      queryWithoutKey: stripKey(target.query)
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
      if (state.read?.apiRequest === true && config.queryLog !== undefined) {
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

  // Everything else: the adapter's one answer function, as the replay tool's core target uses it.
  app.use(async (req: Request, res: Response) => {
    const state = states.get(req)
    if (state === undefined) throw new Error("request state missing")
    const read = readApiRequest({ method: req.method, url: req.originalUrl ?? req.url ?? "", headers: req.headers }, options)
    state.read = read
    const abort = new AbortController()
    const onClose = () => {
      if (!res.writableFinished) abort.abort()
    }
    res.on("close", onClose)
    const reply = await answerReadRequest(runtime, read, options, {
      requestId: state.requestId,
      receivedAtMs: state.startedAtMs,
      signal: abort.signal
    })
    res.off("close", onClose)
    if (abort.signal.aborted) return
    sendReply(res, reply)
  })

  // Errors thrown by a handler: a 500 without internals.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
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
    sendReply(res, internalErrorReply(format, state?.requestId ?? "unknown", options))
  })

  return app
}
