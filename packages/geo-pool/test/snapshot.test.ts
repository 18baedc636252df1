import { describe, expect, it } from "vitest"
import { type IndexRecord, TripIndex } from "@tripsearch/core"
import { makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Effect } from "effect"
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { GeoPool } from "../dist/index.js"
import { importInto, makeStore, queries, tripLine } from "./storeFixture.js"

const loadRecords = (dbPath: string): Array<IndexRecord> => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    const records: Array<IndexRecord> = []
    Effect.runSync(makeSqliteTripStore(db).scanIndex((r) => records.push(r)))
    return records
  } finally {
    db.close()
  }
}

/** Every query of the fixture through the pool, shown trips included, against an index built from the store now. */
const answersMatchTheStore = async (pool: GeoPool, dbPath: string): Promise<void> => {
  const fresh = TripIndex.from(loadRecords(dbPath))
  let shown = 0
  for (const request of queries()) {
    const req = { ...request, offset: 0, limit: 10_000, withTrips: true }
    const answer = await pool.run({ _tag: "Match", request: req })
    expect(answer).toEqual(fresh.search(req))
    shown += answer.trips?.size ?? 0
  }
  expect(shown).toBeGreaterThan(100)
}

describe("the index's snapshot", () => {
  it("is written after a full load, read at the next start, and brought up to date with the store's later changes", async () => {
    const store = await makeStore(300, 3)
    const snapshotPath = join(store.dir, "store.db.index")
    try {
      const first = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 64, snapshotPath })
      expect(first.indexLoad.from).toBe("store")
      expect(existsSync(snapshotPath)).toBe(true)
      await first.close()

      // Changes while no server runs: one trip added, one cancelled.
      await importInto(store.dbPath, [tripLine("after-snapshot", () => 0.45)])
      const cancelled = loadRecords(store.dbPath)[7]!.id
      const db = openDatabase(store.dbPath)
      const json = db.prepare("SELECT trip_json FROM trips WHERE id = ?").pluck().get(cancelled) as string
      db.close()
      await importInto(store.dbPath, [JSON.stringify({ ...JSON.parse(json), status: "cancelled" })])

      const second = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 64, snapshotPath })
      try {
        expect(second.indexLoad).toMatchObject({ from: "snapshot", changes: 2 })
        expect(second.indexState.trips).toBe(300)
        await answersMatchTheStore(second, store.dbPath)
      } finally {
        await second.close()
      }
      // Written again at shutdown, with the changes: a third start applies none.
      const third = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 64, snapshotPath })
      try {
        expect(third.indexLoad).toMatchObject({ from: "snapshot", changes: 0 })
        await answersMatchTheStore(third, store.dbPath)
      } finally {
        await third.close()
      }
    } finally {
      store.cleanup()
    }
  })

  it("is not used, and the store is scanned instead, when it is another store's, older than the store's sequence, or damaged", async () => {
    const store = await makeStore(200, 4)
    const other = await makeStore(50, 5)
    const snapshotPath = join(store.dir, "store.db.index")
    const startsFrom = async (dbPath: string) => {
      const pool = await GeoPool.start({ dbPath, threads: 1, maxQueue: 64, snapshotPath })
      try {
        await answersMatchTheStore(pool, dbPath)
        return pool.indexLoad
      } finally {
        await pool.close()
      }
    }
    try {
      const copy = join(store.dir, "copy.db")
      copyFileSync(store.dbPath, copy)
      expect((await startsFrom(store.dbPath)).from).toBe("store")

      expect(await startsFrom(other.dbPath)).toMatchObject({ from: "store", reason: "a snapshot of another store" })
      // The other store's start rewrote the snapshot: take this store's back.
      expect((await startsFrom(store.dbPath)).from).toBe("store")

      // The same store, moved on, then restored from the older copy: its sequence went back.
      await importInto(store.dbPath, [tripLine("moved-on-1", () => 0.2), tripLine("moved-on-2", () => 0.7)])
      expect((await startsFrom(store.dbPath)).from).toBe("snapshot")
      const restored = await startsFrom(copy)
      expect(restored.from).toBe("store")
      expect(restored.reason).toMatch(/^the store is at change \d+, before the snapshot's \d+$/)

      // Damaged: cut in the middle of its columns.
      expect((await startsFrom(copy)).from).toBe("snapshot")
      const bytes = readFileSync(snapshotPath)
      writeFileSync(snapshotPath, bytes.subarray(0, Math.floor(statSync(snapshotPath).size / 2)))
      expect(await startsFrom(copy)).toMatchObject({ from: "store", reason: "a snapshot whose columns do not match its header" })
      writeFileSync(snapshotPath, "not a snapshot at all")
      expect((await startsFrom(copy)).from).toBe("store")
    } finally {
      store.cleanup()
      other.cleanup()
    }
  })
})
