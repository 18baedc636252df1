import { existsSync } from "node:fs"
import { performance } from "node:perf_hooks"
import { InMemoryTripMatcher } from "@tripsearch/core"
import { GazetteerPlaceNames, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { answerApiRequest } from "@tripsearch/http-express"
import { displayDb, isPostgresUrl, tripStoreLayer } from "@tripsearch/store"
import { Layer, ManagedRuntime } from "effect"
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
export const wireTarget = (query: RecordedQuery): string => {
  const url = new URL(requestTarget(query), "http://replay.invalid")
  return `${url.pathname}${url.search}`
}

/** What both targets send with every query (the HTTP one adds the `key` header). */
const CLIENT_HEADERS: Readonly<Record<string, string>> = { accept: "*/*" }

/** The format of an answer, by its `Content-Type`. */
const formatOf = (contentType: string | null | undefined): Answer["format"] => {
  const type = (contentType ?? "").toLowerCase()
  if (type.includes("json")) return "json"
  if (type.includes("xml")) return "xml"
  return "other"
}

/** The store of the core target: `db`, a SQLite file's path or a `postgres://` URL (`dbPath`, its former name, is still taken). */
export type CoreStore = { readonly db: string } | { /** @deprecated the former name of `db` */ readonly dbPath: string }

export type CoreTargetOptions = CoreStore & {
  /** Base URL written into `_self` links (default `http://localhost`). */
  readonly apiBaseUrl?: string | undefined
  /** Base URL of `_front` and `support-link` links (default `https://www.tripsearch.example`). */
  readonly websiteBaseUrl?: string | undefined
}

type CoreServices = Layer.Layer.Success<ReturnType<typeof coreLayer>>

/** The core's services over the store `--db` names (SQLite or PostgreSQL): the API's wiring, with the in-thread matcher. */
const coreLayer = (db: string) =>
  Layer.mergeAll(InMemoryTripMatcher.layer.pipe(Layer.provideMerge(tripStoreLayer(db))), GazetteerPlaceResolver.layer, GazetteerPlaceNames.layer)

/**
 * The embedded core: the use-cases over the trip store, layers built once in a ManagedRuntime,
 * answered through the HTTP adapter's own `answerApiRequest` (routing, query decoding, `_format`
 * and `Accept`, error table, JSON or XML body), so it answers what the server answers. No key is
 * checked (no 401/403/429): that is the server's admission, not the search's.
 */
export const coreTarget = (options: CoreTargetOptions): Target => {
  const db = "db" in options ? options.db : options.dbPath
  const answerOptions = {
    apiBaseUrl: options.apiBaseUrl ?? "http://localhost",
    websiteBaseUrl: options.websiteBaseUrl ?? "https://www.tripsearch.example"
  }
  let runtime: ManagedRuntime.ManagedRuntime<CoreServices, unknown> | undefined

  return {
    name: `core (${displayDb(db)})`,
    check: async () => {
      if (!isPostgresUrl(db) && !existsSync(db)) {
        throw new TargetProblem(`no trip store at ${db} (--db must name an existing SQLite store, or a postgres:// URL)`)
      }
      if (runtime !== undefined) return
      const rt = ManagedRuntime.make(coreLayer(db))
      try {
        await rt.runtime()
      } catch (error) {
        await rt.dispose().catch(() => {})
        throw new TargetProblem(`cannot open the trip store ${displayDb(db)}: ${error instanceof Error ? error.message : String(error)}`)
      }
      runtime = rt
    },
    send: async (query) => {
      const rt = runtime
      if (rt === undefined) throw new Error("core target used before check()")
      const started = performance.now()
      // The request as the HTTP target sends it: the same bytes on the wire, the same `Accept`.
      const reply = await answerApiRequest(rt, { method: "GET", url: wireTarget(query), headers: CLIENT_HEADERS }, answerOptions)
      // No Accept-Encoding is passed, so the body is never compressed: bytes are UTF-8 text.
      const body = typeof reply.body === "string" ? reply.body : Buffer.from(reply.body).toString("utf8")
      return { status: reply.status, format: formatOf(reply.headers["Content-Type"]), body, latencyMs: performance.now() - started }
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
  const headers: Record<string, string> = { ...CLIENT_HEADERS }
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
