import type { RawParams } from "@tripsearch/core"
import type { ErrorReply } from "./httpErrors.js"
import { negotiateFormat, type ResponseFormat } from "./negotiateFormat.js"
import { MalformedQuery, type ParsedQuery, parseQuery } from "./parseQuery.js"
import { redactPath, redactQuery } from "./redactSecrets.js"

/** A request as the adapter sees it, framework-free (what Express, or the replay tool, hands over). */
export interface ApiRequest {
  readonly method: string
  /** The request target as received: the path and the query string, still percent-encoded. */
  readonly url: string
  /** Request headers, names in lower case (Node's `IncomingHttpHeaders` fits). */
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
}

/** The API resources. */
export type ApiRoute =
  | { readonly _tag: "Search" }
  | { readonly _tag: "Details"; readonly id: string }
  | { readonly _tag: "Threads"; readonly id: string }
  | { readonly _tag: "Places" }

/** Where the key of a request may be (docs/API.md, Keys): the `key` header wins over the query's. */
export interface KeySources {
  readonly header: string | undefined
  readonly query: string | ReadonlyArray<string> | undefined
}

/**
 * What a request asks, before any use-case runs. `apiRequest` says whether it reached an API
 * route (the query log records those, whatever their answer).
 */
export type ReadRequest =
  | { readonly _tag: "Health"; readonly apiRequest: false }
  /** `OPTIONS` on a resource: a CORS preflight (`Origin` and `Access-Control-Request-Method`) or a plain one. */
  | { readonly _tag: "Options"; readonly apiRequest: false; readonly preflight: boolean }
  | { readonly _tag: "OpenApi"; readonly apiRequest: false }
  | {
      readonly _tag: "Refused"
      readonly apiRequest: boolean
      readonly format: ResponseFormat
      readonly reply: ErrorReply
      /** Headers that go with the refusal (`Allow`, `Connection`). */
      readonly headers: Readonly<Record<string, string>>
    }
  | {
      readonly _tag: "UseCase"
      readonly apiRequest: true
      readonly route: ApiRoute
      readonly format: ResponseFormat
      /** The decoded query parameters but `key` (a repeated one is an array: the core rejects it). */
      readonly params: RawParams
      readonly keys: KeySources
      /** The path as asked (still percent-encoded), a `name=secret` pair in it redacted (`redactPath`). */
      readonly path: string
      /** The query string as asked, without `key` and with key-like parameters redacted (`redactQuery`): what links and logs see. */
      readonly query: string
      /**
       * A 400 found while reading (a malformed `_format`, or the trip id's percent-encoding),
       * answered instead of the use-case once the key has been checked: such a request gets the
       * 401, 403 or 429 any other bad parameter gets, and a keyed 400 its quota headers.
       */
      readonly invalid?: { readonly parameter: string; readonly message: string }
    }

export interface ReadOptions {
  /** Longest accepted request target (path and query), in bytes; default 8 KiB. */
  readonly maxUrlLength?: number | undefined
}

export const API_PREFIX = "/api/v2"
/** The methods of every resource (`Allow`): HEAD answers as GET does, without the body. */
export const ALLOWED_METHODS = "GET, HEAD, OPTIONS"
export const DEFAULT_MAX_URL_LENGTH = 8 * 1024

// The routes as Express matched them: case-insensitive, one optional trailing slash, `:id` one
// non-empty path segment.
const API_ROUTE = /^\/api\/v2\/trips(?:\/([^/]+?))?(\/threads)?\/?$/i
const HEALTH_ROUTE = /^\/health\/?$/i
const OPENAPI_ROUTE = /^\/api\/v2\/openapi\.json\/?$/i
const PLACES_ROUTE = /^\/api\/v2\/places\/?$/i

const SEARCH_ROUTE = /^\/api\/v2\/trips\/?$/i

/** Whether a request target (path and query) is the search route's, as `readApiRequest` routes it. */
export const isSearchPath = (url: string): boolean => {
  const q = url.indexOf("?")
  return SEARCH_ROUTE.test(q === -1 ? url : url.slice(0, q))
}

/** A header's value as one string (a repeated header joined, as Node does). */
export const headerOf = (headers: ApiRequest["headers"], name: string): string | undefined => {
  const value = headers[name]
  return value === undefined ? undefined : typeof value === "string" ? value : value.join(", ")
}

const splitTarget = (url: string): { readonly path: string; readonly query: string } => {
  const q = url.indexOf("?")
  return q === -1 ? { path: url, query: "" } : { path: url.slice(0, q), query: url.slice(q + 1) }
}

const formatOr = (formatParam: string | ReadonlyArray<string> | undefined, accept: string | undefined): ResponseFormat => {
  const choice = negotiateFormat(formatParam, accept)
  return choice._tag === "Format" ? choice.format : "json"
}

/** The format of an answer given before (or without) a successful `_format` decision. */
const bestEffortFormat = (query: string, accept: string | undefined): ResponseFormat => {
  let formatParam: string | ReadonlyArray<string> | undefined
  try {
    formatParam = parseQuery(query)._format
  } catch {
    formatParam = undefined
  }
  return formatOr(formatParam, accept)
}

const hasBody = (headers: ApiRequest["headers"]): boolean => {
  const length = headerOf(headers, "content-length")
  if (length !== undefined && length.trim() !== "0") return true
  return headerOf(headers, "transfer-encoding") !== undefined
}

const refused = (
  format: ResponseFormat,
  reply: ErrorReply,
  headers: Readonly<Record<string, string>> = {},
  apiRequest = false
): ReadRequest => ({ _tag: "Refused", apiRequest, format, reply, headers })

/**
 * Reads a request, in the order the service answers it: the target length (414), the method
 * (405 but GET, HEAD and OPTIONS), a body (413), the route (`/health`, `/api/v2/openapi.json`;
 * the API routes; else 404 `resource.not_found`), `OPTIONS` (answered there), the query
 * string's percent-encoding (400 at once when no key is in the header: the query's cannot be
 * read), then `_format` and `Accept`. A bad `_format`, trip id percent-encoding, or query string
 * with a key in the header, is a 400 too, given after the key's check (`invalid`). HEAD is read
 * as GET.
 * Pure: no use-case runs here.
 */
export const readApiRequest = (request: ApiRequest, options: ReadOptions = {}): ReadRequest => {
  const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH
  const accept = headerOf(request.headers, "accept")
  const { path, query } = splitTarget(request.url)

  if (Buffer.byteLength(request.url, "utf8") > maxUrlLength) {
    return refused(formatOr(undefined, accept), {
      status: 414,
      token: "request.uri_too_long",
      message: `The request URL is longer than ${maxUrlLength} bytes`
    })
  }
  const isOptions = request.method === "OPTIONS"
  if (request.method !== "GET" && request.method !== "HEAD" && !isOptions) {
    return refused(
      bestEffortFormat(query, accept),
      { status: 405, token: "method.not_allowed", message: `Method ${request.method} is not allowed: the service answers ${ALLOWED_METHODS}` },
      hasBody(request.headers) ? { Allow: ALLOWED_METHODS, Connection: "close" } : { Allow: ALLOWED_METHODS }
    )
  }
  if (hasBody(request.headers)) {
    return refused(
      bestEffortFormat(query, accept),
      { status: 413, token: "request.body_not_allowed", message: `A ${request.method} request of this service carries no body` },
      { Connection: "close" }
    )
  }
  const m = API_ROUTE.exec(path)
  const places = PLACES_ROUTE.test(path)
  const resource = HEALTH_ROUTE.test(path) || OPENAPI_ROUTE.test(path) || places || (m !== null && !(m[2] !== undefined && m[1] === undefined))
  if (isOptions && (resource || path === "*")) {
    const preflight = headerOf(request.headers, "origin") !== undefined && headerOf(request.headers, "access-control-request-method") !== undefined
    return { _tag: "Options", apiRequest: false, preflight }
  }
  if (HEALTH_ROUTE.test(path)) return { _tag: "Health", apiRequest: false }
  if (OPENAPI_ROUTE.test(path)) return { _tag: "OpenApi", apiRequest: false }
  if (!places && (m === null || !resource)) {
    return refused(bestEffortFormat(query, accept), {
      status: 404,
      token: "resource.not_found",
      message: "No resource at this path: the API lives under /api/v2/trips"
    })
  }
  let route: ApiRoute = places ? { _tag: "Places" } : { _tag: "Search" }
  let invalid: { readonly parameter: string; readonly message: string } | undefined
  if (m !== null && m[1] !== undefined) {
    let id: string
    try {
      id = decodeURIComponent(m[1])
    } catch {
      id = m[1]
      invalid = { parameter: "id", message: "id: malformed percent-encoding in the path" }
    }
    route = m[2] === undefined ? { _tag: "Details", id } : { _tag: "Threads", id }
  }

  const headerKey = headerOf(request.headers, "key")
  let parsed: ParsedQuery
  try {
    parsed = parseQuery(query)
  } catch (error) {
    if (!(error instanceof MalformedQuery)) throw error
    // The query's key cannot be read from it: only a key in the header is checked first.
    if (headerKey === undefined || headerKey === "") {
      return refused(formatOr(undefined, accept), { status: 400, token: "parameter.invalid", message: error.message }, {}, true)
    }
    parsed = Object.create(null) as ParsedQuery
    invalid ??= { parameter: error.parameter, message: error.message }
  }
  const choice = negotiateFormat(parsed._format, accept)
  if (choice._tag === "InvalidFormat") invalid ??= { parameter: "_format", message: choice.message }

  const params: Record<string, string | ReadonlyArray<string>> = Object.create(null) as Record<string, string>
  for (const [name, value] of Object.entries(parsed)) if (name !== "key") params[name] = value
  // Redacted when first asked for: a search refused under overload never is, and its cost must
  // stay that of parsing.
  let redactedQuery: string | undefined
  return {
    _tag: "UseCase",
    apiRequest: true,
    route,
    // A `_format` that is no format is answered in JSON, the format that cannot be refused.
    format: choice._tag === "Format" ? choice.format : "json",
    params,
    keys: { header: headerKey, query: parsed.key },
    path: redactPath(path),
    get query() {
      return (redactedQuery ??= redactQuery(query))
    },
    ...(invalid !== undefined ? { invalid } : {})
  }
}
