import { encodeShown, toIndexRecord } from "@tripsearch/core"
import { Effect, Option } from "effect"
import { writeFileSync } from "node:fs"
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
  it("imports a valid feed from a file, with defaults applied", async () => {
    const file = tmp.write("ok.ndjson", feed([tripInput("a1"), tripInput("a2", { status: "active", service: "short" }), "", tripInput("a3")]))
    const result = await importFeed(db, file)
    expect(result).toEqual({ ok: true, imported: 3, unchanged: 0, seq: 3 })
    const store = makeSqliteTripStore(db)
    const a1 = Option.getOrThrow(run(store.getTrip("a1")))
    expect(a1.trip.status).toBe("active")
    expect(a1.trip.luggage).toBe("MIDDLE")
    expect(a1.trip.viaggio_rosa).toBe(false)
    expect(a1.trip.answer_delay).toBe(0)
    expect(a1.trip.waypoints[1]!.meeting_point_id).toBe(12)
    expect(run(store.getTrip("a2")).pipe(Option.map((s) => s.trip.service))).toEqual(Option.some("short"))
    expect(run(store.getTrip("nope"))).toEqual(Option.none())
  })

  it("rejects a file with one bad line in the middle, naming it, and leaves the store as it was", async () => {
    expect(await importFeed(db, tmp.write("first.ndjson", feed([tripInput("a1"), tripInput("a2")])))).toMatchObject({ ok: true, seq: 2 })
    const before = snapshot(db)
    const bad = feed([tripInput("a1", { seats: 4 }), tripInput("b1"), tripInput("b2", { seats: 9 }), tripInput("b3")])
    const result = await importFeed(db, tmp.write("bad.ndjson", bad))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toHaveLength(1)
    expect(result.errors[0]).toMatch(/^line 3: seats: /)
    expect(snapshot(db)).toEqual(before)
    const store = makeSqliteTripStore(db)
    expect(run(store.getTrip("b1"))).toEqual(Option.none())
    expect(Option.getOrThrow(run(store.getTrip("a1"))).trip.seats).toBe(3)
    expect(run(store.changesSince(0)).seq).toBe(2)
  })

  it("lists every bad line of a file with several, as `line N: field: reason`", async () => {
    const { waypoints: _w, ...noWaypoints } = tripInput("c4")
    const lines = [
      toLine(tripInput("c1")),
      "{not json",
      toLine(tripInput("c2", { currency: "USD" })),
      "",
      toLine(tripInput("c3", { legs: [{ price: 24.555, distance_km: 1, duration_s: 60 }, { price: 1, distance_km: 1, duration_s: 60 }] })),
      toLine(noWaypoints),
      toLine(tripInput("c1")),
      toLine(tripInput("c5", { colour: "red" })),
      toLine(tripInput("c6"))
    ]
    const result = await importFeed(db, tmp.write("several.ndjson", lines.join("\n")))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual([
      expect.stringMatching(/^line 2: \(line\): must be valid JSON \(.*position 1\)$/),
      'line 3: currency: must be one of EUR, GBP, CZK, HRK, HUF, INR, MXN, PLN, RON, RSD, RUB, TRY, UAH, got "USD"',
      "line 5: legs[0].price: must have at most 2 decimal digits in EUR, got 24.555",
      "line 6: waypoints: is required",
      'line 7: id: duplicate id "c1", already on line 1',
      "line 8: colour: is not a field of the trip feed"
    ])
    expect(snapshot(db)).toEqual([])
  })

  it("rejects unknown fields, nested ones too", async () => {
    const trip = tripInput("u1")
    const result = await importFeed(
      db,
      [toLine({ ...trip, driver: { ...(trip.driver as object), age: 40 } })]
    )
    expect(result).toEqual({ ok: false, errors: ["line 1: driver.age: is not a field of the trip feed"] })
  })

  it("upserts: a re-imported id replaces the trip and gets a new seq", async () => {
    await importFeed(db, [toLine(tripInput("a1")), toLine(tripInput("a2"))])
    const store = makeSqliteTripStore(db)
    const result = await importFeed(db, [toLine(tripInput("a1", { seats_left: 0, comment: "full now" }))])
    expect(result).toEqual({ ok: true, imported: 1, unchanged: 0, seq: 3 })
    const a1 = Option.getOrThrow(run(store.getTrip("a1")))
    expect(a1.trip.seats_left).toBe(0)
    expect(a1.trip.comment).toBe("full now")
    expect(db.prepare("SELECT count(*) FROM trips").pluck().get()).toBe(2)
    const changes = run(store.changesSince(2))
    expect({ ...changes, upserts: changes.upserts.map((r) => ({ ...r, shown: new Uint8Array(r.shown!) })) }).toEqual({
      seq: 3,
      upserts: [{ ...toIndexRecord(a1), shown: encodeShown(a1.trip) }],
      removed: []
    })
    expect(run(store.changesSince(3))).toEqual({ seq: 3, upserts: [], removed: [] })
  })

  it("keeps cancelled trips, which are not scanned and show as removed in changesSince", async () => {
    await importFeed(db, [toLine(tripInput("a1")), toLine(tripInput("a2")), toLine(tripInput("x1", { status: "cancelled" }))])
    const store = makeSqliteTripStore(db)
    await importFeed(db, [toLine(tripInput("a2", { status: "cancelled" }))])
    const scanned: Array<string> = []
    expect(run(store.scanIndex((r) => scanned.push(r.id)))).toBe(4)
    expect(scanned).toEqual(["a1"])
    expect(Option.getOrThrow(run(store.getTrip("a2"))).trip.status).toBe("cancelled")
    const all = run(store.changesSince(0))
    expect(all.seq).toBe(4)
    expect(all.upserts.map((r) => r.id)).toEqual(["a1"])
    expect(all.removed).toEqual(["x1", "a2"])
    expect(run(store.changesSince(3))).toEqual({ seq: 4, upserts: [], removed: ["a2"] })
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
