import { isUtf8 } from "node:buffer"
import { writeFileSync } from "node:fs"
import { Readable } from "node:stream"
import { FastCheck as fc } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { firstInvalidUtf8, getMeta, importFeed, openDatabase, type SqliteDatabase } from "../src/index.js"
import { feed, tempDir, toLine, tripInput } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
let db: SqliteDatabase
beforeEach(() => {
  tmp = tempDir()
  db = openDatabase(tmp.path("store.db"))
})
afterEach(() => {
  db.close()
  tmp.cleanup()
})

/** Everything an import may change: the rows and the two meta values. */
const state = (d: SqliteDatabase) => ({
  trips: d.prepare("SELECT * FROM trips ORDER BY id").all(),
  dataVersion: getMeta(d, "data_version"),
  lastImportAt: getMeta(d, "last_import_at")
})

const BOM = Buffer.from([0xef, 0xbb, 0xbf])
/** A line of bytes: `before`, then raw `bytes`, then `after`, inside the trip's comment. */
const lineWithBytes = (id: string, bytes: ReadonlyArray<number>): Buffer => {
  const [head, tail] = toLine(tripInput(id, { comment: "@@" })).split("@@") as [string, string]
  return Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from("Maisons-Alfort"), Buffer.from(tail)])
}
const lines = (...parts: ReadonlyArray<Buffer | string>): Buffer => Buffer.concat(parts.flatMap((p) => [typeof p === "string" ? Buffer.from(p) : p, Buffer.from("\n")]))
const chunksOf = (b: Buffer, size: number): Array<Buffer> => {
  const out: Array<Buffer> = []
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size))
  return out
}


describe("a byte that is not UTF-8 refuses the whole file", () => {
  it("inside a JSON string: named by line and offset, nothing stored, every bad line listed", async () => {
    await importFeed(db, [toLine(tripInput("keep"))])
    const before = state(db)
    const good = toLine(tripInput("a1"))
    const a3 = toLine(tripInput("a3"))
    const bytes = (text: string) => Buffer.byteLength(text)
    const bad2 = lineWithBytes("a2", [0xff])
    const bad4 = lineWithBytes("a4", [0xc3]) // a two-byte character cut short
    const file = lines(good, bad2, a3, bad4)
    const at2 = bad2.indexOf(0xff)
    const at4 = bad4.lastIndexOf(0xc3) // the comment's; "Orléans" has one before it
    const expected = [
      `line 2: (line): must be valid UTF-8, got byte 0xFF at offset ${at2} of the line (offset ${bytes(good) + 1 + at2} of the feed)`,
      `line 4: (line): must be valid UTF-8, got byte 0xC3 at offset ${at4} of the line (offset ${bytes(good) + bad2.length + bytes(a3) + 3 + at4} of the feed)`
    ]
    expect(await importFeed(db, writeBytes(tmp.path("bad.ndjson"), file))).toEqual({ ok: false, errors: expected })
    // The same bytes in chunks of every small size, so that a character and a line break anywhere.
    for (const size of [1, 2, 3, 5, 7, 64]) expect(await importFeed(db, Readable.from(chunksOf(file, size)))).toEqual({ ok: false, errors: expected })
    expect(state(db)).toEqual(before)
  })

  it("overlong forms and surrogates are refused as the WHATWG decoder refuses them", async () => {
    for (const bytes of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const line = lineWithBytes("o1", bytes)
      const result = await importFeed(db, Readable.from([lines(line)]))
      expect(result.ok).toBe(false)
      expect(result.ok ? [] : result.errors).toEqual([expect.stringMatching(new RegExp(`^line 1: \\(line\\): must be valid UTF-8, got byte 0x${bytes[0]!.toString(16).toUpperCase()} at offset ${line.indexOf(bytes[0]!)} `))])
    }
    expect(state(db).trips).toEqual([])
  })

  it("firstInvalidUtf8 agrees with Node's UTF-8 check and stops where the fatal decoder does", () => {
    const bytes = fc.uint8Array({ maxLength: 24 }).chain((head) => fc.constantFrom(...[[0xc3, 0xa9], [0xe2, 0x80, 0x94], [0xf0, 0x9f, 0x9a, 0x97], [0xed, 0x9f, 0xbf], [0xef, 0xbb, 0xbf]]).map((ok) => Uint8Array.from([...ok, ...head, ...ok])))
    fc.assert(
      fc.property(bytes, (b) => {
        const at = firstInvalidUtf8(b, 0, b.length)
        expect(at === -1).toBe(isUtf8(b))
        if (at >= 0) {
          expect(isUtf8(b.subarray(0, at))).toBe(true)
          // No valid character starts at `at` (the longest possible one, cut at the end, is not valid either).
          for (let len = 1; len <= 4 && at + len <= b.length; len++) expect(isUtf8(b.subarray(at, at + len))).toBe(false)
        }
      }),
      { numRuns: 2_000 }
    )
  })
})

describe("a UTF-8 byte-order mark at the very start is skipped", () => {
  it("from a file, a stream split inside the mark, and lines given as strings", async () => {
    const body = feed([tripInput("b1", { comment: "déjà" }), tripInput("b2")])
    expect(await importFeed(db, writeBytes(tmp.path("bom.ndjson"), Buffer.concat([BOM, Buffer.from(body.replace(/\n/g, "\r\n"))])))).toMatchObject({ ok: true, imported: 2, seq: 2 })
    const again = feed([tripInput("b3"), tripInput("b4")])
    expect(await importFeed(db, Readable.from(chunksOf(Buffer.concat([BOM, Buffer.from(again)]), 2)))).toMatchObject({ ok: true, imported: 2, seq: 4 })
    expect(await importFeed(db, [`\uFEFF${toLine(tripInput("b5"))}`])).toMatchObject({ ok: true, imported: 1, seq: 5 })
    expect(db.prepare("SELECT json_extract(trip_json, '$.comment') FROM trips WHERE id = 'b1'").pluck().get()).toBe("déjà")
  })

  it("a mark anywhere else is not skipped: it is not JSON", async () => {
    const result = await importFeed(db, Readable.from([Buffer.concat([Buffer.from(toLine(tripInput("c1")) + "\n"), BOM, Buffer.from(toLine(tripInput("c2")) + "\n")])]))
    expect(result).toEqual({ ok: false, errors: [expect.stringMatching(/^line 2: \(line\): must be valid JSON /)] })
  })

  it("what a broken line's message quotes is visible: a NUL, a mark, a control character as \\uXXXX; lines ending in CR alone are said", async () => {
    // A UTF-16 line read as UTF-8 (NULs between its letters), and a line after a mark and a BEL.
    const utf16ish = `\u0000{\u0000"\u0000`
    const marked = `\uFEFF${toLine(tripInput("d2"))}`
    const result = await importFeed(db, [toLine(tripInput("d1")), utf16ish, marked.replace("{", "\u0007{")])
    if (result.ok) expect.fail("imported a file with broken lines")
    const { errors } = result
    expect(errors).toHaveLength(2)
    expect(errors[0]).toMatch(/^line 2: \(line\): must be valid JSON \(.*\\u0000/)
    expect(errors[1]).toMatch(/^line 3: \(line\): must be valid JSON \(.*\\u(FEFF|0007)/)
    for (const e of errors) expect(e).not.toMatch(/[\u0000-\u001f\u007f\ufeff]/)
    const crOnly = await importFeed(db, [`${toLine(tripInput("d3"))}\r${toLine(tripInput("d4"))}`])
    expect(crOnly).toEqual({ ok: false, errors: [expect.stringMatching(/^line 1: \(line\): must be valid JSON \(.*; the line holds a carriage return: lines end in LF or CRLF, not CR alone\)$/)] })
  })

  it("a file that is only the mark imports nothing and changes nothing", async () => {
    const before = state(db)
    expect(await importFeed(db, writeBytes(tmp.path("only-bom.ndjson"), BOM))).toEqual({ ok: true, imported: 0, unchanged: 0, seq: 0 })
    expect(state(db)).toEqual(before)
  })
})

describe("an import that changes nothing leaves the store as it was", () => {
  const seqs = (d: SqliteDatabase) => d.prepare("SELECT id, seq FROM trips ORDER BY id").all()

  it("an empty file, blank lines only, and an empty stream: data_version and last_import_at do not move", async () => {
    expect(await importFeed(db, [toLine(tripInput("a1")), toLine(tripInput("a2"))])).toMatchObject({ ok: true, seq: 2 })
    const before = state(db)
    expect(before.dataVersion).toBe("1")
    expect(before.lastImportAt).toMatch(/^\d{4}-/)
    for (const source of [tmp.write("empty.ndjson", ""), tmp.write("blank.ndjson", "\n  \r\n\t\n\n"), Readable.from([]), []]) {
      expect(await importFeed(db, source)).toEqual({ ok: true, imported: 0, unchanged: 0, seq: 2 })
      expect(state(db)).toEqual(before)
    }
  })

  it("trips stored already exactly as given are no change: they keep their seq, and a file of only those changes nothing", async () => {
    const trips = [tripInput("a1"), tripInput("a2", { car: { ...(tripInput("a2").car as object), color_hexa: "#d8c8a8" } })]
    await importFeed(db, tmp.write("first.ndjson", feed(trips)))
    const before = state(db)
    // Same trips written another way (defaults spelled out, another colour case): the same rows.
    const sameRows = [{ ...trips[0]!, status: "active", luggage: "MIDDLE", seats_count_origin: trips[0]!["seats"] }, { ...trips[1]!, car: { ...(trips[1]!.car as object), color_hexa: "D8C8A8" } }]
    expect(await importFeed(db, tmp.write("same.ndjson", feed(sameRows)))).toEqual({ ok: true, imported: 2, unchanged: 2, seq: 2 })
    expect(state(db)).toEqual(before)
    // One trip changed, one not: only the changed one takes a new seq, and the import counts.
    expect(await importFeed(db, [toLine(trips[0]!), toLine(tripInput("a2", { seats_left: 0 }))])).toEqual({ ok: true, imported: 2, unchanged: 1, seq: 3 })
    expect(seqs(db)).toEqual([{ id: "a1", seq: 1 }, { id: "a2", seq: 3 }])
    expect(getMeta(db, "data_version")).toBe("2")
  })
})

function writeBytes(path: string, bytes: Buffer): string {
  writeFileSync(path, bytes)
  return path
}
