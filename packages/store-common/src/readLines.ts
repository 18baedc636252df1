import { isUtf8 } from "node:buffer"
import { createReadStream } from "node:fs"
import { Readable } from "node:stream"

/**
 * Where feed lines come from:
 * - a file path;
 * - a byte or text stream: a `Readable`, or any (async) iterable of `Uint8Array` chunks, split on
 *   `\n` wherever the chunks break;
 * - lines: a non-stream (async) iterable of strings (an array, readline's interface, a generator),
 *   each item one line (an item holding `\n` counts as several lines).
 */
export type FeedSource = string | Readable | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>

/** Where a line's bytes stop being UTF-8: the first byte that cannot start or continue a character. */
export interface InvalidUtf8 {
  /** The byte's value. */
  readonly byte: number
  /** Its offset (0-based) in the line, and in the whole source. */
  readonly lineOffset: number
  readonly sourceOffset: number
}

/**
 * One physical line, 1-based line number, without its line terminator. A line of bytes that are
 * not valid UTF-8 has no text, only `invalidUtf8`: a replacement character would silently change
 * the data.
 */
export type NumberedLine =
  | { readonly n: number; readonly text: string; readonly invalidUtf8?: undefined }
  | { readonly n: number; readonly text?: undefined; readonly invalidUtf8: InvalidUtf8 }

const isReadable = (x: unknown): x is Readable => x instanceof Readable || (typeof x === "object" && x !== null && typeof (x as Readable).pipe === "function" && typeof (x as Readable).read === "function")

const stripCr = (s: string): string => (s.endsWith("\r") ? s.slice(0, -1) : s)

/** Editors on Windows start UTF-8 files with it; it is not part of the first line. */
const BOM = [0xef, 0xbb, 0xbf] as const

/** The offset of the first byte of `b[start, end)` that breaks UTF-8 (as the WHATWG decoder reads it). */
export const firstInvalidUtf8 = (b: Uint8Array, start: number, end: number): number => {
  let i = start
  while (i < end) {
    const c = b[i]!
    if (c < 0x80) {
      i++
      continue
    }
    // Allowed second-byte ranges exclude overlongs (E0, F0), surrogates (ED) and code points past U+10FFFF (F4).
    let need: number
    let lo = 0x80
    let hi = 0xbf
    if (c >= 0xc2 && c <= 0xdf) need = 1
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2
      if (c === 0xe0) lo = 0xa0
      if (c === 0xed) hi = 0x9f
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3
      if (c === 0xf0) lo = 0x90
      if (c === 0xf4) hi = 0x8f
    } else return i
    for (let k = 1; k <= need; k++) {
      const x = i + k < end ? b[i + k]! : -1
      if (x < (k === 1 ? lo : 0x80) || x > (k === 1 ? hi : 0xbf)) return i
    }
    i += need + 1
  }
  return -1
}

/**
 * Yields every line of the source with its number, blank ones included. Bytes are checked as
 * UTF-8 before they are decoded (a whole chunk's complete lines at once, line by line only when
 * that check fails); a UTF-8 byte-order mark at the very start is skipped.
 */
export async function* readLines(source: FeedSource): AsyncGenerator<NumberedLine> {
  const stream = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source
  const chunked = typeof source === "string" || isReadable(stream)
  let pending: Buffer = Buffer.alloc(0)
  /** Offset in the source of `pending[0]`. */
  let pendingAt = 0
  let n = 0
  let first = true

  /** The lines of `b[0, end)`, which ends just after a `\n` (or at the source's end). */
  function* linesOf(b: Buffer, end: number, at: number): Generator<NumberedLine> {
    if (isUtf8(b.subarray(0, end))) {
      const text = b.toString("utf8", 0, end)
      let start = 0
      let nl: number
      while ((nl = text.indexOf("\n", start)) !== -1) {
        yield { n: ++n, text: stripCr(text.slice(start, nl)) }
        start = nl + 1
      }
      if (start < text.length) yield { n: ++n, text: stripCr(text.slice(start)) }
      return
    }
    let start = 0
    while (start < end) {
      const nl = b.indexOf(10, start)
      const stop = nl === -1 || nl >= end ? end : nl
      const bad = firstInvalidUtf8(b, start, stop)
      if (bad === -1) yield { n: ++n, text: stripCr(b.toString("utf8", start, stop)) }
      else yield { n: ++n, invalidUtf8: { byte: b[bad]!, lineOffset: bad - start, sourceOffset: at + bad } }
      start = stop + 1
    }
  }

  for await (const item of stream as AsyncIterable<string | Uint8Array>) {
    if (typeof item === "string" && !chunked) {
      const lines = item.split("\n")
      if (first && lines[0]!.startsWith("\uFEFF")) lines[0] = lines[0]!.slice(1)
      first = false
      for (const line of lines) yield { n: ++n, text: stripCr(line) }
      continue
    }
    let bytes = typeof item === "string" ? Buffer.from(item, "utf8") : Buffer.isBuffer(item) ? item : Buffer.from(item.buffer, item.byteOffset, item.byteLength)
    if (pending.length > 0) bytes = Buffer.concat([pending, bytes])
    if (first) {
      if (bytes.length < BOM.length && BOM.slice(0, bytes.length).every((x, k) => bytes[k] === x)) {
        pending = bytes // too short to tell yet
        continue
      }
      first = false
      if (BOM.every((x, k) => bytes[k] === x)) {
        bytes = bytes.subarray(BOM.length)
        pendingAt = BOM.length
      }
    }
    const lastNl = bytes.lastIndexOf(10)
    if (lastNl === -1) {
      pending = bytes
      continue
    }
    yield* linesOf(bytes, lastNl + 1, pendingAt)
    pending = bytes.subarray(lastNl + 1)
    pendingAt += lastNl + 1
  }
  if (pending.length > 0) {
    if (first && pending.length === BOM.length && BOM.every((x, k) => pending[k] === x)) return
    yield* linesOf(pending, pending.length, pendingAt)
  }
}
