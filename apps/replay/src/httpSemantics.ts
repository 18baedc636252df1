/**
 * What the HTTP adapter (`@tripsearch/http-express`) does around the use-cases, reproduced for the
 * embedded core target so that it answers the same status and body as the server for the same
 * request (JSON format). `@tripsearch/replay` does not depend on `http-express` (and may not add
 * the dependency), so this copies, from its `createApp.ts`, `httpErrors.ts`, `parseQuery.ts` and
 * `negotiateFormat.ts`: the routes (case-insensitive, optional trailing slash, as Express), the
 * 414 length guard, the query-string parser (400 on malformed percent-encoding), the `_format`
 * check, and the error tag -> status/token/message table with the spec's Error object. The test
 * `core-vs-http.test.ts` replays the same log through both and fails if they drift apart.
 */

/** Parsed query parameters: a repeated parameter becomes an array, so the core can reject it. */
export type ParsedQuery = Record<string, string | Array<string>>

export const API_PREFIX = "/api/v2"
export const DEFAULT_MAX_URL_LENGTH = 8 * 1024

/** An HTTP error answer before rendering. */
export interface ErrorReply {
  readonly status: number
  readonly token: string
  readonly message: string
}

class MalformedQuery extends Error {
  constructor(readonly parameter: string) {
    super(`${parameter}: malformed percent-encoding in the query string`)
  }
}

const decodeComponent = (raw: string): string => decodeURIComponent(raw.replace(/\+/g, " "))

const readableName = (rawName: string): string => {
  try {
    return decodeComponent(rawName)
  } catch {
    return rawName.replace(/[^A-Za-z0-9_.-]/g, "?")
  }
}

/** `URLSearchParams` semantics, but a malformed `%` sequence is an error (http-express `parseQuery`). */
export const parseQuery = (queryString: string): ParsedQuery | ErrorReply => {
  const result: ParsedQuery = Object.create(null) as ParsedQuery
  for (const part of queryString.split("&")) {
    if (part === "") continue
    const eq = part.indexOf("=")
    const rawName = eq === -1 ? part : part.slice(0, eq)
    const rawValue = eq === -1 ? "" : part.slice(eq + 1)
    let name: string
    let value: string
    try {
      name = decodeComponent(rawName)
      value = decodeComponent(rawValue)
    } catch {
      const e = new MalformedQuery(readableName(rawName))
      return { status: 400, token: "parameter.invalid", message: e.message }
    }
    const previous = result[name]
    if (previous === undefined) result[name] = value
    else if (Array.isArray(previous)) previous.push(value)
    else result[name] = [previous, value]
  }
  return result
}

/** The query string without its `key` parameters, other parameters untouched (http-express `stripKey`). */
export const stripKey = (queryString: string): string =>
  queryString
    .split("&")
    .filter((part) => {
      if (part === "") return false
      const eq = part.indexOf("=")
      const rawName = eq === -1 ? part : part.slice(0, eq)
      try {
        return decodeComponent(rawName) !== "key"
      } catch {
        return true
      }
    })
    .join("&")

export const isErrorReply = (value: ParsedQuery | ErrorReply): value is ErrorReply =>
  typeof (value as { token?: unknown }).token === "string" && typeof (value as { status?: unknown }).status === "number"

/** `_format`: absent, `json` or `xml`; anything else (or repeated) is a 400 answered in JSON. */
export const checkFormat = (formatParam: string | ReadonlyArray<string> | undefined): "json" | "xml" | ErrorReply => {
  if (formatParam === undefined) return "json"
  if (typeof formatParam !== "string") {
    return { status: 400, token: "parameter.invalid", message: "_format: must be given at most once (json or xml)" }
  }
  if (formatParam === "json" || formatParam === "xml") return formatParam
  return { status: 400, token: "parameter.invalid", message: "_format: must be json or xml" }
}

export type Route =
  | { readonly _tag: "Search" }
  | { readonly _tag: "Details"; readonly id: string }
  | { readonly _tag: "Threads"; readonly id: string }
  | { readonly _tag: "Error"; readonly reply: ErrorReply }

const NOT_FOUND: ErrorReply = {
  status: 404,
  token: "resource.not_found",
  message: "No resource at this path: the API lives under /api/v2/trips"
}

/** The route of a path as Express matches it (case-insensitive, one optional trailing slash). */
export const routeOf = (path: string): Route => {
  const m = /^\/api\/v2\/trips(?:\/([^/]+?))?(\/threads)?\/?$/i.exec(path)
  if (m === null || (m[2] !== undefined && m[1] === undefined)) return { _tag: "Error", reply: NOT_FOUND }
  if (m[1] === undefined) return { _tag: "Search" }
  let id: string
  try {
    id = decodeURIComponent(m[1])
  } catch {
    return { _tag: "Error", reply: { status: 400, token: "parameter.invalid", message: "id: malformed percent-encoding in the path" } }
  }
  return m[2] === undefined ? { _tag: "Details", id } : { _tag: "Threads", id }
}

const messageOf = (error: Readonly<Record<string, unknown>>): string => {
  const message: unknown = (error as { readonly message?: unknown }).message
  return typeof message === "string" ? message : ""
}

const parameterMessage = (parameter: string, message: string): string => {
  if (!message) return `${parameter}: invalid value`
  return message.includes(parameter) ? message : `${parameter}: ${message}`
}

/** 500: never any detail of the cause. */
export const internalError = (requestId: string): ErrorReply => ({
  status: 500,
  token: "service.error",
  message: `An internal error occurred; quote request id ${requestId} to the support`
})

/** The tag -> status table of http-express (`errorReplyOf`), for the errors the use-cases raise. */
export const errorReplyOf = (error: unknown, requestId: string): ErrorReply => {
  const e = (typeof error === "object" && error !== null ? error : {}) as Record<string, unknown> & { _tag?: unknown }
  switch (e._tag) {
    case "InvalidParameter": {
      const parameter = String(e.parameter ?? "")
      return {
        status: 400,
        token: e.missing === true ? "parameter.missing" : "parameter.invalid",
        message: parameterMessage(parameter, messageOf(e))
      }
    }
    case "PlaceNotFound":
      return { status: 404, token: "place.not_found", message: messageOf(e) || `No place matches "${String(e.text)}"` }
    case "TripNotFound":
      return { status: 404, token: "trip.not_found", message: messageOf(e) || `No trip with id "${String(e.id)}"` }
    case "ServiceOverloaded":
      return { status: 503, token: "service.overloaded", message: "The service is overloaded; retry later" }
    default:
      return internalError(requestId)
  }
}

/** The spec's Error object (http-express `errorBody`). */
export const errorBody = (reply: ErrorReply, supportLink: string) => ({
  error: {
    code: String(reply.status),
    "developper-message": reply.token,
    message: reply.message,
    "support-link": supportLink
  }
})
