import { Effect, Option } from "effect"
import { existsSync, statSync, writeFileSync } from "node:fs"
import { Readable } from "node:stream"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { importFeed, makeSqliteTripStore, openDatabase, type SqliteDatabase } from "../src/index.js"
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

const snapshot = (d: SqliteDatabase) => d.prepare("SELECT * FROM trips ORDER BY id").all()
const run = <A>(e: Effect.Effect<A>) => Effect.runSync(e)

describe("importFeed", () => {
  it("rejects unknown fields, nested ones too", async () => {
    const trip = tripInput("u1")
    const result = await importFeed(
      db,
      [toLine({ ...trip, driver: { ...(trip.driver as object), age: 40 } })]
    )
    expect(result).toEqual({ ok: false, errors: ["line 1: driver.age: is not a field of the trip feed"] })
  })

  it("reads a Readable byte stream split anywhere, CRLF and multi-byte characters included", async () => {
    const text = feed([tripInput("s1", { comment: "Départ à l'heure — 🚗" }), tripInput("s2")]).replace(/\n/g, "\r\n")
    const bytes = Buffer.from(text, "utf8")
    const chunks: Array<Buffer> = []
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7))
    const result = await importFeed(db, Readable.from(chunks))
    expect(result).toEqual({ ok: true, imported: 2, unchanged: 0, seq: 2 })
    const s1 = Option.getOrThrow(run(makeSqliteTripStore(db).getTrip("s1")))
    expect(s1.trip.comment).toBe("Départ à l'heure — 🚗")
  })

  it("an async iterable of lines counts one line per item", async () => {
    async function* lines() {
      yield toLine(tripInput("g1"))
      yield ""
      yield toLine(tripInput("g2", { seats_left: 5 }))
    }
    expect(await importFeed(db, lines())).toEqual({ ok: false, errors: [expect.stringMatching(/^line 3: seats_left: /)] })
  })
})

describe("importFeed with decode threads", () => {
  const trips = (count: number) => Array.from({ length: count }, (_, i) => toLine(tripInput(`w${i}`, { seats_left: i % 4, comment: `trip ${i} — é` })))

  it("stores the same rows as decoding in its own thread, over several batches", async () => {
    const lines = trips(1_234)
    const file = tmp.write("many.ndjson", lines.join("\n") + "\n")
    const other = openDatabase(tmp.path("other.db"))
    try {
      expect(await importFeed(db, file, { decodeThreads: 0 })).toEqual({ ok: true, imported: 1_234, unchanged: 0, seq: 1_234 })
      expect(await importFeed(other, file, { decodeThreads: 2, decodeThreadsAfter: 0 })).toEqual({ ok: true, imported: 1_234, unchanged: 0, seq: 1_234 })
      expect(snapshot(other)).toEqual(snapshot(db))
    } finally {
      other.close()
    }
  })

  it("reports the same errors, in line order, whichever thread found them", async () => {
    const lines: Array<string | Buffer> = trips(1_100)
    lines[3] = toLine(tripInput("bad3", { seats: 9 }))
    lines[700] = Buffer.concat([Buffer.from('{"id":"x'), Buffer.from([0xfe]), Buffer.from('"}')])
    lines[1_050] = toLine(tripInput("w5"))
    const file = tmp.path("bad-many.ndjson")
    writeFileSync(file, Buffer.concat(lines.flatMap((l) => [Buffer.from(l), Buffer.from("\n")])))
    const here = await importFeed(db, file, { decodeThreads: 0 })
    const threaded = await importFeed(db, file, { decodeThreads: 2, decodeThreadsAfter: 0 })
    expect(here.ok).toBe(false)
    expect(threaded).toEqual(here)
    expect(here.ok ? [] : here.errors.map((e) => /^line \d+: [^:]+/.exec(e)?.[0])).toEqual(["line 4: seats", "line 701: (line)", "line 1051: id"])
    expect(snapshot(db)).toEqual([])
  })
})

describe("a bulk import (more rows than the store held) builds the scan's covering index once, at its end", () => {
  const scanIndexSql = (d: SqliteDatabase) => d.prepare("SELECT sql FROM sqlite_master WHERE name = 'trips_scan'").pluck().get()
  const scanPlan = (d: SqliteDatabase) =>
    d.prepare("EXPLAIN QUERY PLAN SELECT id, packed, shown FROM trips WHERE status = 'active' ORDER BY id").all().map((r) => (r as { detail: string }).detail)
  const first = Array.from({ length: 50 }, (_, k) => tripInput(`b${k}`))
  const second = [
    ...Array.from({ length: 50 }, (_, k) => tripInput(`b${k}`, { comment: `changed ${k}` })),
    ...Array.from({ length: 150 }, (_, k) => tripInput(`n${k}`))
  ]

  it("gives the same rows and the same index as an import row by row", async () => {
    const other = openDatabase(tmp.path("rowByRow.db"))
    try {
      const before = scanIndexSql(db)
      for (const d of [db, other]) expect(await importFeed(d, feed(first).split("\n"))).toMatchObject({ ok: true, imported: 50 })
      // 60 rows past the store's 50: the index is dropped at the 60th and built again at the end.
      expect(await importFeed(db, feed(second).split("\n"), { bulkRows: 60 })).toEqual({ ok: true, imported: 200, unchanged: 0, seq: 250 })
      expect(await importFeed(other, feed(second).split("\n"))).toEqual({ ok: true, imported: 200, unchanged: 0, seq: 250 })
      expect(snapshot(db)).toEqual(snapshot(other))
      expect(scanIndexSql(db)).toBe(before)
      expect(scanPlan(db).join(" ")).toContain("COVERING INDEX trips_scan")
      const records = (d: SqliteDatabase) => {
        const out: Array<unknown> = []
        run(makeSqliteTripStore(d).scanIndex((r) => out.push(r)))
        return out
      }
      expect(records(db)).toEqual(records(other))
    } finally {
      other.close()
    }
  })

  it("leaves the store and its index as they were when a line is bad", async () => {
    expect(await importFeed(db, feed(first).split("\n"))).toMatchObject({ ok: true })
    const rows = snapshot(db)
    const result = await importFeed(db, [...feed(second).split("\n"), "{not json"], { bulkRows: 60 })
    expect(result.ok).toBe(false)
    expect(snapshot(db)).toEqual(rows)
    expect(scanPlan(db).join(" ")).toContain("COVERING INDEX trips_scan")
  })
})

describe("an import into a store without trips writes its pages once, into the store file", () => {
  const trips = Array.from({ length: 300 }, (_, k) => tripInput(`f${k}`))
  const walBytes = () => {
    try {
      return statSync(tmp.path("store.db-wal")).size
    } catch {
      return 0
    }
  }

  it("in a rollback journal, the store back in WAL mode afterwards, its rows there for another connection", async () => {
    expect(await importFeed(db, feed(trips).split("\n"))).toMatchObject({ ok: true, imported: 300 })
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
    expect(db.pragma("synchronous", { simple: true })).toBe(1)
    // The rows went to the store file, not to the WAL (an import in WAL mode leaves them there
    // until a checkpoint: the test below).
    expect(walBytes()).toBeLessThan(64 * 1024)
    expect(existsSync(tmp.path("store.db-journal"))).toBe(false)
    const reader = openDatabase(tmp.path("store.db"), { readonly: true })
    try {
      expect(snapshot(reader)).toEqual(snapshot(db))
    } finally {
      reader.close()
    }
  })

  it("all or nothing there too: a bad line leaves the store without trips, in WAL mode", async () => {
    const result = await importFeed(db, [...feed(trips).split("\n"), "{not json"])
    expect(result.ok).toBe(false)
    expect(snapshot(db)).toEqual([])
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
    expect(existsSync(tmp.path("store.db-journal"))).toBe(false)
  })

  it("in WAL mode when another connection has the store open, without waiting for it", async () => {
    const reader = openDatabase(tmp.path("store.db"), { readonly: true })
    try {
      expect(snapshot(reader)).toEqual([])
      const t0 = performance.now()
      expect(await importFeed(db, feed(trips).split("\n"))).toMatchObject({ ok: true, imported: 300 })
      expect(performance.now() - t0).toBeLessThan(4000)
      expect(walBytes()).toBeGreaterThan(64 * 1024)
      expect(snapshot(reader)).toEqual(snapshot(db))
      expect(db.pragma("busy_timeout", { simple: true })).toBe(5000)
    } finally {
      reader.close()
    }
  })
})
