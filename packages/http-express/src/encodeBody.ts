/**
 * Response bodies as they go on the wire: the JSON or XML text, compressed when the client accepts
 * it and the body is large enough. This module loads neither Express nor any other HTTP code, so
 * that a worker thread of the search pool (`@tripsearch/http-express/encodeBody`) builds a search's
 * finished bytes where the search ran, and the HTTP thread only writes them.
 */
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib"
import type { JsonObject, ResponseBody } from "@tripsearch/core"
import type { ResponseFormat } from "./negotiateFormat.js"
import { toXml } from "./toXml.js"

/** The content codings the service sends (`identity`: uncompressed). */
export type ContentCoding = "br" | "gzip" | "identity"

/** How a client wants its answer: the format, and the coding to compress it with if it is worth it. */
export interface Representation {
  readonly format: ResponseFormat
  readonly coding: ContentCoding
}

export const IDENTITY: Representation = { format: "json", coding: "identity" }

/**
 * Bodies below this many bytes go out uncompressed. Measured (docs/PERFORMANCE.md, Compression):
 * the small answers (Error objects, `fields=pager`) are ~120 bytes, which gzip and brotli shrink
 * by 13-27 bytes for a fixed 0.1-0.2 ms of codec set-up, and which fit in one TCP segment with
 * the ~670 bytes of headers either way; from 1 KiB on, compression saves ~70% and more.
 */
export const COMPRESSION_MIN_BYTES = 1024

// Fast levels on purpose: a search's answer is 2-30 KB of repetitive JSON that brotli 4 and gzip 6
// already shrink 4-7x; higher levels save a few percent more for several times the CPU, and CPU
// is what limits this service's throughput (2 cores serve matching, rendering and HTTP).
const BROTLI_QUALITY = 4
const GZIP_LEVEL = 6

/** A body compressed in a coding at the service's levels, whatever its size. */
export const compress = (bytes: Uint8Array, coding: "br" | "gzip"): Uint8Array =>
  coding === "br"
    ? brotliCompressSync(bytes, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
          [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength
        }
      })
    : gzipSync(bytes, { level: GZIP_LEVEL })

/** The bytes of a body in a coding: `identity` (and a body under the threshold) passes through. */
export const compressBody = (bytes: Uint8Array, coding: ContentCoding): { readonly bytes: Uint8Array; readonly coding: ContentCoding } =>
  coding === "identity" || bytes.byteLength < COMPRESSION_MIN_BYTES ? { bytes, coding: "identity" } : { bytes: compress(bytes, coding), coding }

/** A body already in its final bytes (encoded, maybe compressed): written as is. */
export class EncodedBody {
  constructor(
    readonly bytes: Uint8Array,
    readonly format: ResponseFormat,
    readonly coding: ContentCoding
  ) {}
}

/** What an answer's use-case gives: a document to encode here, or its finished bytes. */
export type ReplyBody = ResponseBody | EncodedBody

/** The text of a document in a format. */
export const bodyText = (body: JsonObject, format: ResponseFormat): string => (format === "xml" ? toXml(body) : JSON.stringify(body))

/** A document's finished bytes in a representation: JSON or XML text, then compressed if worth it. */
export const encodeBody = (body: JsonObject, representation: Representation): EncodedBody => {
  const { bytes, coding } = compressBody(Buffer.from(bodyText(body, representation.format), "utf8"), representation.coding)
  return new EncodedBody(bytes, representation.format, coding)
}
