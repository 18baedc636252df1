import { DEFAULT_RATES, encodeShown, toIndexRecord, TripStore, type IndexRecord } from "@tripsearch/core"
import Database from "better-sqlite3"
import { Effect, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { importFeed, INDEX_COLUMNS, makeSqliteTripStore, MIGRATIONS, openDatabase, setRate, SqliteTripStore } from "../src/index.js"
import { feed, tempDir, tripInput, variedTrips } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => tmp.cleanup())

const withStore = <A>(path: string, f: (store: TripStore["Type"]) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.flatMap(TripStore, f).pipe(Effect.provide(SqliteTripStore.layer(path))))

describe("SqliteTripStore", () => {
  it("scanIndex gives exactly toIndexRecord(getTrip), with what a search shows, for every active trip", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    expect(await importFeed(db, tmp.write("v.ndjson", feed(variedTrips())))).toMatchObject({ ok: true, imported: 30 })
    db.close()
    await withStore(path, (store) =>
      Effect.gen(function* () {
        const scanned: Array<IndexRecord> = []
        const seq = yield* store.scanIndex((r) => scanned.push(r))
        expect(seq).toBe(30)
        expect(scanned).toHaveLength(30 - 4) // v3, v10, v17, v24 are cancelled
        for (const record of scanned) {
          const stored = Option.getOrThrow(yield* store.getTrip(record.id))
          expect({ ...record, shown: new Uint8Array(record.shown!) }).toStrictEqual({ ...toIndexRecord(stored), shown: encodeShown(stored.trip) })
        }
        const changes = yield* store.changesSince(0)
        expect(changes.upserts).toStrictEqual(scanned.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))))
      })
    )
    // Rows imported before the `shown` column: the scan encodes it from their trip_json, the same bytes.
    const scan = async () => {
      const records: Array<IndexRecord> = []
      await withStore(path, (store) => store.scanIndex((r) => records.push(r)))
      return records.map((r) => ({ ...r, shown: Buffer.from(r.shown!).toString("utf8") }))
    }
    const withColumn = await scan()
    const old = openDatabase(path)
    expect(old.prepare("UPDATE trips SET shown = NULL").run().changes).toBe(30)
    old.close()
    expect(await scan()).toStrictEqual(withColumn)
  })

  it("computes each waypoint's zone offset at the instant the trip passes there (Paris, summer and winter)", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    const summer = tripInput("summer", { departure_time: "2026-07-15T06:30:00Z" })
    const winter = tripInput("winter", { departure_time: "2026-01-15T08:30:00+01:00" })
    // leaves Paris at 00:30 local on the night clocks go back (25 Oct 2026, 03:00 CEST -> 02:00 CET):
    // Paris is still summer time, Lyon (270 min later) and Marseille already winter time
    const dst = tripInput("dst", { departure_time: "2026-10-24T22:30:00Z" })
    // a trip to London: Europe/London is one hour behind Paris
    const london = tripInput("london", {
      departure_time: "2026-07-15T08:00:00+02:00",
      waypoints: [
        { city: "Paris", lat: 48.8566, lon: 2.3522, country: "FR", offset_min: 0 },
        { city: "London", lat: 51.5072, lon: -0.1276, country: "GB", offset_min: 360 }
      ],
      legs: [{ price: 40, distance_km: 460, duration_s: 21600 }]
    })
    expect(await importFeed(db, [summer, winter, dst, london].map((t) => JSON.stringify(t)))).toMatchObject({ ok: true })
    db.close()
    await withStore(path, (store) =>
      Effect.gen(function* () {
        const offsets = (id: string) => store.getTrip(id).pipe(Effect.map((o) => Option.getOrThrow(o).zoneOffsets))
        expect(yield* offsets("summer")).toEqual([120, 120, 120])
        expect(yield* offsets("winter")).toEqual([60, 60, 60])
        expect(yield* offsets("dst")).toEqual([120, 60, 60])
        expect(yield* offsets("london")).toEqual([120, 60])
        const records: Array<IndexRecord> = []
        yield* store.scanIndex((r) => records.push(r))
        expect(records.find((r) => r.id === "summer")!.zoneOffsetMin).toEqual([120, 120, 120])
        expect(records.find((r) => r.id === "winter")!.zoneOffsetMin).toEqual([60, 60, 60])
      })
    )
  })

  it("getTrips reads a page of trips in one query, leaving unknown ids out", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    await importFeed(db, [JSON.stringify(tripInput("a")), JSON.stringify(tripInput("b")), JSON.stringify(tripInput("c", { status: "cancelled" }))])
    db.close()
    await withStore(path, (store) =>
      Effect.gen(function* () {
        const page = yield* store.getTrips(["c", "zzz", "a"])
        expect([...page.keys()].sort()).toEqual(["a", "c"])
        expect(page.get("c")!.trip.status).toBe("cancelled")
        expect(page.get("a")!.zoneOffsets).toEqual([120, 120, 120])
        expect((yield* store.getTrips([])).size).toBe(0)
      })
    )
  })

  it("rates: the defaults, overridden by the store's table", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    setRate(db, "GBP", 0.8612)
    setRate(db, "HUF", 390)
    setRate(db, "HUF", undefined)
    db.close()
    const rates = await withStore(path, (store) => store.rates)
    expect(rates).toEqual({ ...DEFAULT_RATES, GBP: 0.8612 })
  })

  it("an empty in-memory store (layerTest)", async () => {
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* TripStore
        return { seq: yield* store.scanIndex(() => {}), changes: yield* store.changesSince(0), trip: yield* store.getTrip("a") }
      }).pipe(Effect.provide(SqliteTripStore.layerTest))
    )
    expect(result).toEqual({ seq: 0, changes: { seq: 0, upserts: [], removed: [] }, trip: Option.none() })
  })

  it("migrations are versioned through user_version and idempotent on reopen", () => {
    const path = tmp.path("store.db")
    openDatabase(path).close()
    const db = openDatabase(path)
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length)
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
    db.close()
  })

  it("brings a store of the first schema up to date, and scans the index through the covering index", async () => {
    const path = tmp.path("old.db")
    // A store as the first release left it: schema 1 only, with trips.
    const old = new Database(path)
    old.exec(MIGRATIONS[0]!)
    old.pragma("user_version = 1")
    old.close()
    expect(() => openDatabase(path, { readonly: true })).toThrow(/schema version/)
    const db = openDatabase(path)
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length)
    expect(await importFeed(db, variedTrips().map((t) => JSON.stringify(t)))).toMatchObject({ ok: true, imported: 30 })
    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT ${INDEX_COLUMNS} FROM trips WHERE status = 'active'`).all() as Array<{ detail: string }>
    expect(plan.map((p) => p.detail).join(" ")).toContain("COVERING INDEX trips_scan")
    const records: Array<unknown> = []
    Effect.runSync(makeSqliteTripStore(db).scanIndex((r) => records.push(r)))
    const active = db.prepare("SELECT count(*) FROM trips WHERE status = 'active'").pluck().get() as number
    expect(active).toBeGreaterThan(20)
    expect(records).toHaveLength(active)
    db.close()
  })
})
