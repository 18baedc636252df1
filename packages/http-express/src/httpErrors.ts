import { Cause, Chunk, Option } from "effect"
import { isStoreUnavailable, type JsonObject } from "@tripsearch/core"

/**
 * Every `developper-message` token the service can answer, with its HTTP status and when it is
 * sent. Replies are typed by it and the OpenAPI document lists it, so the two cannot drift.
 */
export const ERROR_TOKENS = {
  "parameter.invalid": { status: 400, when: "A query parameter (or the trip id's percent-encoding) breaks its rule; the message names the parameter and the rule." },
  "parameter.missing": { status: 400, when: "A required parameter (`locale`; `cur` on a search; `q` on place suggestions) is absent." },
  "request.malformed": { status: 400, when: "Node's HTTP parser refuses the request (e.g. a target without a leading `/`)." },
  "auth.missing_key": { status: 401, when: "No API key, in the `key` header or the `key` query parameter." },
  "auth.invalid_key": { status: 403, when: "The API key is unknown or revoked." },
  "place.not_found": { status: 404, when: "A place name (`fn`, `tn`) resolves to no city. Counts against the quota." },
  "trip.not_found": { status: 404, when: "No active trip has this id, or the segment `{id}_{i}_{j}` is not one of the trip's (`i >= j`, or `j` past its last waypoint; `{id}_0_{n}` is the whole trip, answered as `{id}`; numbers with leading zeros name none). Counts against the quota." },
  "resource.not_found": { status: 404, when: "No resource at this path." },
  "method.not_allowed": { status: 405, when: "Any method but GET, HEAD and OPTIONS (HEAD is answered as GET without the body, OPTIONS with 204 and the methods); the answer carries `Allow: GET, HEAD, OPTIONS`." },
  "request.timeout": { status: 408, when: "The request's headers were not received within 10 s, or the whole request within 30 s." },
  "request.body_not_allowed": { status: 413, when: "The request carries a body." },
  "request.uri_too_long": { status: 414, when: "The request target is longer than 8 KiB." },
  "quota.exceeded": { status: 429, when: "The key's daily quota is spent; `Retry-After` gives the seconds until the next UTC midnight." },
  "request.headers_too_large": { status: 431, when: "The request headers are larger than 16 KiB." },
  "service.error": {
    status: 500,
    when: "An internal error; the message quotes the request id and nothing else. Also sent with 503 and `Retry-After` when the trip store cannot be reached: a trip's details or threads, or a key this server has not looked up before."
  },
  "service.overloaded": {
    status: 503,
    when: "Too many searches are waiting for a worker; retry after `Retry-After` seconds. A request sent again at once on the same connection is read only after a short pause (a fifth of the server's wait bound, 100 ms by default)."
  }
} as const satisfies Record<string, { readonly status: number; readonly when: string }>

export type ErrorToken = keyof typeof ERROR_TOKENS

/** An HTTP error answer before rendering: status, `developper-message` token and human message. */
export interface ErrorReply {
  readonly status: number
  readonly token: ErrorToken
  readonly message: string
  /** Seconds for the `Retry-After` header (429, 503). */
  readonly retryAfterSeconds?: number
  /** Whether the failure is a defect (logged with its cause, answered without internals). */
  readonly defect?: boolean
}

const messageOf = (error: Readonly<Record<string, unknown>>): string => {
  // Tagged errors may define `message` as a prototype getter: read it as a property, not an own key.
  const message: unknown = (error as { readonly message?: unknown }).message
  return typeof message === "string" ? message : ""
}

const parameterMessage = (parameter: string, message: string): string => {
  if (!message) return `${parameter}: invalid value`
  return message.includes(parameter) ? message : `${parameter}: ${message}`
}

/** Internal error answer: never any detail of the cause. */
export const internalError = (requestId: string): ErrorReply => ({
  status: 500,
  token: "service.error",
  message: `An internal error occurred; quote request id ${requestId} to the support`,
  defect: true
})

/**
 * The tag -> HTTP status table (the only one in the project). Any value that is not one of the
 * known tagged errors is a 500.
 */
export const errorReplyOf = (error: unknown, requestId: string): ErrorReply => {
  const e = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown> & { _tag?: unknown }
  switch (e._tag) {
    case "InvalidParameter": {
      const parameter = String(e.parameter ?? "")
      const missing = e.missing === true
      return {
        status: 400,
        token: missing ? "parameter.missing" : "parameter.invalid",
        message: parameterMessage(parameter, messageOf(e))
      }
    }
    case "PlaceNotFound":
      return { status: 404, token: "place.not_found", message: messageOf(e) || `No place matches "${String(e.text)}"` }
    case "TripNotFound":
      return { status: 404, token: "trip.not_found", message: messageOf(e) || `No trip with id "${String(e.id)}"` }
    case "MissingKey":
      return {
        status: 401,
        token: "auth.missing_key",
        message: "An API key is required: send it in the `key` header or the `key` query parameter"
      }
    case "InvalidKey":
      return { status: 403, token: "auth.invalid_key", message: "The API key is unknown or revoked" }
    case "QuotaExceeded": {
      const retry = Number(e.retryAfterSeconds)
      return {
        status: 429,
        token: "quota.exceeded",
        message: `The daily quota of ${String(e.limit)} requests of this key is spent; it is reset at 00:00 UTC`,
        retryAfterSeconds: retry
      }
    }
    case "ServiceOverloaded":
      return {
        status: 503,
        token: "service.overloaded",
        message: "The service is overloaded; retry later",
        retryAfterSeconds: Number(e.retryAfterSeconds)
      }
    default:
      return internalError(requestId)
  }
}

/** Seconds a client is asked to wait when the store cannot be reached. */
export const STORE_RETRY_AFTER_SECONDS = 5

/** The 503 of a request that needed the store while it could not be reached. */
export const storeUnavailable = (requestId: string): ErrorReply => ({
  status: 503,
  token: "service.error",
  message: `The trip store cannot be reached at the moment; retry later (request id ${requestId})`,
  retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
  defect: true
})

/**
 * The reply for a failed Effect: its first expected failure, else a 503 when a defect says the
 * store cannot be reached (`StoreUnavailable`), else (defect, interruption) a 500.
 */
export const errorReplyOfCause = (cause: Cause.Cause<unknown>, requestId: string): ErrorReply =>
  Option.match(Cause.failureOption(cause), {
    onNone: () => (Cause.defects(cause).pipe(Chunk.some(isStoreUnavailable)) ? storeUnavailable(requestId) : internalError(requestId)),
    onSome: (error) => errorReplyOf(error, requestId)
  })

/** The Error object (docs/API.md, Error). */
export const errorBody = (reply: ErrorReply, supportLink: string): JsonObject => ({
  error: {
    code: String(reply.status),
    "developper-message": reply.token,
    message: reply.message,
    "support-link": supportLink
  }
})
