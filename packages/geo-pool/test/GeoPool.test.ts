import { describe, expect, it } from "vitest"
import { referenceSearch, ServiceOverloaded, TripIndex, TripMatcher, type IndexRecord, type MatchResult } from "@tripsearch/core"
import { makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Cause, Effect, Exit } from "effect"
import { GeoPool, matchOn, PoolTripMatcher, scopedGeoPool, WorkerFailed } from "../dist/index.js"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { importInto, makeStore, NOW, queries, tripLine } from "./storeFixture.js"

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

/** The store's latest change sequence, read through a connection of its own. */
const latestSeq = (dbPath: string): number => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    return Effect.runSync(makeSqliteTripStore(db).changesSince(Number.MAX_SAFE_INTEGER)).seq
  } finally {
    db.close()
  }
}

/** Polls `done` every 10 ms: whether it held within `ms`. */
const until = async (done: () => boolean, ms: number): Promise<boolean> => {
  const start = performance.now()
  while (!done()) {
    if (performance.now() - start > ms) return false
    await new Promise((r) => setTimeout(r, 10))
  }
  return true
}

describe("GeoPool over real worker threads", () => {
  it("answers like the in-thread TripIndex and the reference, through the TripMatcher layer", async () => {
    const store = await makeStore(600)
    try {
      const records = loadRecords(store.dbPath)
      expect(records.length).toBe(600)
      const index = TripIndex.from(records)
      const reqs = queries()
      const results = await Effect.runPromise(
        Effect.gen(function* () {
          const matcher = yield* TripMatcher
          return yield* Effect.forEach(reqs, (req) => matcher.match(req), { concurrency: 4 })
        }).pipe(Effect.provide(PoolTripMatcher.layer({ dbPath: store.dbPath, threads: 2, maxQueue: 64 })))
      )
      let nonEmpty = 0
      reqs.forEach((req, k) => {
        const expected = index.search(req)
        expect(results[k]).toEqual(expected)
        expect(results[k]).toEqual(referenceSearch(records, req))
        if (expected.page.length > 0) nonEmpty++
      })
      // The queries exercise real matches, not only empty results.
      expect(nonEmpty).toBeGreaterThan(reqs.length / 2)
    } finally {
      store.cleanup()
    }
  })

  it("waits for every worker's index and spreads searches over both threads", async () => {
    const store = await makeStore(300)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 16 })
    try {
      expect(pool.readyWorkers.size).toBe(2)
      for (const stats of pool.readyWorkers.values()) expect(stats.trips).toBe(300)
      const seen = new Set<number>()
      const stats = await Promise.all(Array.from({ length: 16 }, () => pool.run({ _tag: "Stats" })))
      for (const s of stats) seen.add(s.threadId)
      expect(seen.size).toBe(2)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("replaces a crashed worker; the task it held fails as a defect, later searches succeed", async () => {
    const store = await makeStore(300)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 16, testTasks: true })
    try {
      const before = new Set(pool.threadIds)
      await expect(pool.run({ _tag: "Crash" })).rejects.toBeInstanceOf(WorkerFailed)
      const matcher = matchOn(pool)
      const req = queries()[0]!
      const expected = TripIndex.from(loadRecords(store.dbPath)).search(req)
      // Searches go on while the replacement starts, and after.
      for (let k = 0; k < 20; k++) expect(await Effect.runPromise(matcher.match(req))).toEqual(expected)
      const deadline = Date.now() + 10_000
      while (pool.readyWorkers.size < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(pool.readyWorkers.size).toBe(3)
      const after = pool.threadIds
      expect(after.length).toBe(2)
      expect(after.filter((t) => !before.has(t)).length).toBe(1)
      const stats = await Promise.all(Array.from({ length: 8 }, () => pool.run({ _tag: "Stats" })))
      expect(stats.every((s) => s.trips === 300)).toBe(true)

      // Through the port, a search the worker fails on is a defect (HTTP: 500 service.error), not a typed failure.
      const exit = await Effect.runPromiseExit(matcher.match({ ...req, rates: null as never }))
      expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      if (Exit.isFailure(exit)) expect(Cause.squash(exit.cause)).toBeInstanceOf(WorkerFailed)
      expect(await Effect.runPromise(matcher.match(req))).toEqual(expected)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("answers ServiceOverloaded at once when the queue is full, and serves again once it drains", async () => {
    const store = await makeStore(100)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 2, testTasks: true })
    try {
      const matcher = matchOn(pool)
      const req = queries()[0]!
      // One busy task running, two waiting: the queue is full.
      const busy = [pool.run({ _tag: "Busy", ms: 600 }), pool.run({ _tag: "Busy", ms: 50 }), pool.run({ _tag: "Busy", ms: 50 })]
      await new Promise((r) => setTimeout(r, 50))
      const t0 = performance.now()
      const exit = await Effect.runPromiseExit(matcher.match(req))
      expect(performance.now() - t0).toBeLessThan(100)
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        const failure = Cause.failureOption(exit.cause)
        expect(failure._tag).toBe("Some")
        if (failure._tag === "Some") {
          expect(failure.value).toBeInstanceOf(ServiceOverloaded)
          expect(failure.value.retryAfterSeconds).toBe(1)
        }
      }
      await Promise.all(busy)
      const result: MatchResult = await Effect.runPromise(matcher.match(req))
      expect(result.total).toBeGreaterThan(0)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("finds a trip committed after the pool started within 1 s, and drops a cancelled one", async () => {
    const store = await makeStore(200)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 16 })
    try {
      const matcher = matchOn(pool)
      // A trip from a spot no fixture trip starts near.
      const departure = NOW + 3 * 3_600_000
      const line = JSON.parse(tripLine("fresh-1", () => 0.3, departure)) as { waypoints: Array<{ lat: number; lon: number }> }
      line.waypoints[0] = { ...line.waypoints[0]!, lat: 46.2, lon: 1.0 }
      const { to: _to, ...pairQuery } = queries()[0]!
      const req = { ...pairQuery, from: { lat: 46.2, lon: 1.0, radiusKm: 5 } }
      expect((await Effect.runPromise(matcher.match(req))).total).toBe(0)

      await importInto(store.dbPath, [JSON.stringify(line)])
      const committed = performance.now()
      let found = -1
      while (performance.now() - committed < 2000) {
        const result = await Effect.runPromise(matcher.match(req))
        if (result.page.some((h) => h.id === "fresh-1")) {
          found = performance.now() - committed
          break
        }
        await new Promise((r) => setTimeout(r, 10))
      }
      expect(found).toBeGreaterThanOrEqual(0)
      expect(found).toBeLessThan(1000)
      // Every worker sees it within the budget, not only the one that answered first.
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - committed))))
      const stats = await Promise.all(Array.from({ length: 8 }, () => pool.run({ _tag: "Stats" })))
      expect(stats.every((s) => s.trips === 201)).toBe(true)

      await importInto(store.dbPath, [JSON.stringify({ ...line, status: "cancelled" })])
      await new Promise((r) => setTimeout(r, 1000))
      expect((await Effect.runPromise(matcher.match(req))).total).toBe(0)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("keeps the shared index's state from its writer's refreshes, the same for every worker, and counts busy workers", async () => {
    const store = await makeStore(100)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 4, refreshMs: 50, testTasks: true })
    try {
      const started = pool.indexState
      expect(started.trips).toBe(100)
      expect(started.seq).toBe(latestSeq(store.dbPath))

      // No task runs from here on: only the writer's own refreshes can move the state.
      await importInto(store.dbPath, [tripLine("reported-1", () => 0.4)])
      const seq = latestSeq(store.dbPath)
      expect(seq).toBeGreaterThan(started.seq)
      const caughtUp = await until(() => pool.indexState.seq === seq && pool.indexState.trips === 101, 1000)
      expect(caughtUp).toBe(true)
      expect(pool.indexState.refreshes).toBeGreaterThan(started.refreshes)
      // Each worker reads the same figures from the writer's shared memory.
      const seen = await Promise.all(Array.from({ length: 4 }, () => pool.run({ _tag: "Stats" })))
      expect(seen.every((s) => s.seq === seq && s.trips === 101)).toBe(true)

      expect(pool.busyWorkers).toBe(0)
      const tasks = [pool.run({ _tag: "Busy", ms: 400 }), pool.run({ _tag: "Busy", ms: 400 }), pool.run({ _tag: "Busy", ms: 400 })]
      expect(await until(() => pool.busyWorkers === 2 && pool.queueSize === 1, 300)).toBe(true)
      await Promise.all(tasks)
      expect(pool.busyWorkers).toBe(0)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("has an index state behind the store until a refresh, then level with it", async () => {
    const store = await makeStore(50)
    // No timed refresh during the test: only the Refresh task applies the change.
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 4, refreshMs: 600_000 })
    try {
      await importInto(store.dbPath, [tripLine("late-1", () => 0.6)])
      const seq = latestSeq(store.dbPath)
      expect(pool.indexState.seq).toBeLessThan(seq)
      expect(pool.indexState.trips).toBe(50)
      await pool.run({ _tag: "Refresh" })
      expect(pool.indexState.seq).toBe(seq)
      expect(pool.indexState.trips).toBe(51)
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("destroys the pool when the scope closes", async () => {
    const store = await makeStore(50)
    try {
      const pool = await Effect.runPromise(Effect.scoped(scopedGeoPool({ dbPath: store.dbPath, threads: 1, maxQueue: 4 })))
      expect(pool.threadIds.length).toBe(0)
      await expect(pool.run({ _tag: "Stats" })).rejects.toBeInstanceOf(WorkerFailed)
    } finally {
      store.cleanup()
    }
  })

  it("refuses to start over an in-memory store or a file that is not a store", async () => {
    await expect(GeoPool.start({ dbPath: ":memory:", threads: 1, maxQueue: 1 })).rejects.toThrow(/in-memory/)
    const dir = mkdtempSync(join(tmpdir(), "geo-pool-test-"))
    try {
      writeFileSync(join(dir, "junk.db"), "this is not a database ".repeat(200))
      await expect(GeoPool.start({ dbPath: join(dir, "junk.db"), threads: 1, maxQueue: 1 })).rejects.toThrow()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
