import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { InMemoryTripMatcher, searchTrips, tripDetails, tripThreads, type JsonObject } from "@tripsearch/core"
import { GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { SqliteTripStore } from "@tripsearch/storage-sqlite"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import {
  checkFormat,
  DEFAULT_MAX_URL_LENGTH,
  errorBody,
  type ErrorReply,
  errorReplyOf,
  internalError,
  isErrorReply,
  parseQuery,
  routeOf,
  stripKey
} from "./httpSemantics.js"
import { type RecordedQuery, requestTarget } from "./readQueries.js"

/** One answer of a target to one query. */
export interface Answer {
  /** HTTP status; 0 when no answer came back (network failure, timeout). */
  readonly status: number
  readonly format: "json" | "xml" | "other"
  readonly body: string
  /** Wall time from sending to the whole body read, in ms. */
  readonly latencyMs: number
  /** Why there is no answer (status 0). */
  readonly failure?: string
}

/** Where queries are replayed: the embedded core or an HTTP server. */
export interface Target {
  /** `core (path)` or the base URL. */
  readonly name: string
  /** Checks that the target can answer (store present, server reachable); throws `TargetProblem`. */
  readonly check: () => Promise<void>
  readonly send: (query: RecordedQuery) => Promise<Answer>
  readonly close: () => Promise<void>
}

/** A target that cannot be used (no store, unreachable, key refused): one clear message. */
export class TargetProblem extends Error {
  constructor(message: string) {
    super(message)
    this.name = "TargetProblem"
  }
}

/**
 * The request target as a client sends it: what `fetch` puts on the wire after URL parsing (it
 * percent-encodes a few characters left raw in a log), so both kinds of target see the same bytes.
 */
export const wireTarget = (query: RecordedQuery): { readonly path: string; readonly query: string } => {
  const url = new URL(requestTarget(query), "http://replay.invalid")
  return { path: url.pathname, query: url.search.startsWith("?") ? url.search.slice(1) : url.search }
}

export interface CoreTargetOptions {
  readonly dbPath: string
  /** Base URL written into `_self` links (default `http://localhost`). */
  readonly apiBaseUrl?: string | undefined
  /** Base URL of `_front` and `support-link` links (default `https://www.tripsearch.example`). */
  readonly websiteBaseUrl?: string | undefined
}

type CoreServices = Layer.Layer.Success<ReturnType<typeof coreLayer>>

/** The core's services over the SQLite store: the API's wiring, with the in-thread matcher. */
const coreLayer = (dbPath: string) =>
  Layer.mergeAll(InMemoryTripMatcher.layer.pipe(Layer.provideMerge(SqliteTripStore.layer(dbPath))), GazetteerPlaceResolver.layer)

/**
 * The embedded core: the use-cases over the SQLite store, layers built once in a ManagedRuntime.
 * Answers as the HTTP server would in JSON; a request asking `_format=xml` is answered in JSON
 * too (the XML encoder belongs to the HTTP adapter). No key is checked (no 401/403/429).
 */
export const coreTarget = (options: CoreTargetOptions): Target => {
  const apiBaseUrl = options.apiBaseUrl ?? "http://localhost"
  const websiteBaseUrl = options.websiteBaseUrl ?? "https://www.tripsearch.example"
  let runtime: ManagedRuntime.ManagedRuntime<CoreServices, unknown> | undefined

  const reply = (error: ErrorReply) => ({
    status: error.status,
    body: JSON.stringify(errorBody(error, `${websiteBaseUrl}/developers/errors#${error.token}`))
  })

  const answer = async (query: RecordedQuery): Promise<{ status: number; body: string }> => {
    const rt = runtime
    if (rt === undefined) throw new Error("core target used before check()")
    const wire = wireTarget(query)
    const requestId = randomUUID()
    const target = wire.query === "" ? wire.path : `${wire.path}?${wire.query}`
    if (Buffer.byteLength(target, "utf8") > DEFAULT_MAX_URL_LENGTH) {
      return reply({ status: 414, token: "request.uri_too_long", message: `The request URL is longer than ${DEFAULT_MAX_URL_LENGTH} bytes` })
    }
    const route = routeOf(wire.path)
    if (route._tag === "Error") return reply(route.reply)
    const parsed = parseQuery(wire.query)
    if (isErrorReply(parsed)) return reply(parsed)
    const format = checkFormat(parsed._format)
    if (typeof format !== "string") return reply(format)
    // The key travels in the header (never in the query) for the replay, as the server sees it.
    const params: Record<string, string | ReadonlyArray<string>> = Object.create(null) as Record<string, string>
    for (const [name, value] of Object.entries(parsed)) if (name !== "key") params[name] = value
    const context = { apiBaseUrl, websiteBaseUrl, path: wire.path, query: stripKey(wire.query) }
    const useCase: Effect.Effect<JsonObject, unknown, CoreServices> =
      route._tag === "Search"
        ? searchTrips(params, context)
        : route._tag === "Details"
          ? tripDetails(route.id, params, context)
          : tripThreads(route.id, params, context)
    const exit = await rt.runPromiseExit(useCase)
    if (Exit.isSuccess(exit)) return { status: 200, body: JSON.stringify(exit.value) }
    return reply(
      Option.match(Cause.failureOption(exit.cause), {
        onNone: () => internalError(requestId),
        onSome: (error) => errorReplyOf(error, requestId)
      })
    )
  }

  return {
    name: `core (${options.dbPath})`,
    check: async () => {
      if (!existsSync(options.dbPath)) throw new TargetProblem(`no trip store at ${options.dbPath} (--db must name an existing SQLite store)`)
      if (runtime !== undefined) return
      const rt = ManagedRuntime.make(coreLayer(options.dbPath))
      try {
        await rt.runtime()
      } catch (error) {
        await rt.dispose().catch(() => {})
        throw new TargetProblem(`cannot open the trip store ${options.dbPath}: ${error instanceof Error ? error.message : String(error)}`)
      }
      runtime = rt
    },
    send: async (query) => {
      const started = performance.now()
      const { status, body } = await answer(query)
      return { status, format: "json", body, latencyMs: performance.now() - started }
    },
    close: async () => {
      const rt = runtime
      runtime = undefined
      if (rt !== undefined) await rt.dispose()
    }
  }
}

export interface HttpTargetOptions {
  /** `http://host:port` (a path prefix is kept). */
  readonly baseUrl: string
  /** API key, sent in the `key` header. */
  readonly key?: string | undefined
  /** Per-request timeout (default 30 s). */
  readonly timeoutMs?: number | undefined
}

const formatOf = (contentType: string | null): Answer["format"] => {
  const type = (contentType ?? "").toLowerCase()
  if (type.includes("json")) return "json"
  if (type.includes("xml")) return "xml"
  return "other"
}

const causeText = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as { cause?: unknown }).cause
  const code = typeof cause === "object" && cause !== null ? (cause as { code?: unknown }).code : undefined
  if (error.name === "TimeoutError") return "timed out"
  return typeof code === "string" ? code : cause instanceof Error ? cause.message : error.message
}

/** An API server: each query is a GET of `{baseUrl}{path}?{query}` with the key in the `key` header. */
export const httpTarget = (options: HttpTargetOptions): Target => {
  const base = options.baseUrl.replace(/\/+$/, "")
  const timeoutMs = options.timeoutMs ?? 30_000
  const headers: Record<string, string> = { accept: "*/*" }
  if (options.key !== undefined) headers.key = options.key
  return {
    name: base,
    check: async () => {
      let url: URL
      try {
        url = new URL(`${base}/health`)
      } catch {
        throw new TargetProblem(`${options.baseUrl} is not a URL (expected http://HOST:PORT)`)
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new TargetProblem(`${options.baseUrl} is not an http(s) URL`)
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(5_000) })
        await res.arrayBuffer()
      } catch (error) {
        throw new TargetProblem(`cannot reach ${base}: ${causeText(error)}`)
      }
      if (options.key === undefined) throw new TargetProblem(`no API key for ${base} (give --key, or --key-b for the --compare target)`)
    },
    send: async (query) => {
      const started = performance.now()
      try {
        const res = await fetch(`${base}${requestTarget(query)}`, { headers, signal: AbortSignal.timeout(timeoutMs) })
        const body = await res.text()
        return { status: res.status, format: formatOf(res.headers.get("content-type")), body, latencyMs: performance.now() - started }
      } catch (error) {
        return { status: 0, format: "other", body: "", latencyMs: performance.now() - started, failure: causeText(error) }
      }
    },
    close: async () => {}
  }
}

/** The `developper-message` token of an error body, if it is one. */
export const errorToken = (answer: Pick<Answer, "body" | "format">): string | undefined => {
  if (answer.format === "json") {
    try {
      const token = (JSON.parse(answer.body) as { error?: { "developper-message"?: unknown } }).error?.["developper-message"]
      return typeof token === "string" ? token : undefined
    } catch {
      return undefined
    }
  }
  if (answer.format === "xml") return /<developper-message>([^<]*)<\/developper-message>/.exec(answer.body)?.[1]
  return undefined
}
