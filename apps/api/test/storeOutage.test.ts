import { spawnSync } from "node:child_process"
import { feedLines } from "@tripsearch/dataset"
import { connectPostgres, createKey, importFeed, migrate, type Sql } from "@tripsearch/storage-postgres"
import { type PostgresCluster, startPostgresCluster } from "@tripsearch/store-tests/postgres-cluster"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { timeUntil } from "./timeUntil.js"
import { type ApiServer, createServer } from "../src/createServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const MAIN = new URL("../dist/main.js", import.meta.url).pathname

/** Polls `probe` every 10 ms until `done` accepts its value: the ms it took, Infinity after `ms`. */
/**
 * The server over a PostgreSQL that stops under it (a cluster of this test's own): searches go on
 * from the index, what needs the database answers 503 `service.error` at once, `/health` says
 * `degraded`, and the index catches up when the database is back.
 */
describe("the API while its PostgreSQL is down", () => {
  const nowMs = Date.now()
  let cluster: PostgresCluster
  let sql: Sql
  let api: ApiServer
  let base: string
  let seen: { id: string; key: string }
  let unseen: { id: string; key: string }
  const lines = [...feedLines({ trips: 100, seed: "outage", nowMs })]
  const stored = JSON.parse(lines[0]!) as Json
  const [from, to] = [stored.waypoints[0], stored.waypoints[stored.waypoints.length - 1]]
  const searchPath = `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${from.lat}%7C${from.lon}&tc=${to.lat}%7C${to.lon}&radius=1&limit=100`
  const get = async (path: string, key = seen.key) => {
    const t0 = performance.now()
    const response = await fetch(`${base}${path}`, { headers: { key } })
    return { response, body: (await response.json()) as Json, ms: performance.now() - t0 }
  }

  beforeAll(async () => {
    cluster = await startPostgresCluster()
    sql = connectPostgres(cluster.url)
    await migrate(sql)
    expect(await importFeed(sql, lines)).toMatchObject({ ok: true })
    seen = await createKey(sql, { name: "seen" })
    unseen = await createKey(sql, { name: "unseen" })
    api = await createServer({
      config: {
        db: cluster.url,
        publicBaseUrl: "https://api.outage.test",
        websiteBaseUrl: "https://www.outage.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        matcherMaxQueue: 64
      },
      logger: { info: () => {}, error: () => {} }
    })
    base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 60_000)

  afterAll(async () => {
    await api?.close(1_000)
    await sql?.end({ timeout: 1 })
    cluster?.stop()
  })

  it("answers searches from its index, 503 service.error where it needs the store, and catches up after", async () => {
    const before = await get("/health")
    expect(before.response.status).toBe(200)
    expect(before.body).toEqual({ status: "ok", store: "reachable", data_version: 100 })
    expect((await get(searchPath)).response.status).toBe(200)
    expect((await get(`/api/v2/trips/${stored.id}?locale=fr_FR`)).response.status).toBe(200)
    // Counted, and flushed to the database, before it stops.
    expect(await timeUntil(async () => (await sql`SELECT count FROM key_usage WHERE key_id = ${seen.id}`)[0]?.count, (n) => n === 2)).toBeLessThan(5_000)

    cluster.pause()

    const search = await get(searchPath)
    expect(search.response.status).toBe(200)
    expect((search.body.trips as Array<Json>).map((t) => t.permanent_id)).toContain(stored.id)
    // The key's count goes on in memory: 2 counted before, this search the 3rd.
    expect(search.response.headers.get("x-ratelimit-remaining-day")).toBe(String(10_000 - 3))

    for (const path of [`/api/v2/trips/${stored.id}?locale=fr_FR`, `/api/v2/trips/${stored.id}/threads?locale=fr_FR`]) {
      const details = await get(path)
      expect(details.response.status, path).toBe(503)
      expect(details.response.headers.get("retry-after")).toBe("5")
      expect(details.body.error).toMatchObject({ code: "503", "developper-message": "service.error" })
      expect(details.body.error.message).toMatch(/trip store cannot be reached/)
      expect(details.ms).toBeLessThan(1_000)
    }
    // A key this server never looked up cannot be checked: 503, not 403, not a wait.
    const unknown = await get(searchPath, unseen.key)
    expect(unknown.response.status).toBe(503)
    expect(unknown.body.error["developper-message"]).toBe("service.error")
    expect(unknown.ms).toBeLessThan(1_000)

    // Checked again and again through the outage, as a load balancer checks it (every 250 ms
    // here for 8 s): always 200 `degraded` within its check's time, or every replica would be
    // taken out while its searches are still answered.
    const slowest = { ms: 0 }
    for (const until = performance.now() + 8_000; performance.now() < until; ) {
      const health = await get("/health")
      expect(health.response.status).toBe(200)
      expect(health.body).toEqual({ status: "degraded", store: "unreachable" })
      slowest.ms = Math.max(slowest.ms, health.ms)
      await new Promise((r) => setTimeout(r, 250))
    }
    expect(slowest.ms).toBeLessThan(500)

    // A second later (the key cache's time), the key seen before still works.
    await new Promise((r) => setTimeout(r, 1_100))
    expect((await get(searchPath)).response.status).toBe(200)

    // A server cannot start without its store: it says so and exits, it does not hang.
    const t0 = performance.now()
    const started = spawnSync(process.execPath, [MAIN], {
      env: { ...process.env, PORT: "0", TRIPSEARCH_DB: cluster.url, QUERY_LOG: "off", MATCHER_THREADS: "1" },
      encoding: "utf8",
      timeout: 20_000
    })
    expect(started.status).toBe(1)
    expect(started.stderr).toMatch(/failed to start: PostgreSQL at 127\.0\.0\.1:\d+\/postgres cannot be reached: .*ECONNREFUSED/)
    expect(started.stderr).not.toMatch(/\n\s+at /)
    expect(performance.now() - t0).toBeLessThan(15_000)

    cluster.resume()

    // The index catches up through the change sequence: a trip committed after the restart.
    const fresh = JSON.stringify({ ...stored, id: "outage-fresh", departure_time: new Date(nowMs + 86_400_000).toISOString() })
    expect(await timeUntil(async () => (await importFeed(sql, [fresh]).catch(() => ({ ok: false }))).ok, Boolean)).toBeLessThan(5_000)
    const found = async () => ((await get(searchPath)).body.trips as Array<Json>).some((t) => t.permanent_id === "outage-fresh")
    expect(await timeUntil(found, Boolean)).toBeLessThan(1_500)
    expect((await get(`/api/v2/trips/outage-fresh?locale=fr_FR`)).response.status).toBe(200)
    expect((await get("/health")).body).toEqual({ status: "ok", store: "reachable", data_version: 101 })
    // The counts made while the database was down reach it with the others.
    const last = await get(searchPath)
    const served = 10_000 - Number(last.response.headers.get("x-ratelimit-remaining-day"))
    expect(served).toBeGreaterThan(5)
    expect(await timeUntil(async () => (await sql`SELECT count FROM key_usage WHERE key_id = ${seen.id}`)[0]?.count, (n) => n === served)).toBeLessThan(5_000)
    expect((await get(searchPath, unseen.key)).response.status).toBe(200)
  })
})
