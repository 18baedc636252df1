import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  InMemoryTripMatcher,
  type IndexRecord,
  PlaceResolver,
  searchTrips,
  TripIndex,
  TripMatcher,
  TripStore
} from "@tripsearch/core"
import { feedLines, generateQueryLog } from "@tripsearch/dataset"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { parseQuery } from "@tripsearch/http-express"
import { importFeed, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Context, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"

const NOW = Date.UTC(2030, 0, 7, 6, 0, 0)

describe("the shown trips kept beside the index", () => {
  it("render every search exactly as the trips read from the store do, and spare the store's reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "shown-trips-"))
    try {
      const dbPath = join(dir, "store.db")
      const lines = [...feedLines({ trips: 3000, seed: "shown", nowMs: NOW })]
      const db = openDatabase(dbPath)
      expect((await importFeed(db, lines)).ok).toBe(true)
      const base = makeSqliteTripStore(db)
      let reads = 0
      const store: TripStore["Type"] = { ...base, getTrips: (ids) => Effect.suspend(() => (reads++, base.getTrips(ids))) }

      const records: Array<IndexRecord> = []
      Effect.runSync(base.scanIndex((r) => records.push(r)))
      expect(records.every((r) => r.shown !== undefined)).toBe(true)
      const withShown = TripIndex.from(records)
      const withoutShown = TripIndex.from(records.map(({ shown: _, ...r }) => r))

      const gazetteer = Gazetteer.shared()
      const services = (index: TripIndex) =>
        Context.make(TripStore, store).pipe(
          Context.add(TripMatcher, InMemoryTripMatcher.over(index)),
          Context.add(PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer))
        )
      const context = { apiBaseUrl: "https://api.example.test", websiteBaseUrl: "https://www.example.test", path: "/api/v2/trips", query: "" }
      const sample = lines.filter((_, k) => k % 10 === 0).map((l) => JSON.parse(l))
      const log = [...generateQueryLog({ trips: sample, count: 300, seed: "shown", startMs: NOW, mix: "heavy" })]
      let shownTrips = 0
      for (const record of log) {
        const params = parseQuery(record.query)
        const run = (index: TripIndex) =>
          Effect.runSyncExit(Effect.provide(searchTrips(params, { ...context, query: record.query }), services(index)))
        const readsBefore = reads
        const fromIndex = run(withShown)
        expect(reads, record.query).toBe(readsBefore)
        const fromStore = run(withoutShown)
        expect(Exit.isSuccess(fromIndex)).toBe(Exit.isSuccess(fromStore))
        if (Exit.isSuccess(fromIndex) && Exit.isSuccess(fromStore)) {
          expect(JSON.stringify(fromIndex.value), record.query).toBe(JSON.stringify(fromStore.value))
          const body = fromIndex.value as { trips?: Array<unknown>; top_trips?: Array<unknown> }
          shownTrips += (body.trips?.length ?? 0) + (body.top_trips?.length ?? 0)
        }
      }
      // Real pages were rendered both ways, and only the store-backed index read the store.
      expect(shownTrips).toBeGreaterThan(300)
      expect(reads).toBeGreaterThan(100)
      db.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
