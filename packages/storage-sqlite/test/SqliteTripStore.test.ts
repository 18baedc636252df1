import { TripStore, type IndexRecord } from "@tripsearch/core"
import Database from "better-sqlite3"
import { Effect, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { importFeed, INDEX_COLUMNS, makeSqliteTripStore, MIGRATIONS, openDatabase, SqliteTripStore } from "../src/index.js"
import { feed, tempDir, variedTrips } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => tmp.cleanup())

const withStore = <A>(path: string, f: (store: TripStore["Type"]) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.flatMap(TripStore, f).pipe(Effect.provide(SqliteTripStore.layer(path))))

describe("SqliteTripStore", () => {
  it("rows imported before the shown column: the scan encodes it from their trip_json, the same bytes", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    expect(await importFeed(db, tmp.write("v.ndjson", feed(variedTrips())))).toMatchObject({ ok: true, imported: 30 })
    db.close()
    const scan = async () => {
      const records: Array<IndexRecord> = []
      await withStore(path, (store) => store.scanIndex((r) => records.push(r)))
      return records.map((r) => ({ ...r, shown: Buffer.from(r.shown!).toString("utf8") }))
    }
    const withColumn = await scan()
    expect(withColumn).toHaveLength(26)
    const old = openDatabase(path)
    expect(old.prepare("UPDATE trips SET shown = NULL").run().changes).toBe(30)
    old.close()
    expect(await scan()).toStrictEqual(withColumn)
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
    old.exec(MIGRATIONS[0] as string)
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
