import { Effect, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { feedLines, meetingPointLines } from "@tripsearch/dataset"
import { freshDatabase, toLine, tripInput, variedTrips } from "@tripsearch/store-tests"
import { importFeed as importIntoSqlite, importMeetingPoints as importSqliteMeetingPoints, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { readRoadStops } from "@tripsearch/store-common"
import {
  connectPostgres, createKey, importFeed, importMeetingPoints, listenForChanges, makePostgresKeyStore, makePostgresTripStore, migrate, MIGRATIONS, revokeKey,
  schemaVersion, type Sql
} from "../src/index.js"

let database: Awaited<ReturnType<typeof freshDatabase>>
const pools: Array<Sql> = []
/** A pool to the test's database (a replica's, when a test opens several), ended after the test. */
const pool = (): Sql => {
  const sql = connectPostgres(database.url)
  pools.push(sql)
  return sql
}
beforeEach(async () => {
  database = await freshDatabase()
})
afterEach(async () => {
  for (const sql of pools.splice(0)) await sql.end({ timeout: 1 })
  await database.drop()
})

const run = <A>(effect: Effect.Effect<A>): Promise<A> => Effect.runPromise(effect)

/** Resolves with the first value `next` gives that `ok` accepts, polling every 10 ms for at most `ms`. */
const eventually = async <A>(next: () => A, ok: (a: A) => boolean, ms = 5_000): Promise<A> => {
  const until = Date.now() + ms
  for (;;) {
    const value = next()
    if (ok(value) || Date.now() > until) return value
    await new Promise((r) => setTimeout(r, 10))
  }
}

describe("schema", () => {
  it("migrations are versioned, applied once by replicas starting together, and a newer schema is refused", async () => {
    const a = pool()
    const b = pool()
    expect(await schemaVersion(a)).toBe(0)
    expect(await Promise.all([migrate(a), migrate(b), migrate(a)])).toEqual([MIGRATIONS.length, MIGRATIONS.length, MIGRATIONS.length])
    expect(await schemaVersion(b)).toBe(MIGRATIONS.length)
    expect(await a`SELECT count(*)::int AS n FROM meta WHERE key = 'store_id'`).toEqual([{ n: 1 }])
    await a`UPDATE tripsearch_schema SET version = ${MIGRATIONS.length + 1}`
    await expect(migrate(b)).rejects.toThrow(/newer than this build knows/)
  })
})

describe("import through COPY", () => {
  it("stores the very rows the SQLite store stores: values COPY escapes, decode threads and sequence numbers included", async () => {
    const special = tripInput("esc", { comment: 'tab\there, back\\slash, "quotes", new\nline, \r, é, 🚗, \\N, \\.' })
    const many = Array.from({ length: 1_200 }, (_, i) => tripInput(`m${i}`, { seats_left: i % 4, comment: `trip ${i} — é` }))
    const lines = [...variedTrips(), special, ...many].map(toLine)
    const sql = pool()
    await migrate(sql)
    expect(await importFeed(sql, lines, { decodeThreads: 2, decodeThreadsAfter: 0 })).toEqual({ ok: true, imported: 1_231, unchanged: 0, seq: 1_231 })
    const sqlite = openDatabase(":memory:")
    try {
      expect(await importIntoSqlite(sqlite, lines, { decodeThreads: 0 })).toMatchObject({ ok: true, seq: 1_231 })
      const columns = "id, status, seq, departure_ms, currency, seats, seats_left, booking_type, flags, experience, comfort_stars, packed, shown, zone_offsets, trip_json"
      const expected = (sqlite.prepare(`SELECT ${columns} FROM trips ORDER BY id`).all() as Array<Record<string, unknown>>).map((row) => ({
        ...row,
        packed: Buffer.from(row["packed"] as Uint8Array),
        shown: Buffer.from(row["shown"] as Uint8Array)
      }))
      const stored = [...(await sql.unsafe(`SELECT ${columns} FROM trips ORDER BY id`))]
      expect(stored).toHaveLength(1_231)
      expect(stored).toEqual(expected)
      expect(JSON.parse((stored.find((r) => r["id"] === "esc") as unknown as { trip_json: string }).trip_json).comment).toBe(special["comment"])
    } finally {
      sqlite.close()
    }
  })

  it("imports at the same time take their turns: each gets a run of sequence numbers, in commit order", async () => {
    const a = pool()
    const b = pool()
    await migrate(a)
    const feed = (prefix: string) => Array.from({ length: 300 }, (_, i) => toLine(tripInput(`${prefix}${i}`)))
    const [ra, rb] = await Promise.all([importFeed(a, feed("a")), importFeed(b, feed("b"))])
    expect([ra, rb].map((r) => (r.ok ? r.seq : -1)).sort((x, y) => x - y)).toEqual([300, 600])
    const rows = await a<Array<{ id: string; seq: number }>>`SELECT id, seq FROM trips ORDER BY seq`
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1))
    // Each import's trips hold one run of numbers, in feed order.
    const first = rows[0]!.id[0]!
    expect(rows.slice(0, 300).every((r, i) => r.id === `${first}${i}`)).toBe(true)
    const changes = await run(makePostgresTripStore(b).changesSince(0))
    expect(changes.seq).toBe(600)
    expect(changes.upserts).toHaveLength(600)
  })

  it("a feed that cannot be read rolls back what it had copied, and the connection goes on", async () => {
    const sql = pool()
    await migrate(sql)
    async function* failing() {
      yield toLine(tripInput("r1"))
      throw new Error("the source broke")
    }
    await expect(importFeed(sql, failing())).rejects.toThrow("the source broke")
    expect(await sql`SELECT count(*)::int AS n FROM trips`).toEqual([{ n: 0 }])
    expect(await importFeed(sql, [toLine(tripInput("r1"))])).toEqual({ ok: true, imported: 1, unchanged: 0, seq: 1 })
  })
})

describe("freshness: LISTEN/NOTIFY", () => {
  it("wakes a follower at each committed change with the new sequence number, and again after its connection is lost", async () => {
    const writer = pool()
    const follower = pool()
    await migrate(writer)
    const heard: Array<number | undefined> = []
    const listener = await listenForChanges(follower, (seq) => heard.push(seq))
    expect(await eventually(() => heard.length, (n) => n >= 1)).toBe(1)
    expect(heard).toEqual([undefined]) // listening: catch up from the sequence
    const t0 = Date.now()
    await importFeed(writer, [toLine(tripInput("n1")), toLine(tripInput("n2"))])
    await eventually(() => heard.length, (n) => n >= 2)
    expect(Date.now() - t0).toBeLessThan(1_000)
    expect(heard).toEqual([undefined, 2])
    // An import that changes nothing says nothing, nor does a refused one.
    await importFeed(writer, [toLine(tripInput("n1"))])
    await importFeed(writer, ["{"])
    await new Promise((r) => setTimeout(r, 200))
    expect(heard).toEqual([undefined, 2])
    // The listening connection dies (a restart, a network cut): the client connects and listens
    // again by itself, and tells the follower to catch up from the sequence, since notifications
    // sent meanwhile are lost.
    await writer`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'listen%'`
    const catchUps = () => heard.filter((seq) => seq === undefined).length
    expect(await eventually(catchUps, (n) => n >= 2, 10_000)).toBe(2)
    await importFeed(writer, [toLine(tripInput("n3"))])
    expect(await eventually(() => heard.at(-1), (last) => last === 3)).toBe(3)
    await listener.close()
  })
})

describe("keys across replicas", () => {
  it("one daily count per key, shared: each replica sees the others' counts after their flush and its own", async () => {
    const admin = pool()
    await migrate(admin)
    const { id } = await createKey(admin, { name: "shared", tier: "production", dailyLimit: 100 })
    const a = makePostgresKeyStore(pool())
    const b = makePostgresKeyStore(pool())
    const day = "2026-07-15"
    expect(await run(a.service.usage(id, day))).toBe(0)
    expect(await run(b.service.usage(id, day))).toBe(0)
    for (let i = 0; i < 3; i++) await run(a.service.count(id, day))
    for (let i = 0; i < 5; i++) await run(b.service.count(id, day))
    // Each counts its own at once, before any write.
    expect(await run(a.service.usage(id, day))).toBe(3)
    expect(await run(b.service.usage(id, day))).toBe(5)
    expect(await admin`SELECT count(*)::int AS n FROM key_usage`).toEqual([{ n: 0 }])
    await a.flush()
    await b.flush() // writes B's 5 and reads back the shared 8
    expect(await run(b.service.usage(id, day))).toBe(8)
    expect(await run(a.service.usage(id, day))).toBe(3) // not read since
    await a.flush() // nothing of its own to write: reads the shared count
    expect(await run(a.service.usage(id, day))).toBe(8)
    expect(await admin`SELECT key_id, day, count FROM key_usage`).toEqual([{ key_id: id, day, count: 8 }])
    expect(a.pending() + b.pending()).toBe(0)
  })

  it("a revoked key is refused by a replica once its lookup is older than keyCacheMs", async () => {
    const admin = pool()
    await migrate(admin)
    const { id, key } = await createKey(admin, { name: "soon revoked" })
    const replica = makePostgresKeyStore(pool(), { keyCacheMs: 300 })
    expect(Option.isSome(await run(replica.service.find(key)))).toBe(true)
    expect(await revokeKey(admin, id)).toBe(true)
    expect(Option.isSome(await run(replica.service.find(key)))).toBe(true) // the lookup of 0 ms ago stands
    await new Promise((r) => setTimeout(r, 350))
    expect(await run(replica.service.find(key))).toEqual(Option.none())
  })
})

describe("stops along the road", () => {
  // Paris -> Lyon -> Marseille, the first leg's road passing Mâcon (as the SQLite store's tests).
  const PATH = "wheiHgljMvjmEgzlF~hbE__yFnu~A~{BnsiBsb@"
  const mp = (id: number, lat: number, lon: number) =>
    JSON.stringify({ id, name: `Point ${id}`, full_name: `Point ${id}, Town`, city: "Town", lat, lon, country: "FR", tags: ["TRAIN_STATION"] })
  const points = [mp(1, 46.3069, 4.8287), mp(2, 47.8, 3.575), mp(3, 46.805, 4.852)].join("\n")
  const lines = Array.from({ length: 1_100 }, (_, k) => {
    const trip = tripInput(`r${k}`, { departure_time: `2030-07-${String(10 + (k % 20)).padStart(2, "0")}T08:30:00+02:00`, ...(k % 4 === 0 ? { detour: "ON_TIME" } : {}) })
    const legs = trip["legs"] as Array<Record<string, unknown>>
    return toLine({ ...trip, legs: [{ ...legs[0], path: PATH }, legs[1]] })
  })
  const ROAD = "id, road_stops, road_min_lat, road_max_lat, road_min_lon, road_max_lon"

  it("are the SQLite store's, worked out in the decode threads, read back the same, and not changed by the same meeting points again", async () => {
    const sql = pool()
    await migrate(sql)
    expect(await importMeetingPoints(sql, [points])).toMatchObject({ ok: true, imported: 3 })
    expect(await importFeed(sql, lines, { decodeThreads: 2, decodeThreadsAfter: 0 })).toMatchObject({ ok: true, imported: 1_100 })
    const sqlite = openDatabase(":memory:")
    try {
      expect(await importSqliteMeetingPoints(sqlite, [points])).toMatchObject({ ok: true })
      expect(await importIntoSqlite(sqlite, lines, { decodeThreads: 0 })).toMatchObject({ ok: true, imported: 1_100 })
      const expected = (sqlite.prepare(`SELECT ${ROAD} FROM trips ORDER BY id`).all() as Array<Record<string, unknown>>).map((row) => ({
        ...row,
        road_stops: row["road_stops"] === null ? null : Buffer.from(row["road_stops"] as Uint8Array)
      }))
      expect(expected.filter((r) => r["road_stops"] !== null)).toHaveLength(825)
      expect([...(await sql.unsafe(`SELECT ${ROAD} FROM trips ORDER BY id`))]).toEqual(expected)
      const fromSqlite = await run(makeSqliteTripStore(sqlite).getTrip("r1"))
      const fromPostgres = await run(makePostgresTripStore(sql).getTrip("r1"))
      expect(Option.getOrThrow(fromPostgres).roadStops).toEqual(Option.getOrThrow(fromSqlite).roadStops)
      expect(Option.getOrThrow(fromPostgres).roadStops!.map((s) => s.mp)).toEqual([2, 3, 1])
    } finally {
      sqlite.close()
    }
    expect(await importMeetingPoints(sql, [points])).toMatchObject({ ok: true, unchanged: 3, trips: 0 })
  })

  it("a meeting point feed read and written in batches changes the very rows, numbers and counts the SQLite store's does", async () => {
    // The generator's world: its meeting points lie along the roads its trips take.
    // A quarter of them, for time: still some 850 moved.
    const all = [...meetingPointLines()]
      .filter((_, i) => i % 4 === 0)
      .map((line) => JSON.parse(line) as Record<string, unknown> & { id: number; lat: number; lon: number })
    const trips = [...feedLines({ trips: 1_000, seed: "mp-batches", nowMs: Date.UTC(2030, 6, 1) })]
    // Second feed: a tenth each moved, removed, renamed, left out (kept as stored), and added
    // (not in the first feed); the others the same.
    const first = all.filter((_, i) => i % 10 !== 4).map((mp) => JSON.stringify(mp))
    const second = all.flatMap((mp, i) => {
      const k = i % 10
      if (k === 0) return [JSON.stringify({ ...mp, lat: Math.round((mp.lat + 0.004) * 1e5) / 1e5, lon: Math.round((mp.lon - 0.003) * 1e5) / 1e5 })]
      if (k === 1) return [JSON.stringify({ ...mp, status: "removed" })]
      if (k === 2) return [JSON.stringify({ ...mp, name: `${String(mp["name"])} (new)` })]
      return k === 3 ? [] : [JSON.stringify(mp)]
    })
    const batch = 97 // many batches of points and of trips, the last ones partly filled
    const sql = pool()
    await migrate(sql)
    const sqlite = openDatabase(":memory:")
    try {
      const bothImport = async (points: ReadonlyArray<string>) => {
        const expected = await importSqliteMeetingPoints(sqlite, [points.join("\n")])
        expect(await importMeetingPoints(sql, [points.join("\n")], batch)).toEqual(expected)
        return expected
      }
      expect(await bothImport(first)).toMatchObject({ ok: true, unchanged: 0, trips: 0 })
      expect(await importFeed(sql, trips)).toMatchObject({ ok: true, imported: 1_000 })
      expect(await importIntoSqlite(sqlite, trips, { decodeThreads: 0 })).toMatchObject({ ok: true, imported: 1_000 })
      const moved = await bothImport(second)
      // Every road looked at again (far more than 64 places), and many trips renumbered across batches.
      const kept = new Set(first)
      expect(moved).toMatchObject({ ok: true, imported: second.length, unchanged: second.filter((line) => kept.has(line)).length })
      expect(moved.ok && moved.trips).toBeGreaterThan(3 * batch)
      const buffer = (row: Record<string, unknown>, column: string) => ({ ...row, [column]: row[column] === null ? null : Buffer.from(row[column] as Uint8Array) })
      const tripRows = "SELECT id, seq, road_stops FROM trips ORDER BY id"
      expect([...(await sql.unsafe(tripRows))]).toEqual((sqlite.prepare(tripRows).all() as Array<Record<string, unknown>>).map((r) => buffer(r, "road_stops")))
      const pointRows = "SELECT id, status, lat, lon, mp_json, version FROM meeting_points ORDER BY id"
      expect([...(await sql.unsafe(pointRows))]).toEqual(sqlite.prepare(pointRows).all())
      const metaRow = "SELECT value FROM meta WHERE key = 'meeting_points_version'"
      expect(await sql.unsafe(metaRow)).toEqual([sqlite.prepare(metaRow).get()])
      expect(await sql`SELECT seq FROM change_seq`).toEqual([{ seq: moved.ok ? moved.seq : -1 }])
    } finally {
      sqlite.close()
    }
  })

  it("stored as JSON by the schema before, are the same stops after the migration", async () => {
    const sql = pool()
    await migrate(sql)
    expect(await importMeetingPoints(sql, [points])).toMatchObject({ ok: true })
    expect(await importFeed(sql, lines.slice(0, 60))).toMatchObject({ ok: true })
    const before = [...(await sql.unsafe(`SELECT * FROM trips ORDER BY id`))]
    // The column as the schema before wrote it: the stops as JSON text.
    const json = before.filter((r) => r["road_stops"] !== null).map((r) => [r["id"] as string, JSON.stringify(readRoadStops(r["road_stops"] as Buffer))])
    await sql`ALTER TABLE trips ALTER COLUMN road_stops TYPE text USING NULL`
    for (const [id, stops] of json) await sql`UPDATE trips SET road_stops = ${stops!} WHERE id = ${id!}`
    await sql`UPDATE tripsearch_schema SET version = ${MIGRATIONS.length - 1}`
    expect(await migrate(sql)).toBe(MIGRATIONS.length)
    expect([...(await sql.unsafe(`SELECT * FROM trips ORDER BY id`))]).toEqual(before)
  })
})
