import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { checkAnswer, nodeHeaders } from "./checkedFetch.js"

/**
 * `checkAnswer` for an answer read with node:http's client: `url` the address asked (absolute, or
 * the request target), its headers as Node gives them, its body as the bytes on the wire (brotli
 * or gzip undone, as `fetch` would).
 */
export const checkNodeAnswer = (
  method: string,
  url: string,
  status: number,
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  bytes: Buffer
): void => {
  const coding = headers["content-encoding"]
  const body = method === "HEAD" ? "" : (coding === "br" ? brotliDecompressSync(bytes) : coding === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8")
  checkAnswer({ method: method.toUpperCase(), url, status, headers: nodeHeaders(headers), body })
}
