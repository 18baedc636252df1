import { FastCheck as fc } from "effect"
import { Readable } from "node:stream"
import { describe, expect, it } from "vitest"
import { linesIn, type NumberedLine, readLineBatches, readLines } from "../src/index.js"

// An import hands a file's lines to its decode threads as bytes (readLineBatches), each thread
// decoding them with linesIn: the lines, their numbers, and the bytes that are not UTF-8 (with
// their offsets) must be those readLines gives, however the source is cut into chunks and the
// lines into batches.
const collect = async <A>(it: AsyncIterable<A>): Promise<Array<A>> => {
  const out: Array<A> = []
  for await (const x of it) out.push(x)
  return out
}

const batched = async (source: () => Readable | Iterable<string>, maxLines: number): Promise<Array<NumberedLine>> => {
  const lines: Array<NumberedLine> = []
  let next = 1
  for (const batch of await collect(readLineBatches(source(), maxLines))) {
    const got = Array.isArray(batch) ? batch : linesIn(Buffer.from(batch.bytes), batch.bytes.byteLength, batch.n0, batch.at)
    if (!Array.isArray(batch)) {
      expect(batch.n0 + 1).toBe(next)
      expect(got.length).toBe(batch.count)
    }
    expect(got.length).toBeLessThanOrEqual(maxLines)
    next += got.length
    lines.push(...got)
  }
  return lines
}

/** Lines of text, blank ones, CRs, non-ASCII, bytes that are not UTF-8, a BOM or not. */
const piece = fc.oneof(
  fc.constantFrom("{\"id\":\"a\"}", "", " ", "\r", "é€😀", "x\r", "\t \u00a0"),
  fc.string({ maxLength: 12 }),
  fc.uint8Array({ maxLength: 6 }).map((b) => Buffer.from(b).toString("latin1"))
)
const feed = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(piece, fc.boolean()), { maxLength: 30 }), fc.boolean(), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }))
  .map(([bom, items, endNl, cuts]) => {
    const parts: Array<Buffer> = bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : []
    items.forEach(([text, raw], k) => {
      parts.push(raw ? Buffer.from(text, "latin1") : Buffer.from(text, "utf8"))
      if (k < items.length - 1 || endNl) parts.push(Buffer.from("\n"))
    })
    const bytes = Buffer.concat(parts)
    // The bytes in chunks of the given sizes, cycling, as a stream would deliver them.
    const chunks: Array<Buffer> = []
    for (let at = 0, k = 0; at < bytes.length; k++) {
      const size = cuts[k % cuts.length]!
      chunks.push(bytes.subarray(at, at + size))
      at += size
    }
    return chunks
  })

describe("readLineBatches", () => {
  it("gives a byte source's lines as readLines does, whatever the chunks and the batch size", async () => {
    await fc.assert(
      fc.asyncProperty(feed, fc.integer({ min: 1, max: 7 }), async (chunks, maxLines) => {
        const expected = await collect(readLines(Readable.from(chunks)))
        expect(await batched(() => Readable.from(chunks), maxLines)).toStrictEqual(expected)
        // The same chunks as a plain iterable of bytes, which readLines cuts with the same code.
        expect(await collect(readLines(chunks))).toStrictEqual(expected)
      }),
      { numRuns: 500 }
    )
  })

  it("gives a source of lines as readLines does, in batches", async () => {
    const lines = ["\uFEFFa", "", "b\r", "c\nd", "é"]
    expect(await batched(() => lines, 2)).toStrictEqual(await collect(readLines(lines)))
  })
})
