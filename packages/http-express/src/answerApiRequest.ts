import { randomUUID } from "node:crypto"
import { Cause, Effect, Exit, type ManagedRuntime } from "effect"
import {
  CurrentClientKey,
  ServiceOverloaded,
  EncodedJson,
  InvalidParameter,
  type JsonObject,
  type PlaceResolver,
  type RawParams,
  type RequestContext,
  searchTrips,
  suggestPlaces,
  type TripMatcher,
  tripDetails,
  TripStore,
  tripThreads
} from "@tripsearch/core"
import { compressBody, type ContentCoding, EncodedBody, type ReplyBody, type Representation } from "./encodeBody.js"
import { type ErrorReply, errorBody, errorReplyOf, errorReplyOfCause, internalError } from "./httpErrors.js"
import { type Admission, admitAll, type RateLimit } from "./keyQuota.js"
import type { ResponseFormat } from "./negotiateFormat.js"
import { ALLOWED_METHODS, type ApiRequest, type KeySources, type ReadOptions, type ReadRequest, readApiRequest } from "./readApiRequest.js"
import type { RequestLogger } from "./RequestLogger.js"
import { toXml } from "./toXml.js"
import { openApiText } from "./openApiDocument.js"

/** Seconds a search refused by `shedSearch` is told to wait, as the pool's own refusals. */
const SHED_RETRY_AFTER_SECONDS = 1

/** The services the use-cases need. */
export type UseCaseServices = TripStore | PlaceResolver | TripMatcher

/**
 * The use-cases behind the routes: the core's by default. The server runs searches in its worker
 * pool, which answers the finished bytes in the asked `Representation` (an `EncodedBody`); tests
 * may replace any of them.
 */
export interface UseCases {
  readonly searchTrips: (
    params: RawParams,
    context: RequestContext,
    representation: Representation
  ) => Effect.Effect<ReplyBody, unknown, UseCaseServices>
  readonly tripDetails: (id: string, params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, TripStore>
  readonly tripThreads: (id: string, params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown, TripStore>
  readonly suggestPlaces: (params: RawParams, context: RequestContext) => Effect.Effect<JsonObject, unknown>
}

/**
 * An answer, framework-free: what goes on the wire. The body is text, or bytes when compressed
 * (`Content-Encoding` says how) or built in a worker; a 204 has an empty body.
 */
export interface ApiReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | Uint8Array
}

export interface AnswerOptions<R> extends ReadOptions {
  /** Public base URL of the service (links), no trailing slash. */
  readonly apiBaseUrl: string
  /** Base URL of the public website (`_front` links), no trailing slash. */
  readonly websiteBaseUrl: string
  /** URL of the help page of an error token; default `{websiteBaseUrl}/developers/errors#{token}`. */
  readonly supportLink?: ((token: string) => string) | undefined
  readonly useCases?: Partial<UseCases> | undefined
  /** Keys and quotas around the use-case (`keyQuota`); default none: every request runs. */
  readonly admission?: Admission<R> | undefined
  /**
   * Whether a search with this key (as sent, empty when none) is to be refused now, 503
   * `service.overloaded` with `Retry-After`, before the key is looked up: under overload a
   * refusal costs no more than parsing. Details and threads are never refused this way.
   */
  readonly shedSearch?: ((key: string) => boolean) | undefined
  /**
   * Whether the server is draining before it stops (after SIGTERM): `/health` then answers 503
   * `draining`, so that a load balancer stops sending requests while those under way finish.
   */
  readonly draining?: (() => boolean) | undefined
  /** Defects, encoder and health failures; default: not logged. */
  readonly logger?: RequestLogger | undefined
}

/** Per-request facts: its id (quoted by a 500), arrival time, and the client going away. */
export interface AnswerContext {
  /** Default: a random UUID. */
  readonly requestId?: string | undefined
  /** Epoch ms; default now. */
  readonly receivedAtMs?: number | undefined
  /** Aborts the use-case (the client closed the connection): the reply is then not to be sent. */
  readonly signal?: AbortSignal | undefined
  /** The coding `Accept-Encoding` chose (`negotiateCoding`); default identity. */
  readonly coding?: ContentCoding | undefined
}

/** The help page of an error token: the configured one, else `{websiteBaseUrl}/developers/errors#{token}`. */
export const supportLinkOf =
  (options: Pick<AnswerOptions<never>, "websiteBaseUrl" | "supportLink">) =>
  (token: string): string =>
    options.supportLink?.(token) ?? `${options.websiteBaseUrl}/developers/errors#${token}`

const CACHE_OK = "private, max-age=600"
const CACHE_ERROR = "no-store"
const JSON_TYPE = "application/json; charset=utf-8"
const XML_TYPE = "application/xml; charset=utf-8"

/**
 * The service's answer to a request, in full: routing and guards (`readApiRequest`), keys and
 * quotas (the `admission`, none by default), the use-case, the error tag -> status table, the JSON
 * or XML body, `Cache-Control`, and the body compressed in `context.coding` when it is large
 * enough (`COMPRESSION_MIN_BYTES`). The Express app and the replay tool's core target both answer
 * through it.
 */
export const answerApiRequest = <R = never>(
  runtime: ManagedRuntime.ManagedRuntime<UseCaseServices | R, unknown>,
  request: ApiRequest,
  options: AnswerOptions<R>,
  context: AnswerContext = {}
): Promise<ApiReply> => answerReadRequest(runtime, readApiRequest(request, options), options, context)

/** `answerApiRequest` for a request already read (the caller needed to know its route first). */
export const answerReadRequest = async <R = never>(
  runtime: ManagedRuntime.ManagedRuntime<UseCaseServices | R, unknown>,
  read: ReadRequest,
  options: AnswerOptions<R>,
  context: AnswerContext = {}
): Promise<ApiReply> => compressReply(await answerUncompressed(runtime, read, options, context), context.coding ?? "identity")

/** A text body of a compressible size in the coding asked; bytes already built pass through. */
const compressReply = (reply: ApiReply, coding: ContentCoding): ApiReply => {
  if (typeof reply.body !== "string" || coding === "identity") return reply
  const compressed = compressBody(Buffer.from(reply.body, "utf8"), coding)
  if (compressed.coding === "identity") return reply
  return { ...reply, headers: { ...reply.headers, "Content-Encoding": compressed.coding }, body: compressed.bytes }
}

const answerUncompressed = async <R = never>(
  runtime: ManagedRuntime.ManagedRuntime<UseCaseServices | R, unknown>,
  read: ReadRequest,
  options: AnswerOptions<R>,
  context: AnswerContext
): Promise<ApiReply> => {
  const requestId = context.requestId ?? randomUUID()
  const supportLink = supportLinkOf(options)
  const logger = options.logger
  const encoding = { requestId, supportLink, logger }

  switch (read._tag) {
    case "Refused":
      return encodeError(read.format, read.reply, read.headers, encoding)
    case "Health":
      return answerHealth(runtime, logger, options.draining?.() === true)
    case "Options":
      return { status: 204, headers: { Allow: ALLOWED_METHODS }, body: "" }
    case "OpenApi":
      return { status: 200, headers: { "Cache-Control": CACHE_OK, "Content-Type": JSON_TYPE }, body: openApiText(options.apiBaseUrl) }
    case "UseCase":
      break
  }

  const shed = shedUncompressed(read, options, encoding)
  if (shed !== undefined) return shed
  const clientKey = clientKeyOf(read.keys)

  const cases: UseCases = {
    searchTrips: options.useCases?.searchTrips ?? searchTrips,
    tripDetails: options.useCases?.tripDetails ?? tripDetails,
    tripThreads: options.useCases?.tripThreads ?? tripThreads,
    suggestPlaces: options.useCases?.suggestPlaces ?? suggestPlaces
  }
  const requestContext: RequestContext = {
    apiBaseUrl: options.apiBaseUrl,
    websiteBaseUrl: options.websiteBaseUrl,
    path: read.path,
    query: read.query
  }
  const route = read.route
  const useCase: Effect.Effect<ReplyBody, unknown, UseCaseServices> =
    read.invalid !== undefined
      ? Effect.fail(new InvalidParameter(read.invalid))
      : route._tag === "Search"
      ? // The key, for the pool's fair share between keys while it is saturated.
        Effect.locally(
          cases.searchTrips(read.params, requestContext, { format: read.format, coding: context.coding ?? "identity" }),
          CurrentClientKey,
          clientKey
        )
      : route._tag === "Details"
        ? cases.tripDetails(route.id, read.params, requestContext)
        : route._tag === "Places"
          ? cases.suggestPlaces(read.params, requestContext)
          : cases.tripThreads(route.id, read.params, requestContext)
  const admission: Admission<R> = options.admission ?? admitAll
  const admitted = admission(read.keys, useCase, { requestId, receivedAtMs: context.receivedAtMs ?? Date.now() })
  const exit = await runtime.runPromiseExit(admitted, { signal: context.signal })

  const failed = (cause: Cause.Cause<unknown>, rate?: RateLimit): ApiReply => {
    const reply = errorReplyOfCause(cause, requestId)
    // An interruption because the client left is no defect of ours: nobody reads this answer.
    if (reply.defect && context.signal?.aborted !== true) {
      logger?.error({ event: "request_failed", request_id: requestId, path: read.path, cause: Cause.pretty(cause) })
    }
    return encodeError(read.format, reply, rate === undefined ? {} : rateHeaders(rate), encoding)
  }
  if (Exit.isFailure(exit)) return failed(exit.cause)
  const { exit: outcome, rate } = exit.value
  if (Exit.isFailure(outcome)) return failed(outcome.cause, rate)
  return encode(read.format, 200, outcome.value, rate === undefined ? {} : rateHeaders(rate), encoding)
}

/** The key a request sent (header first), as sent; empty when none (or the query's is repeated). */
const clientKeyOf = (keys: KeySources): string => keys.header ?? (typeof keys.query === "string" ? keys.query : "")

// Built once: the same for every refused search, and a refusal must cost no more than parsing (a
// tagged error captures a stack trace when it is made).
const SHED_ERROR = errorReplyOf(new ServiceOverloaded({ retryAfterSeconds: SHED_RETRY_AFTER_SECONDS }), "")

/** The 503 of each format, by the options it was encoded with (its support link is theirs). */
const shedReplies = new WeakMap<object, Partial<Record<ResponseFormat, ApiReply>>>()

/** The 503 of a search that `shedSearch` refuses now, uncompressed; undefined for any other request. */
const shedUncompressed = (
  read: ReadRequest,
  options: Pick<AnswerOptions<never>, "shedSearch">,
  encoding: Encoding
): ApiReply | undefined => {
  if (read._tag !== "UseCase" || read.route._tag !== "Search" || options.shedSearch?.(clientKeyOf(read.keys)) !== true) return undefined
  let replies = shedReplies.get(options)
  if (replies === undefined) shedReplies.set(options, (replies = {}))
  return (replies[read.format] ??= encodeError(read.format, SHED_ERROR, {}, encoding))
}

/**
 * The answer `answerReadRequest` gives a search that `shedSearch` refuses now (503
 * `service.overloaded` with `Retry-After`, in the asked format and coding), without the runtime:
 * for a caller that refuses before the rest of its stack runs. Undefined when the request is not
 * refused that way.
 */
export const shedReply = (
  read: ReadRequest,
  options: Pick<AnswerOptions<never>, "shedSearch" | "websiteBaseUrl" | "supportLink" | "logger">,
  coding: ContentCoding = "identity"
): ApiReply | undefined => {
  const reply = shedUncompressed(read, options, { requestId: "", supportLink: supportLinkOf(options), logger: options.logger })
  return reply === undefined ? undefined : compressReply(reply, coding)
}

const rateHeaders = (rate: RateLimit): Record<string, string> => ({
  "X-RateLimit-Limit-day": String(rate.limit),
  "X-RateLimit-Remaining-day": String(rate.remaining)
})

interface Encoding {
  readonly requestId: string
  readonly supportLink: (token: string) => string
  readonly logger: RequestLogger | undefined
}

/** A body in the asked format, with its type and cache headers after `headers`. */
const encode = (
  format: ResponseFormat,
  status: number,
  body: ReplyBody,
  headers: Readonly<Record<string, string>>,
  encoding: Encoding
): ApiReply => {
  const cache = status === 200 ? CACHE_OK : CACHE_ERROR
  if (body instanceof EncodedBody) {
    return {
      status,
      headers: {
        ...headers,
        "Cache-Control": cache,
        "Content-Type": body.format === "xml" ? XML_TYPE : JSON_TYPE,
        ...(body.coding === "identity" ? {} : { "Content-Encoding": body.coding })
      },
      body: body.bytes
    }
  }
  try {
    const text =
      body instanceof EncodedJson
        ? format === "xml"
          ? toXml(JSON.parse(body.text) as JsonObject)
          : body.text
        : format === "xml"
          ? toXml(body)
          : JSON.stringify(body)
    return {
      status,
      headers: { ...headers, "Cache-Control": cache, "Content-Type": format === "xml" ? XML_TYPE : JSON_TYPE },
      body: text
    }
  } catch (error) {
    // An encoder failure is ours: answer the 500 in JSON, the format that cannot fail.
    encoding.logger?.error({ event: "encode_failed", error: error instanceof Error ? error.message : String(error) })
    return {
      status: 500,
      headers: { ...headers, "Cache-Control": CACHE_ERROR, "Content-Type": JSON_TYPE },
      body: JSON.stringify(errorBody(internalError(encoding.requestId), encoding.supportLink("service.error")))
    }
  }
}

/** The Error object for a reply, with `Retry-After` when it has one. */
const encodeError = (
  format: ResponseFormat,
  reply: ErrorReply,
  headers: Readonly<Record<string, string>>,
  encoding: Encoding
): ApiReply => {
  const retry = reply.retryAfterSeconds
  const withRetry =
    retry !== undefined && Number.isFinite(retry) ? { ...headers, "Retry-After": String(Math.max(0, Math.ceil(retry))) } : headers
  return encode(format, reply.status, errorBody(reply, encoding.supportLink(reply.token)), withRetry, encoding)
}

/**
 * How long `/health` waits for the store's data version before it answers `degraded`: well under
 * a load balancer's check timeout (docs/haproxy.cfg: 1 s). A store that went away can take far
 * longer to fail a read (PostgreSQL's client queues it behind connections being opened again),
 * and a check timing out takes a replica out whose searches are still answered from its index.
 */
export const HEALTH_STORE_WAIT_MS = 250

/** The store's data version being read for `/health`, per runtime: one read at a time, whoever asks. */
const storeChecks = new WeakMap<object, Promise<Exit.Exit<number, unknown>>>()

/**
 * `/health`: 200 whenever the server answers (its searches come from its index), `ok` with the
 * store's data version when the store answers within `HEALTH_STORE_WAIT_MS`, `degraded` when it
 * does not; 503 `draining` once the server is stopping; never cached. A read still under way when
 * the next check comes is awaited again rather than doubled, so that checks do not pile reads up
 * while the store is away.
 */
const answerHealth = async (
  runtime: ManagedRuntime.ManagedRuntime<TripStore, unknown>,
  logger: RequestLogger | undefined,
  draining: boolean
): Promise<ApiReply> => {
  const headers = { "Cache-Control": CACHE_ERROR, "Content-Type": JSON_TYPE }
  if (draining) return { status: 503, headers, body: JSON.stringify({ status: "draining" }) }
  let check = storeChecks.get(runtime)
  if (check === undefined) {
    check = runtime.runPromiseExit(
      Effect.gen(function* () {
        const store = yield* TripStore
        const changes = yield* store.changesSince(Number.MAX_SAFE_INTEGER)
        return changes.seq
      })
    )
    storeChecks.set(runtime, check)
    const made = check
    void made.finally(() => {
      if (storeChecks.get(runtime) === made) storeChecks.delete(runtime)
    })
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), HEALTH_STORE_WAIT_MS)
  })
  const exit = await Promise.race([check, late])
  clearTimeout(timer)
  if (exit !== "late" && Exit.isSuccess(exit)) {
    return { status: 200, headers, body: JSON.stringify({ status: "ok", store: "reachable", data_version: exit.value }) }
  }
  logger?.error(
    exit === "late"
      ? { event: "health_failed", cause: `the store did not give its data version within ${HEALTH_STORE_WAIT_MS} ms` }
      : { event: "health_failed", cause: Cause.pretty(exit.cause) }
  )
  return { status: 200, headers, body: JSON.stringify({ status: "degraded", store: "unreachable" }) }
}

/** The 500 `service.error` in the asked format, for a failure outside the use-cases (a thrown handler). */
export const internalErrorReply = (
  format: ResponseFormat,
  requestId: string,
  options: Pick<AnswerOptions<never>, "websiteBaseUrl" | "supportLink" | "logger">
): ApiReply =>
  encodeError(format, internalError(requestId), {}, {
    requestId,
    supportLink: supportLinkOf(options),
    logger: options.logger
  })
