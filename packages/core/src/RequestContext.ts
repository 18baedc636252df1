import { FiberRef } from "effect"

/** Raw query parameters as the edge received them: a repeated parameter arrives as an array. */
export type RawParams = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * What the use-cases need to build links (docs/API.md, Resources): configured base URLs (never the Host
 * header) and the request as asked, with the API key already removed from `query`.
 */
export interface RequestContext {
  /** Public base URL of this service, no trailing slash, e.g. `https://api.example.com`. */
  readonly apiBaseUrl: string
  /** Base URL of the public website, no trailing slash. */
  readonly websiteBaseUrl: string
  /** Path as asked, e.g. `/api/v2/trips`. */
  readonly path: string
  /** Query string as asked without `key`, without the leading `?` (may be empty). */
  readonly query: string
}

/** A JSON document whose key order is the response order (the XML encoder keeps it). */
export type JsonObject = { readonly [key: string]: JsonValue }
export type JsonValue = string | number | boolean | JsonObject | ReadonlyArray<JsonValue>

/**
 * A response body already encoded as JSON text, passed through as is: a worker thread that ran
 * the use-case renders it there, so that the thread serving HTTP neither clones nor re-encodes it.
 */
export class EncodedJson {
  constructor(readonly text: string) {}
}

/** What a use-case answers: a document, or one already encoded. */
export type ResponseBody = JsonObject | EncodedJson

/**
 * The API key the request being served came with, as sent (empty when unknown): the HTTP adapter
 * sets it around a use-case, and a worker pool's admission queue shares its places between keys
 * by it. Only compared in this process: never sent to a worker, never logged.
 */
export const CurrentClientKey: FiberRef.FiberRef<string> = FiberRef.unsafeMake("")
