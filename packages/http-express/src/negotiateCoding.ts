import Negotiator from "negotiator"
import type { ContentCoding } from "./encodeBody.js"

const CODINGS: Array<ContentCoding> = ["br", "gzip", "identity"]

/**
 * The content coding of an answer, from `Accept-Encoding` with its q-values (`gzip;q=0, br` -> br;
 * `identity` or no header -> identity). On a tie brotli wins: it makes the smaller body at a
 * comparable cost (docs/PERFORMANCE.md). When the header refuses every coding we have, identity
 * all the same: a 406 would only be less useful than an uncompressed answer.
 */
export const negotiateCoding = (acceptEncoding: string | undefined): ContentCoding => {
  const chosen = new Negotiator({ headers: { "accept-encoding": acceptEncoding ?? "" } }).encoding(CODINGS, { preferred: CODINGS })
  return CODINGS.find((c) => c === chosen) ?? "identity"
}
