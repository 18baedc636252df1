import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type IndexRecord,
  type MatchRequest,
  PlaceResolver,
  ReferenceNear,
  searchTrips,
  TripIndex,
  TripMatcher,
  TripStore
} from "@tripsearch/core"
import { feedLines, generateQueryLog, meetingPointLines, type QueryMix } from "@tripsearch/dataset"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { parseQuery } from "@tripsearch/http-express"
import { cachedOffsetAt, importFeed, importMeetingPoints, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Context, Effect } from "effect"
import { describe, expect, it } from "vitest"

// The index against the brute-force reference on the generator's own feed, as `npm start` and the
// benchmarks have it: realistic roads (a point every 1-3 km), the real meeting points, the SQLite
// store's import working the stops along the road out, the index loaded from the store as a
// server does (renumbered by cell), and the generator's query mixes, through the search use-case.
// The property tests compare the two on small worlds of their own making; this, on the data the
// service runs on. `node packages/core/bench/oracle.mjs` does the same on the benchmarks' stores
// of a million trips.

const NOW = Date.UTC(2030, 0, 7, 6, 0, 0)

/**
 * A store of the generator's feed (`dense`: its trips between the largest towns) with its meeting
 * points, the index over it, and the requests the matcher gets for `count` searches of each mix.
 */
const compareOn = async (seed: string, trips: number, dense: boolean, mixes: ReadonlyArray<readonly [QueryMix, number]>, maxWork: number) => {
  const dir = mkdtempSync(join(tmpdir(), "index-reference-"))
  try {
    const db = openDatabase(join(dir, "store.db"))
    expect((await importMeetingPoints(db, meetingPointLines({ trips, seed, nowMs: NOW }))).ok).toBe(true)
    const lines = [...feedLines({ trips, seed, nowMs: NOW, dense })]
    expect((await importFeed(db, lines)).ok).toBe(true)
    const store = makeSqliteTripStore(db)
    const records: Array<IndexRecord> = []
    Effect.runSync(store.scanIndex((r) => records.push(r)))
    const index = TripIndex.from(records)

    const roadBoxes = new Map<string, [number, number, number, number]>()
    const rows = db.prepare("SELECT id, road_min_lat, road_max_lat, road_min_lon, road_max_lon FROM trips WHERE road_min_lat IS NOT NULL").raw().all() as Array<[string, number, number, number, number]>
    for (const [id, ...box] of rows) roadBoxes.set(id, box)
    const meetingPoints = [...Effect.runSync(store.meetingPoints(undefined)).values()]
    const tripsOf = (ids: ReadonlyArray<string>) => new Map([...Effect.runSync(store.getTrips(ids))].map(([id, s]) => [id, s.trip]))
    const reference = new ReferenceNear(records, (id) => roadBoxes.get(id), tripsOf, meetingPoints, cachedOffsetAt)

    const requests: Array<MatchRequest> = []
    const gazetteer = Gazetteer.shared()
    const services = Context.make(TripStore, store).pipe(
      Context.add(TripMatcher, { match: (req: MatchRequest) => Effect.sync(() => (requests.push({ ...req, withTrips: false }), index.search(req))) }),
      Context.add(PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer))
    )
    const context = { apiBaseUrl: "https://api.example.test", websiteBaseUrl: "https://www.example.test", path: "/api/v2/trips", query: "" }
    const sample = lines.filter((_, k) => k % 5 === 0).map((l) => JSON.parse(l))
    for (const [mix, count] of mixes) {
      for (const record of generateQueryLog({ trips: sample, count, seed, startMs: NOW, mix })) {
        Effect.runSyncExit(Effect.provide(searchTrips(parseQuery(record.query), { ...context, query: record.query }), services))
      }
    }

    const seen = { compared: 0, matched: 0, along: 0, skipped: 0 }
    for (const req of requests) {
      const near = reference.near(req)
      // The reference's work: each trip near, each of its legs' points, each meeting point near a place.
      const places = [req.from, req.to].filter((p) => p !== undefined)
      const mps = meetingPoints.filter((mp) => places.some((p) => Math.abs(mp.lat - p.lat) * 111 <= p.radiusKm + 1)).length
      if (near.length * (mps + 1) > maxWork) {
        seen.skipped++
        continue
      }
      const got = index.search(req)
      expect(JSON.parse(JSON.stringify(got)), JSON.stringify(req)).toEqual(JSON.parse(JSON.stringify(reference.search(req, near))))
      seen.compared++
      seen.matched += got.total
      seen.along += [...got.page, ...got.top].filter((h) => h.fromStop !== undefined || h.toStop !== undefined).length
    }
    db.close()
    return seen
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe("the index against the reference, on the generator's feed with roads and meeting points", () => {
  it("gives the reference's answers to the heavy and wide mixes' searches", async () => {
    const seen = await compareOn("oracle", 12000, false, [["heavy", 200], ["wide", 40]], 400_000)
    // Enough searches compared, matching trips, some of them along the road, for the equality to say something.
    expect(seen.compared).toBeGreaterThanOrEqual(150)
    expect(seen.matched).toBeGreaterThan(1500)
    expect(seen.along).toBeGreaterThan(300)
  }, 180_000)

  it("gives the reference's answers to the dense mix's searches, on a feed between the largest towns", async () => {
    const seen = await compareOn("oracle-dense", 8000, true, [["dense", 80]], 400_000)
    expect(seen.compared).toBeGreaterThanOrEqual(60)
    expect(seen.matched).toBeGreaterThan(400)
    expect(seen.along).toBeGreaterThan(120)
  }, 180_000)
})
