import polyline from "@mapbox/polyline"
import { InMemoryTripMatcher, PlaceResolver, type RequestContext, searchTrips, TripDetail, tripDetails, TripIndex, TripMatcher, TripStore } from "@tripsearch/core"
import { Effect, Layer, Option, Schema } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { importFeed, importMeetingPoints, makeSqliteTripStore, MIGRATIONS, openDatabase, readRoadStops, type SqliteDatabase } from "../src/index.js"
import { feed, tempDir, tripInput } from "@tripsearch/store-tests"

// A Paris -> Lyon -> Marseille trip whose first leg passes Mâcon, on a real SQLite file.
const PARIS = [48.8566, 2.3522] as const
const LYON = [45.764, 4.8357] as const
const MACON = [46.3069, 4.8287] as const
const road: Array<[number, number]> = [[...PARIS], [47.8, 3.57], [46.8, 4.85], [46.31, 4.83], [...LYON]]
const pathTrip = (id: string, extra: Record<string, unknown> = {}) => {
  const trip = tripInput(id, { departure_time: "2030-07-15T08:30:00+02:00", ...extra })
  const legs = trip["legs"] as Array<Record<string, unknown>>
  return { ...trip, legs: [{ ...legs[0], path: polyline.encode(road, 5) }, legs[1]] }
}
const mp = (id: number, lat: number, lon: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, name: `Gare de Mâcon-Ville`, full_name: "Gare de Mâcon-Ville, Mâcon", city: "Mâcon", lat, lon, country: "FR", tags: ["TRAIN_STATION"], ...extra })

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

const ctx: RequestContext = { apiBaseUrl: "http://api.test", websiteBaseUrl: "http://www.test", path: "/api/v2/trips", query: "" }
const layers = () => {
  const store = makeSqliteTripStore(db)
  const records: Array<Parameters<TripIndex["upsert"]>[0]> = []
  Effect.runSync(store.scanIndex((r) => records.push(r)))
  return Layer.mergeAll(
    Layer.succeed(TripStore, store),
    Layer.succeed(TripMatcher, InMemoryTripMatcher.over(TripIndex.from(records))),
    Layer.succeed(PlaceResolver, { resolve: () => Effect.succeed(Option.none()) })
  )
}
const search = (params: Record<string, string>) => Effect.runPromise(searchTrips({ locale: "fr_FR", cur: "EUR", ...params }, ctx).pipe(Effect.provide(layers()))) as Promise<any>

describe("meeting points in the SQLite store", () => {
  it("reports every bad line and writes nothing", async () => {
    const result = await importMeetingPoints(db, [[mp(1, ...MACON), '{"id": 0, "name": "", "full_name": "x", "city": "c", "lat": 91, "lon": 0, "country": "fr"}', mp(1, ...MACON)].join("\n")])
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.errors).toEqual([
      "line 2: id: must be an integer from 1 to 2147483647, got 0",
      "line 2: name: must be a string of 1 to 200 characters, got \"\"",
      "line 2: lat: must be a number from -90 to 90, got 91",
      "line 2: country: must be an ISO 3166-1 alpha-2 country code, in upper case, like FR, got \"fr\"",
      "line 3: id: duplicate id 1, already on line 1"
    ])
    expect(db.prepare("SELECT count(*) FROM meeting_points").pluck().get()).toBe(0)
  })

  it("refuses a broken path by its leg, and a path that does not start at its waypoint", async () => {
    const broken = pathTrip("b1")
    ;(broken.legs[0] as Record<string, unknown>)["path"] = "_p~iF~ps|U_ulLnnqC_mqNvxq`"
    const far = pathTrip("b2")
    ;(far.legs[0] as Record<string, unknown>)["path"] = polyline.encode([[48.9, 2.3522], ...road.slice(1)], 5)
    const result = await importFeed(db, [feed([broken, far])])
    expect(result).toEqual({
      ok: false,
      errors: [
        "line 1: legs[0].path: must be an encoded polyline (precision 1e-5); this one is truncated or broken",
        "line 2: legs[0].path: must start within 0.1 km of its first waypoint, starts 4.826 km away"
      ]
    })
  })

  it("finds the driver passing through from a town on the road, prorates the segment, and follows the meeting point's moves", async () => {
    expect((await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1])])).ok).toBe(true)
    expect((await importFeed(db, [feed([pathTrip("pl1"), pathTrip("ontime", { detour: "ON_TIME" })])])).ok).toBe(true)
    const store = makeSqliteTripStore(db)
    const stored = Option.getOrThrow(Effect.runSync(store.getTrip("pl1")))
    expect(stored.roadStops?.map((s) => [s.mp, s.leg])).toEqual([[7, 0]])
    expect(Option.getOrThrow(Effect.runSync(store.getTrip("ontime"))).roadStops).toBeUndefined()

    const body = await search({ fc: `${MACON[0]}|${MACON[1]}`, tc: `${LYON[0]}|${LYON[1]}`, radius_from: "5", radius_to: "5" })
    expect(body.pager.total).toBe(1)
    const trip = body.trips[0]
    expect(trip.permanent_id).toBe("pl1_m7_1")
    expect(trip.corridoring_type).toBe("CORRIDORING")
    expect(trip.departure_place).toEqual({ city_name: "Mâcon", latitude: MACON[0] + 0.004, longitude: MACON[1], country_code: "FR", meeting_point_id: 7 })
    expect(trip.departure_meeting_point.tags).toEqual(["TRAIN_STATION"])
    const fraction = stored.roadStops![0]!.fraction
    expect(trip.price_without_commission.value).toBe(Math.round((1 - fraction) * 2450) / 100)
    expect(trip.duration.value).toBe(Math.round((1 - fraction) * 16200))

    // The sub-trip's page lists the waypoints and its end along the road, in road order.
    const detail = (await Effect.runPromise(tripDetails("pl1_m7_1", { locale: "fr_FR" }, ctx).pipe(Effect.provide(layers())))) as any
    expect(Schema.is(Schema.typeSchema(TripDetail))(detail)).toBe(true)
    expect(detail.main_permanent_id).toBe("pl1")
    expect(detail.stop_overs.map((p: any) => [p.city_name, p.departure_place ?? false, p.arrival_place ?? false])).toEqual([
      ["Paris", false, false], ["Mâcon", true, false], ["Lyon", false, true], ["Marseille", false, false]
    ])
    expect(detail.trip_plan).toHaveLength(4)

    // Moved 3 km off the road: no longer a stop; the trip takes a new change sequence number.
    const seq = Effect.runSync(store.changesSince(0)).seq
    const moved = await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1] + 0.05)])
    expect(moved).toMatchObject({ ok: true, trips: 1 })
    const changes = Effect.runSync(store.changesSince(seq))
    expect(changes.upserts.map((r) => [r.id, r.road])).toEqual([["pl1", undefined]])
    expect((await search({ fc: `${MACON[0]}|${MACON[1]}`, tc: `${LYON[0]}|${LYON[1]}`, radius_from: "5", radius_to: "5" })).pager.total).toBe(0)
    await expect(Effect.runPromise(Effect.flip(tripDetails("pl1_m7_1", { locale: "fr_FR" }, ctx)).pipe(Effect.provide(layers())))).resolves.toMatchObject({ _tag: "TripNotFound" })
    // Back on the road, then removed.
    expect(await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1])])).toMatchObject({ ok: true, trips: 1 })
    expect((await search({ fc: `${MACON[0]}|${MACON[1]}`, tc: `${LYON[0]}|${LYON[1]}`, radius_from: "5", radius_to: "5" })).pager.total).toBe(1)
    expect(await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1], { status: "removed" })])).toMatchObject({ ok: true, trips: 1 })
    expect((await search({ fc: `${MACON[0]}|${MACON[1]}`, tc: `${LYON[0]}|${LYON[1]}`, radius_from: "5", radius_to: "5" })).pager.total).toBe(0)
  })
})

describe("lengths in characters", () => {
  // U+1F697, an automobile: one character, two UTF-16 units.
  const car = "\u{1F697}"
  it("count an emoji as one character, and a refusal's message never cuts one in half", async () => {
    expect((await importMeetingPoints(db, [mp(1, ...MACON, { name: car.repeat(200), full_name: car.repeat(300) })])).ok).toBe(true)
    const refused = await importMeetingPoints(db, [mp(2, ...MACON, { name: `a${car.repeat(200)}` })])
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.errors).toEqual([`line 1: name: must be a string of 1 to 200 characters, got "a${car.repeat(27)}...`])
    expect((await importFeed(db, [feed([tripInput("c1", { comment: car.repeat(2000) })])])).ok).toBe(true)
    expect(await importFeed(db, [feed([tripInput("c2", { comment: car.repeat(2001) })])])).toMatchObject({ ok: false, errors: [expect.stringMatching(/^line 1: comment: must be a string of at most 2,000 characters/)] })
    expect(db.prepare("SELECT count(*) FROM meeting_points").pluck().get()).toBe(1)
  })
})

describe("a sub-trip boarding along the road", () => {
  it("alerts a border crossing from the meeting point's country, not the waypoint's before it", async () => {
    // Every waypoint is in France; the meeting point on the road is given as Swiss.
    expect((await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1], { country: "CH" })])).ok).toBe(true)
    expect((await importFeed(db, [feed([pathTrip("pl1")])])).ok).toBe(true)
    const detail = async (id: string) => (await Effect.runPromise(tripDetails(id, { locale: "fr_FR" }, ctx).pipe(Effect.provide(layers())))) as any
    expect((await detail("pl1")).cross_border_alert).toBe(false)
    expect((await detail("pl1_m7_1")).cross_border_alert).toBe(true)
    // Alighting there: the departure is a French waypoint, and so is every waypoint.
    expect((await detail("pl1_0_m7")).cross_border_alert).toBe(false)
  })

  it("is named only as a search names it: a meeting point id or a waypoint index with a leading zero is 404", async () => {
    expect((await importMeetingPoints(db, [mp(7, MACON[0] + 0.004, MACON[1])])).ok).toBe(true)
    expect((await importFeed(db, [feed([pathTrip("pl1")])])).ok).toBe(true)
    const details = (id: string) => Effect.runPromise(Effect.either(tripDetails(id, { locale: "fr_FR" }, ctx)).pipe(Effect.provide(layers())))
    expect((await details("pl1_m7_1"))._tag).toBe("Right")
    for (const id of ["pl1_m07_1", "pl1_m7_01"]) expect([id, ((await details(id)) as any).left?._tag]).toEqual([id, "TripNotFound"])
  })
})

describe("the meeting points a search names", () => {
  it("follow the store's changes: renamed, removed, added and re-added, as a store opened afresh reads them", async () => {
    expect((await importMeetingPoints(db, [mp(7, MACON[0], MACON[1]), mp(8, LYON[0], LYON[1])])).ok).toBe(true)
    const store = makeSqliteTripStore(db)
    const names = (s = store) => [...Effect.runSync(s.meetingPoints([7, 8, 9]))].map(([id, m]) => [id, m.name])
    expect(names()).toEqual([[7, "Gare de Mâcon-Ville"], [8, "Gare de Mâcon-Ville"]])
    expect((await importMeetingPoints(db, [mp(7, MACON[0], MACON[1], { name: "Mâcon centre" }), mp(8, LYON[0], LYON[1], { status: "removed" }), mp(9, LYON[0], LYON[1])])).ok).toBe(true)
    expect(names()).toEqual([[7, "Mâcon centre"], [9, "Gare de Mâcon-Ville"]])
    // Two imports between two searches: both reach the held set.
    expect((await importMeetingPoints(db, [mp(8, LYON[0], LYON[1], { name: "Lyon Part-Dieu" })])).ok).toBe(true)
    expect((await importMeetingPoints(db, [mp(9, LYON[0], LYON[1], { status: "removed" })])).ok).toBe(true)
    expect(names()).toEqual([[7, "Mâcon centre"], [8, "Lyon Part-Dieu"]])
    expect(names(makeSqliteTripStore(db))).toEqual(names())
  })
})

describe("the stops along the road of an import", () => {
  it("are the same worked out in the decode threads as in the import's own thread", async () => {
    // Meeting points on and off the road, one of them a waypoint's own (12, Lyon's) and one removed.
    const points = [
      mp(1, ...MACON),
      mp(2, 47.8, 3.575),
      mp(3, 46.805, 4.852),
      mp(4, 47.3, 1.2),
      mp(12, ...LYON),
      mp(5, 46.31, 4.831, { status: "removed" })
    ]
    const lines = Array.from({ length: 1_300 }, (_, k) =>
      JSON.stringify(pathTrip(`r${k}`, { detour: k % 3 === 0 ? "ON_TIME" : "FIFTEEN_MINUTES", departure_time: `2030-07-${String(10 + (k % 20)).padStart(2, "0")}T0${k % 10}:30:00+02:00` }))
    )
    const file = tmp.write("roads.ndjson", lines.join("\n") + "\n")
    const other = openDatabase(tmp.path("other.db"))
    try {
      for (const d of [db, other]) expect(await importMeetingPoints(d, [points.join("\n")])).toMatchObject({ ok: true })
      expect(await importFeed(db, file, { decodeThreads: 0 })).toMatchObject({ ok: true, imported: 1_300 })
      expect(await importFeed(other, file, { decodeThreads: 2, decodeThreadsAfter: 0 })).toMatchObject({ ok: true, imported: 1_300 })
      const rows = (d: SqliteDatabase) => d.prepare("SELECT * FROM trips ORDER BY id").all()
      expect(rows(other)).toEqual(rows(db))
      const withStops = db.prepare("SELECT count(*) FROM trips WHERE road_stops IS NOT NULL").pluck().get()
      expect(withStops).toBeGreaterThan(800)
    } finally {
      other.close()
    }
  })
})

describe("a store whose stops along the road are JSON (schema 5)", () => {
  it("gets them as the same stops in the column's encoding when it is opened", async () => {
    const path = tmp.path("old.db")
    const old = openDatabase(path)
    expect(await importMeetingPoints(old, [[mp(1, ...MACON), mp(2, 47.8, 3.575), mp(3, 46.805, 4.852)].join("\n")])).toMatchObject({ ok: true })
    expect(await importFeed(old, Array.from({ length: 40 }, (_, k) => JSON.stringify(pathTrip(`j${k}`, k % 4 === 0 ? { detour: "ON_TIME" } : {}))))).toMatchObject({ ok: true })
    const rows = (d: SqliteDatabase) => d.prepare("SELECT * FROM trips ORDER BY id").all()
    const before = rows(old)
    // The column as schema 5 wrote it: the stops as JSON text.
    const toJson = old.prepare("UPDATE trips SET road_stops = ? WHERE id = ?")
    for (const [id, stops] of old.prepare("SELECT id, road_stops FROM trips WHERE road_stops IS NOT NULL").raw().all() as Array<[string, Buffer]>) {
      toJson.run(JSON.stringify(readRoadStops(stops)), id)
    }
    old.pragma("user_version = 5")
    expect(old.prepare("SELECT count(*) FROM trips WHERE typeof(road_stops) = 'text'").pluck().get()).toBe(30)
    old.close()
    const db2 = openDatabase(path)
    try {
      expect(db2.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length)
      expect(rows(db2)).toEqual(before)
    } finally {
      db2.close()
    }
  })
})
