import { feedLines } from "@tripsearch/dataset"
import { InMemoryTripMatcher, TripStore } from "@tripsearch/core"
import { IndexWriter } from "@tripsearch/geo-pool"
import { Effect, Layer, ManagedRuntime } from "effect"
import { connectPostgres, createKey, importFeed, makePostgresTripStore, migrate, revokeKey, type Sql } from "@tripsearch/storage-postgres"
import { freshDatabase } from "@tripsearch/store-tests"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { timeUntil } from "./timeUntil.js"
import { type ApiServer, createServer } from "../src/createServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Polls `probe` every 10 ms until `done` accepts its value: the ms it took, Infinity after `ms`. */
/**
 * The server over a PostgreSQL store (TRIPSEARCH_DB=postgres://…): the index is loaded from the
 * database and follows it through LISTEN/NOTIFY, keys are looked up and counted there.
 */
describe("the API over a PostgreSQL store", () => {
  const nowMs = Date.now()
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let sql: Sql
  let api: ApiServer
  let base: string
  let key: string
  const imported = [...feedLines({ trips: 200, seed: "postgres-server", nowMs })]

  beforeAll(async () => {
    database = await freshDatabase()
    sql = connectPostgres(database.url)
    await migrate(sql)
    expect(await importFeed(sql, imported)).toMatchObject({ ok: true, seq: 200 })
    key = (await createKey(sql, { name: "partner" })).key
    api = await createServer({
      config: {
        db: database.url,
        publicBaseUrl: "https://api.pg.test",
        websiteBaseUrl: "https://www.pg.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        matcherMaxQueue: 64
      },
      logger: { info: () => {}, error: () => {} }
    })
    base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    await sql?.end()
    await database?.drop()
  })

  const template = JSON.parse([...feedLines({ trips: 1, seed: "pg-freshness", nowMs })][0]!) as Json
  const trip = (patch: Json): string =>
    JSON.stringify({ ...template, id: "pg-fresh-1", status: "active", departure_time: new Date(nowMs + 86_400_000).toISOString(), ...patch })
  const first = template.waypoints[0]
  const last = template.waypoints[template.waypoints.length - 1]
  const search = (withKey = key) =>
    fetch(`${base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${first.lat}%7C${first.lon}&tc=${last.lat}%7C${last.lon}&radius=1&limit=100`, { headers: { key: withKey } })
  const findTrip = async (): Promise<Json | undefined> => {
    const response = await search()
    expect(response.status).toBe(200)
    return ((await response.json()) as { trips: Array<Json> }).trips.find((t) => t.permanent_id === "pg-fresh-1")
  }
  const commit = async (line: string) => expect(await importFeed(sql, [line])).toMatchObject({ ok: true })

  it("answers searches and details from the database's trips", async () => {
    const stored = JSON.parse(imported[0]!) as Json
    const [from, to] = [stored.waypoints[0], stored.waypoints[stored.waypoints.length - 1]]
    const response = await fetch(`${base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${from.lat}%7C${from.lon}&tc=${to.lat}%7C${to.lon}&radius=1&limit=100`, { headers: { key } })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { trips: Array<Json> }
    expect(body.trips.map((t) => t.permanent_id)).toContain(stored.id)
    const details = await fetch(`${base}/api/v2/trips/${stored.id}?locale=fr_FR`, { headers: { key } })
    expect(details.status).toBe(200)
    expect(((await details.json()) as Json).permanent_id).toBe(stored.id)
  })

  it("finds a new trip, a seat update and a cancellation within 1 s of their commit", async () => {
    expect(await findTrip()).toBeUndefined()
    await commit(trip({ seats: 4, seats_left: 3 }))
    expect(await timeUntil(findTrip, (t) => t?.seats_left === 3)).toBeLessThan(1_000)
    await commit(trip({ seats: 4, seats_left: 1 }))
    expect(await timeUntil(findTrip, (t) => t?.seats_left === 1)).toBeLessThan(1_000)
    await commit(trip({ status: "cancelled" }))
    expect(await timeUntil(findTrip, (t) => t === undefined)).toBeLessThan(1_000)
  })

  it("counts a key's requests in the database, and refuses a key revoked there within about a second", async () => {
    const other = await createKey(sql, { name: "soon revoked" })
    for (let i = 0; i < 3; i++) expect((await search(other.key)).status).toBe(200)
    const stored = async () => (await sql<Array<{ count: number }>>`SELECT count FROM key_usage WHERE key_id = ${other.id}`)[0]?.count
    expect(await timeUntil(stored, (n) => n === 3, 3_000)).toBeLessThan(3_000)
    expect(await revokeKey(sql, other.id)).toBe(true)
    expect(await timeUntil(async () => (await search(other.key)).status, (status) => status === 403, 3_000)).toBeLessThan(1_500)
  })
})

describe("the in-thread matcher (MATCHER_THREADS=0) over a PostgreSQL store", () => {
  it("is woken by the store's NOTIFY, and reads the change sequence once a second otherwise", async () => {
    const database = await freshDatabase()
    const sql = connectPostgres(database.url)
    try {
      await migrate(sql)
      const lines = [...feedLines({ trips: 4, seed: "in-thread-wake", nowMs: Date.now() })]
      await importFeed(sql, lines.slice(0, 1))
      const store = makePostgresTripStore(sql)
      let reads = 0
      let seenSeq = 0
      const counted: TripStore["Type"] = {
        ...store,
        changesSince: (seq) =>
          Effect.suspend(() => {
            reads++
            return Effect.tap(store.changesSince(seq), (changes) => Effect.sync(() => void (seenSeq = changes.seq)))
          })
      }
      const runtime = ManagedRuntime.make(InMemoryTripMatcher.layer.pipe(Layer.provide(Layer.succeed(TripStore, counted))))
      try {
        await runtime.runtime()
        reads = 0
        await new Promise((r) => setTimeout(r, 2_100))
        // Polling every 200 ms would have read it ten times.
        expect(reads).toBeGreaterThanOrEqual(1)
        expect(reads).toBeLessThanOrEqual(3)
        // Each commit is read at once, not at the next second's poll.
        for (const [i, line] of lines.slice(1).entries()) {
          await importFeed(sql, [line])
          expect(await timeUntil(async () => seenSeq, (seq) => seq === i + 2, 2_000)).toBeLessThan(300)
        }
      } finally {
        await runtime.dispose()
      }
    } finally {
      await sql.end()
      await database.drop()
    }
  })

  it("serves searches that find a commit within 1 s", async () => {
    const database = await freshDatabase()
    const sql = connectPostgres(database.url)
    let api: ApiServer | undefined
    try {
      await migrate(sql)
      const nowMs = Date.now()
      const lines = [...feedLines({ trips: 2, seed: "in-thread", nowMs })]
      await importFeed(sql, lines.slice(0, 1))
      const key = (await createKey(sql, { name: "in-thread" })).key
      api = await createServer({
        config: {
          db: database.url,
          publicBaseUrl: "https://api.pg.test",
          websiteBaseUrl: "https://www.pg.test",
          queryLogPath: undefined,
          productionDailyLimit: undefined,
          matcherThreads: 0
        },
        logger: { info: () => {}, error: () => {} }
      })
      const base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
      const trip = JSON.parse(lines[1]!) as Json
      const [from, to] = [trip.waypoints[0], trip.waypoints[trip.waypoints.length - 1]]
      const found = async () => {
        const response = await fetch(`${base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${from.lat}%7C${from.lon}&tc=${to.lat}%7C${to.lon}&radius=1`, { headers: { key } })
        expect(response.status).toBe(200)
        return ((await response.json()) as { trips: Array<Json> }).trips.some((t) => t.permanent_id === trip.id)
      }
      expect(await found()).toBe(false)
      await importFeed(sql, lines.slice(1))
      expect(await timeUntil(found, Boolean, 2_000)).toBeLessThan(1_000)
    } finally {
      await api?.close()
      await sql.end()
      await database.drop()
    }
  })
})

describe("IndexWriter over a PostgreSQL store", () => {
  it("is woken by the store's NOTIFY: a commit is applied at once, long before its next poll", async () => {
    const database = await freshDatabase()
    const sql = connectPostgres(database.url)
    try {
      await migrate(sql)
      const lines = [...feedLines({ trips: 3, seed: "wake", nowMs: Date.now() })]
      await importFeed(sql, lines.slice(0, 1))
      const writer = await IndexWriter.start(makePostgresTripStore(sql), { channelName: "test-wake", refreshMs: 60_000 })
      try {
        expect(writer.appliedSeq).toBe(1)
        await importFeed(sql, lines.slice(1))
        expect(await timeUntil(async () => writer.appliedSeq, (seq) => seq === 3, 2_000)).toBeLessThan(1_000)
        // The generated feed moves with the clock: some hours one of its trips is cancelled.
        expect(writer.trips).toBe(lines.filter((line) => (JSON.parse(line) as { status?: string }).status !== "cancelled").length)
      } finally {
        await writer.close()
      }
    } finally {
      await sql.end()
      await database.drop()
    }
  })
})
