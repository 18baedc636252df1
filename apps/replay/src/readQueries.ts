import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import type { Readable } from "node:stream"
import { redactQuery } from "@tripsearch/http-express"

/** One query to replay: a request target of the API, and what the log recorded about it. */
export interface RecordedQuery {
  /** 1-based line number in the input (for messages and the report). */
  readonly line: number
  /** The path as asked, still percent-encoded, e.g. `/api/v2/trips`. */
  readonly path: string
  /** The query string without `?` (may be empty), as asked, without the key and with key-like parameters redacted (`redactQuery`). */
  readonly query: string
  /** The recorded start of the request (epoch ms), from the query log's `time`. */
  readonly timeMs?: number
  /** The status the API answered when the query was recorded. */
  readonly recordedStatus?: number
  /** The duration the API logged, in ms. */
  readonly recordedDurationMs?: number
}

/** A line that is neither a query-log record nor a request path. */
export class UnreadableLine extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
    readonly text: string
  ) {
    const shown = text.length > 120 ? `${text.slice(0, 120)}...` : text
    super(`line ${line}: ${reason}: ${JSON.stringify(shown)}`)
    this.name = "UnreadableLine"
  }
}

/** `path?query` as one request target. */
export const requestTarget = (q: Pick<RecordedQuery, "path" | "query">): string => (q.query === "" ? q.path : `${q.path}?${q.query}`)

const splitTarget = (target: string): { path: string; query: string } => {
  const hash = target.indexOf("#")
  const noHash = hash === -1 ? target : target.slice(0, hash)
  const q = noHash.indexOf("?")
  return q === -1 ? { path: noHash, query: "" } : { path: noHash.slice(0, q), query: noHash.slice(q + 1) }
}

const fromTarget = (line: number, text: string): RecordedQuery => {
  let target = text
  if (/^https?:\/\//i.test(target)) {
    const url = new URL(target)
    target = `${url.pathname}${url.search}`
  }
  if (!target.startsWith("/") || /\s/.test(target)) throw new UnreadableLine(line, "not a request path (/api/v2/...)", text)
  const { path, query } = splitTarget(target)
  return { line, path, query: redactQuery(query) }
}

/**
 * Reads one input line; the format is detected per line: a JSON object is a record of the API's
 * query log (`{time, path, query, status, duration_ms}`), a line starting with `/` (or `http://`)
 * is a request target (`/api/v2/trips?fn=Paris&tn=Lyon`). Blank lines and `#` comments give
 * `undefined`. Anything else throws `UnreadableLine`.
 */
export const parseQueryLine = (line: number, raw: string): RecordedQuery | undefined => {
  const text = raw.trim()
  if (text === "" || text.startsWith("#")) return undefined
  if (!text.startsWith("{")) return fromTarget(line, text)
  let record: unknown
  try {
    record = JSON.parse(text)
  } catch {
    throw new UnreadableLine(line, "not valid JSON", text)
  }
  if (typeof record !== "object" || record === null || Array.isArray(record)) throw new UnreadableLine(line, "not a JSON object", text)
  const r = record as Record<string, unknown>
  if (typeof r.path !== "string" || !r.path.startsWith("/")) throw new UnreadableLine(line, "no \"path\" starting with /", text)
  if (r.query !== undefined && typeof r.query !== "string") throw new UnreadableLine(line, "\"query\" is not a string", text)
  let timeMs: number | undefined
  if (r.time !== undefined) {
    timeMs = typeof r.time === "number" ? r.time : typeof r.time === "string" ? Date.parse(r.time) : Number.NaN
    if (!Number.isFinite(timeMs)) throw new UnreadableLine(line, "\"time\" is not an ISO date", text)
  }
  const query = typeof r.query === "string" ? redactQuery(r.query.startsWith("?") ? r.query.slice(1) : r.query) : ""
  const { path, query: inPath } = splitTarget(r.path)
  return {
    line,
    path,
    query: query !== "" ? query : redactQuery(inPath),
    ...(timeMs !== undefined ? { timeMs } : {}),
    ...(typeof r.status === "number" ? { recordedStatus: r.status } : {}),
    ...(typeof r.duration_ms === "number" ? { recordedDurationMs: r.duration_ms } : {})
  }
}

export interface ReadQueriesOptions {
  /** Queries (not lines) to skip first. */
  readonly skip?: number | undefined
  /** Most queries to read after the skipped ones. */
  readonly limit?: number | undefined
}

/**
 * Reads the queries of a log file (`-`: standard input) into memory, so that a bad line is reported
 * before any request is sent and the run knows its total. Stops reading after `skip + limit`.
 */
export const readQueries = async (source: string | Readable, options: ReadQueriesOptions = {}): Promise<Array<RecordedQuery>> => {
  const skip = options.skip ?? 0
  const limit = options.limit ?? Number.POSITIVE_INFINITY
  let input: Readable
  if (typeof source === "string" && source !== "-") {
    const file = createReadStream(source)
    // Fails here (no such file, a directory, no permission) rather than inside the line loop.
    await new Promise<void>((resolve, reject) => {
      file.once("ready", () => resolve())
      file.once("error", reject)
    })
    input = file
  } else input = typeof source === "string" ? process.stdin : source
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  const queries: Array<RecordedQuery> = []
  let lineNo = 0
  let seen = 0
  try {
    for await (const raw of lines) {
      lineNo += 1
      const query = parseQueryLine(lineNo, raw)
      if (query === undefined) continue
      seen += 1
      if (seen <= skip) continue
      queries.push(query)
      if (queries.length >= limit) break
    }
  } finally {
    lines.close()
    if (typeof source === "string" && source !== "-") input.destroy()
  }
  return queries
}
