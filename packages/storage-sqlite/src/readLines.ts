import { createReadStream } from "node:fs"
import { Readable } from "node:stream"
import { StringDecoder } from "node:string_decoder"

/**
 * Where feed lines come from:
 * - a file path;
 * - a byte or text stream: a `Readable`, or any (async) iterable of `Uint8Array` chunks, split on
 *   `\n` wherever the chunks break (UTF-8 decoded across chunk boundaries);
 * - lines: a non-stream (async) iterable of strings (an array, readline's interface, a generator),
 *   each item one line (an item holding `\n` counts as several lines).
 */
export type FeedSource = string | Readable | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>

/** One physical line, 1-based line number, without its line terminator. */
export interface NumberedLine {
  readonly n: number
  readonly text: string
}

const isReadable = (x: unknown): x is Readable => x instanceof Readable || (typeof x === "object" && x !== null && typeof (x as Readable).pipe === "function" && typeof (x as Readable).read === "function")

const stripCr = (s: string): string => (s.endsWith("\r") ? s.slice(0, -1) : s)

/** Yields every line of the source with its number, blank ones included. */
export async function* readLines(source: FeedSource): AsyncGenerator<NumberedLine> {
  const stream = typeof source === "string" ? createReadStream(source) : source
  const chunked = typeof source === "string" || isReadable(stream)
  const decoder = new StringDecoder("utf8")
  let pending = ""
  let n = 0
  for await (const item of stream as AsyncIterable<string | Uint8Array>) {
    const text = typeof item === "string" ? item : decoder.write(Buffer.isBuffer(item) ? item : Buffer.from(item.buffer, item.byteOffset, item.byteLength))
    if (chunked || typeof item !== "string") {
      pending += text
      let start = 0
      let nl: number
      while ((nl = pending.indexOf("\n", start)) !== -1) {
        yield { n: ++n, text: stripCr(pending.slice(start, nl)) }
        start = nl + 1
      }
      pending = pending.slice(start)
    } else {
      for (const line of text.split("\n")) yield { n: ++n, text: stripCr(line) }
    }
  }
  pending += decoder.end()
  if (pending.length > 0) yield { n: ++n, text: stripCr(pending) }
}
