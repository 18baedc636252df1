import { feedLines } from "@tripsearch/dataset"
import { TripStore } from "@tripsearch/core"
import { refreshSnapshot, SNAPSHOT_FORMAT } from "@tripsearch/geo-pool"
import { connectPostgres, createKey, importFeed, makePostgresTripStore, migrate, type Sql } from "@tripsearch/storage-postgres"
import { freshDatabase } from "@tripsearch/store-tests"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { timeUntil } from "./timeUntil.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** A deterministic generator, so that a failing query can be found again. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

/**
 * The index snapshot kept in PostgreSQL for every replica: a server that starts from it (and the
 * changes committed after it) answers as one that scanned the store; a snapshot of another store,
 * or of a change the store has not reached, is refused, and the server scans and says why.
 */
describe("replicas over PostgreSQL start from the snapshot kept in the database", () => {
  const nowMs = Date.now()
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let sql: Sql
  let key: string
  const servers: Array<ApiServer> = []
  const feed = [...feedLines({ trips: 1_500, seed: "shared-snapshot", nowMs })]
  const trips = feed.map((line) => JSON.parse(line) as Json)

  const start = async (shared: boolean): Promise<{ api: ApiServer; base: string }> => {
    const api = await createServer({
      config: {
        db: database.url,
        publicBaseUrl: "https://api.snapshot.test",
        websiteBaseUrl: "https://www.snapshot.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        matcherMaxQueue: 256,
        indexSnapshotShared: shared
      },
      logger: { info: () => {}, error: () => {} }
    })
    servers.push(api)
    return { api, base: `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}` }
  }
  const store = () => makePostgresTripStore(sql)
  const tag = async () => (await sql<Array<{ store_id: string; seq: number; format: number }>>`SELECT store_id, seq, format FROM index_snapshot`)[0]

  beforeAll(async () => {
    database = await freshDatabase()
    sql = connectPostgres(database.url)
    await migrate(sql)
    expect(await importFeed(sql, feed)).toMatchObject({ ok: true, seq: 1_500 })
    key = (await createKey(sql, { name: "snapshot", tier: "production", dailyLimit: 1_000_000 })).key
  }, 120_000)

  afterAll(async () => {
    for (const api of servers) await api.close()
    await sql?.end()
    await database?.drop()
  })

  it("a replica that starts from the kept snapshot and the later changes answers generated searches as one that scanned", async () => {
    // What the store tool does after an import: the snapshot at the store's last change.
    const kept = await refreshSnapshot(store() as TripStore["Type"], undefined)
    expect(kept).toMatchObject({ written: true, seq: 1_500 })
    expect(await tag()).toMatchObject({ seq: 1_500, format: SNAPSHOT_FORMAT })
    // Changes after the snapshot: a trip moved, one cancelled, two new (copies of others, new ids).
    // The first new one copies a long trip of the feed, which a search between its ends finds.
    const long = trips.findIndex((t, i) => i > 12 && t.status !== "cancelled" && (t.legs as Array<Json>).reduce((km, l) => km + l.distance_km, 0) > 150)
    const later = [
      JSON.stringify({ ...trips[3], seats_left: 0 }),
      JSON.stringify({ ...trips[7], status: "cancelled" }),
      JSON.stringify({ ...trips[long], id: "shared-new-1", status: "active", departure_time: new Date(nowMs + 2 * 86_400_000).toISOString() }),
      JSON.stringify({ ...trips[12], id: "shared-new-2", status: "active", departure_time: new Date(nowMs + 3 * 86_400_000).toISOString() })
    ]
    expect(await importFeed(sql, later)).toMatchObject({ ok: true, seq: 1_504 })

    const fromSnapshot = await start(true)
    const scanned = await start(false)
    expect(fromSnapshot.api.indexLoad).toMatchObject({ from: "snapshot", changes: 4 })
    expect(scanned.api.indexLoad).toMatchObject({ from: "store" })

    const next = random(28)
    const pick = () => trips[Math.floor(next() * trips.length)]!
    let compared = 0
    let found = 0
    for (let q = 0; q < 80; q++) {
      const a = pick().waypoints
      const b = next() < 0.5 ? a : pick().waypoints
      const from = a[0]
      const to = b[Math.max(1, Math.floor(next() * b.length))] ?? b[b.length - 1]
      const radius = [1, 5, 20, 60][Math.floor(next() * 4)]
      const path = `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${from.lat}%7C${from.lon}&tc=${to.lat}%7C${to.lon}&radius=${radius}&limit=50`
      const [x, y] = await Promise.all([fromSnapshot.base, scanned.base].map(async (base) => {
        const response = await fetch(`${base}${path}`, { headers: { key } })
        expect(response.status, path).toBe(200)
        return (await response.json()) as Json
      }))
      expect(x, path).toEqual(y)
      compared++
      if ((x!.trips as Array<Json>).length > 0) found++
    }
    expect(compared).toBe(80)
    // The comparison is not of empty pages.
    expect(found).toBeGreaterThan(20)
    // The changes after the snapshot are there: a new trip is found where its copy is.
    const copy = trips[long]!.waypoints
    const path = `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${copy[0].lat}%7C${copy[0].lon}&tc=${copy[copy.length - 1].lat}%7C${copy[copy.length - 1].lon}&radius=1&limit=100`
    const ids = ((await (await fetch(`${fromSnapshot.base}${path}`, { headers: { key } })).json()) as { trips: Array<Json> }).trips.map((t) => t.permanent_id)
    expect(ids).toContain("shared-new-1")
  }, 120_000)

  it("refuses a snapshot of another store, scans, says why, and leaves its own snapshot in its place", async () => {
    await sql`UPDATE index_snapshot SET store_id = 'postgres:another-database'`
    const { api } = await start(true)
    expect(api.indexLoad).toMatchObject({ from: "store" })
    expect(api.indexLoad!.reason).toMatch(/another store/)
    // The replica that scanned keeps its snapshot, of this store, in the background.
    const [row] = await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'store_id'`
    expect(await timeUntil(() => tag(), (t) => t?.store_id === `postgres:${row!.value}`, 30_000)).toBeLessThan(30_000)
    expect((await tag())!.seq).toBe(1_504)
  }, 120_000)

  it("refuses a snapshot of a change the store has not reached (a database restored from before it), and scans", async () => {
    await sql`UPDATE index_snapshot SET seq = 1600`
    const { api } = await start(true)
    expect(api.indexLoad).toMatchObject({ from: "store" })
    expect(api.indexLoad!.reason).toMatch(/the store is at change 1504, before the snapshot's 1600/)
  }, 120_000)

  it("refuses a kept snapshot whose bytes do not match its tag", async () => {
    // Another store's snapshot bytes under this store's tag: the file's own header says otherwise.
    const [row] = await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'store_id'`
    await timeUntil(() => tag(), (t) => t?.seq === 1_504 && t.store_id === `postgres:${row!.value}`, 30_000)
    await sql`UPDATE index_snapshot SET seq = 1503`
    const { api } = await start(true)
    expect(api.indexLoad).toMatchObject({ from: "store" })
    expect(api.indexLoad!.reason).toMatch(/bytes are of change 1504, its tag of 1503/)
  }, 120_000)

  it("refuses a kept snapshot whose chunks were cut, scans, and puts its own in its place; the store tool does too", async () => {
    const [row] = await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = 'store_id'`
    const ours = (t: Awaited<ReturnType<typeof tag>>) => t?.seq === 1_504 && t.store_id === `postgres:${row!.value}`
    await timeUntil(() => tag(), ours, 30_000)
    const held = async () => Number((await sql<Array<{ n: number }>>`SELECT coalesce(sum(octet_length(data)), 0)::int8 AS n FROM index_snapshot_chunks`)[0]!.n)
    const whole = await held()
    const cut = async () => sql`UPDATE index_snapshot_chunks SET data = substr(data, 1, 100) WHERE n = (SELECT max(n) FROM index_snapshot_chunks)`
    await cut()
    const { api } = await start(true)
    expect(api.indexLoad).toMatchObject({ from: "store" })
    expect(api.indexLoad!.reason).toMatch(/a damaged snapshot \(the kept snapshot has \d+ bytes, its tag says \d+\)/)
    // The replica's own snapshot, of the same change, replaces the damaged one.
    expect(await timeUntil(held, (n) => n === whole, 30_000)).toBeLessThan(30_000)
    expect(await tag()).toMatchObject({ seq: 1_504 })
    // What the store tool does after an import: the same.
    await cut()
    const refreshed = await refreshSnapshot(store() as TripStore["Type"], undefined)
    expect(refreshed).toMatchObject({ written: true, seq: 1_504, load: { from: "store" } })
    expect(await held()).toBe(whole)
  }, 120_000)
})
