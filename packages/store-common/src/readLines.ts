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

const hex = (byte: number): string => `0x${byte.toString(16).toUpperCase().padStart(2, "0")}`

/** The import's message for line `n`'s first byte that is not UTF-8 (either feed). */
export const invalidUtf8Error = (n: number, { byte, lineOffset, sourceOffset }: InvalidUtf8): string =>
  `line ${n}: (line): must be valid UTF-8, got byte ${hex(byte)} at offset ${lineOffset} of the line (offset ${sourceOffset} of the feed)`

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
 * The lines of `b[0, end)`, which ends just after a `\n` (or at the source's end), numbered from
 * `n0 + 1`; `at` is the offset of `b[0]` in the source. Bytes are checked as UTF-8 before they are
 * decoded (all the lines at once, line by line only when that check fails).
 */
export const linesIn = (b: Buffer, end: number, n0: number, at: number): Array<NumberedLine> => {
  const out: Array<NumberedLine> = []
  let n = n0
  if (isUtf8(b.subarray(0, end))) {
    const text = b.toString("utf8", 0, end)
    let start = 0
    let nl: number
    while ((nl = text.indexOf("\n", start)) !== -1) {
      out.push({ n: ++n, text: stripCr(text.slice(start, nl)) })
      start = nl + 1
    }
    if (start < text.length) out.push({ n: ++n, text: stripCr(text.slice(start)) })
    return out
  }
  let start = 0
  while (start < end) {
    const nl = b.indexOf(10, start)
    const stop = nl === -1 || nl >= end ? end : nl
    const bad = firstInvalidUtf8(b, start, stop)
    if (bad === -1) out.push({ n: ++n, text: stripCr(b.toString("utf8", start, stop)) })
    else out.push({ n: ++n, invalidUtf8: { byte: b[bad]!, lineOffset: bad - start, sourceOffset: at + bad } })
    start = stop + 1
  }
  return out
}

/**
 * Lines of a byte source, not yet decoded: `bytes` holds lines `n0 + 1` to `n0 + count`, each
 * followed by its `\n` (but the source's last line when it has none), `at` the offset of its
 * first byte in the source. `linesIn(bytes, bytes.length, n0, at)` gives the lines as `readLines`
 * does.
 */
export interface LineBytes {
  readonly n0: number
  readonly count: number
  readonly bytes: Uint8Array
  readonly at: number
}

/**
 * The source's lines as `readLines` yields them, in batches of at most `maxLines`: from a byte
 * source (a file, a stream, chunks), each batch's bytes (`LineBytes`, a copy that the caller may
 * transfer), so that they can be decoded in another thread; from a source of lines (strings),
 * the lines themselves.
 */
export async function* readLineBatches(source: FeedSource, maxLines: number): AsyncGenerator<LineBytes | Array<NumberedLine>> {
  const stream = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source
  if (!(typeof source === "string" || isReadable(stream))) {
    let lines: Array<NumberedLine> = []
    for await (const line of readLines(source)) {
      lines.push(line)
      if (lines.length >= maxLines) {
        yield lines
        lines = []
      }
    }
    if (lines.length > 0) yield lines
    return
  }
  let n = 0
  /** The lines of `b[0, end)`, cut in batches. */
  function* batchesOf(b: Buffer, end: number, at: number): Generator<LineBytes> {
    let start = 0
    while (start < end) {
      let stop = start
      let count = 0
      while (count < maxLines && stop < end) {
        const nl = b.indexOf(10, stop)
        stop = nl === -1 || nl >= end ? end : nl + 1
        count++
      }
      yield { n0: n, count, bytes: new Uint8Array(b.subarray(start, stop)), at: at + start }
      n += count
      start = stop
    }
  }
  yield* byteChunks(stream as AsyncIterable<string | Uint8Array>, batchesOf)
}

/** Whole lines: `b[0, end)`, which ends just after a `\n` or at the source's end, at offset `at` in the source. */
type WholeLines = readonly [b: Buffer, end: number, at: number]

/**
 * Cuts a byte source's chunks at the last `\n` of each, the rest carried into the next, a UTF-8
 * byte-order mark at the very start skipped: `push` answers the whole lines the chunk completes
 * (none yet: undefined), `finish` the last line at the source's end.
 */
class LineCutter {
  private pending: Buffer = Buffer.alloc(0)
  /** Offset in the source of `pending[0]`. */
  private pendingAt = 0
  /** Nothing read yet: a byte-order mark may come. */
  first = true

  push(chunk: Buffer): WholeLines | undefined {
    let bytes = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk
    if (this.first) {
      if (bytes.length < BOM.length && BOM.slice(0, bytes.length).every((x, k) => bytes[k] === x)) {
        this.pending = bytes // too short to tell yet
        return undefined
      }
      this.first = false
      if (BOM.every((x, k) => bytes[k] === x)) {
        bytes = bytes.subarray(BOM.length)
        this.pendingAt = BOM.length
      }
    }
    const lastNl = bytes.lastIndexOf(10)
    if (lastNl === -1) {
      this.pending = bytes
      return undefined
    }
    const at = this.pendingAt
    this.pending = bytes.subarray(lastNl + 1)
    this.pendingAt += lastNl + 1
    return [bytes, lastNl + 1, at]
  }

  finish(): WholeLines | undefined {
    const { pending } = this
    if (pending.length === 0) return undefined
    if (this.first && pending.length === BOM.length && BOM.every((x, k) => pending[k] === x)) return undefined
    return [pending, pending.length, this.pendingAt]
  }
}

const asBuffer = (item: Uint8Array): Buffer => (Buffer.isBuffer(item) ? item : Buffer.from(item.buffer, item.byteOffset, item.byteLength))

/** The whole lines of a byte source's chunks (`LineCutter`), through `emit(b, end, at)`. */
async function* byteChunks<T>(stream: AsyncIterable<string | Uint8Array>, emit: (b: Buffer, end: number, at: number) => Iterable<T>): AsyncGenerator<T> {
  const cutter = new LineCutter()
  for await (const item of stream) {
    const lines = cutter.push(typeof item === "string" ? Buffer.from(item, "utf8") : asBuffer(item))
    if (lines !== undefined) yield* emit(...lines)
  }
  const last = cutter.finish()
  if (last !== undefined) yield* emit(...last)
}

/**
 * Yields every line of the source with its number, blank ones included. Bytes are checked as
 * UTF-8 before they are decoded (a whole chunk's complete lines at once, line by line only when
 * that check fails); a UTF-8 byte-order mark at the very start is skipped.
 */
export async function* readLines(source: FeedSource): AsyncGenerator<NumberedLine> {
  const stream = typeof source === "string" ? createReadStream(source, { highWaterMark: 1 << 20 }) : source
  const chunked = typeof source === "string" || isReadable(stream)
  let n = 0
  if (chunked) {
    yield* byteChunks(stream as AsyncIterable<string | Uint8Array>, (b, end, at) => {
      const lines = linesIn(b, end, n, at)
      n += lines.length
      return lines
    })
    return
  }
  // Chunks of a plain iterable: strings are lines already, bytes are cut as a stream's.
  const cutter = new LineCutter()
  for await (const item of stream as AsyncIterable<string | Uint8Array>) {
    if (typeof item === "string") {
      const lines = item.split("\n")
      if (cutter.first && lines[0]!.startsWith("\uFEFF")) lines[0] = lines[0]!.slice(1)
      cutter.first = false
      for (const line of lines) yield { n: ++n, text: stripCr(line) }
      continue
    }
    const whole = cutter.push(asBuffer(item))
    if (whole === undefined) continue
    const [b, end, at] = whole
    for (const line of linesIn(b, end, n, at)) {
      n++
      yield line
    }
  }
  const last = cutter.finish()
  if (last !== undefined) yield* linesIn(last[0], last[1], n, last[2])
}
