import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { feedLines } from "@tripsearch/dataset"
import { type Exposition, readExposition, sampleOf, seriesOf } from "@tripsearch/http-express"
import { createKey, importFeed, makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const quiet = { info: () => {}, error: () => {} }
const config = (dbPath: string) => ({
  dbPath,
  publicBaseUrl: "https://api.metrics.test",
  websiteBaseUrl: "https://www.metrics.test",
  queryLogPath: undefined,
  productionDailyLimit: undefined
})

/** The store as a reader sees it: its active trips (and one of their ids) and its latest change sequence. */
const storeState = (dbPath: string): { readonly trips: number; readonly seq: number; readonly someId: string | undefined } => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    const store = makeSqliteTripStore(db)
    let trips = 0
    let someId: string | undefined
    const seq = Effect.runSync(
      store.scanIndex((record) => {
        trips++
        someId ??= record.id
      })
    )
    return { trips, seq, someId }
  } finally {
    db.close()
  }
}

/**
 * The server's metrics over its real pool and store: the counters move by exactly the requests
 * sent, the gauges report every worker's index, and the lag goes back to 0 once the workers have
 * applied a commit.
 */
describe("GET /metrics of the server", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-metrics-"))
  const dbPath = join(dir, "trips.db")
  const nowMs = Date.now()
  let api: ApiServer
  let base: string
  let key: string
  let smallKey: string

  beforeAll(async () => {
    key = (await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 150, nowMs })).demoKey!.key
    const db = openDatabase(dbPath)
    smallKey = createKey(db, { name: "small", tier: "production", dailyLimit: 1 }).key
    db.close()
    api = await createServer({ config: { ...config(dbPath), matcherThreads: 2, matcherMaxQueue: 16 }, logger: quiet })
    base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const scrape = async (): Promise<Exposition> => {
    const response = await fetch(`${base}/metrics`)
    expect(response.status).toBe(200)
    return readExposition(await response.text())
  }
  const status = async (path: string, headers: Record<string, string> = {}): Promise<number> => {
    const response = await fetch(`${base}${path}`, { headers })
    await response.arrayBuffer()
    return response.status
  }

  it("reports the pool and its one shared index, held by the main thread: as many trips as the store, no lag", async () => {
    const store = storeState(dbPath)
    const exposition = await scrape()
    expect(sampleOf(exposition, "tripsearch_pool_workers")).toBe(2)
    expect(sampleOf(exposition, "tripsearch_pool_queue_depth")).toBe(0)
    expect(sampleOf(exposition, "tripsearch_pool_busy_workers")).toBe(0)
    expect(sampleOf(exposition, "tripsearch_store_change_seq")).toBe(store.seq)
    // Two workers, one index: the writer's, in the main thread.
    expect(seriesOf(exposition, "tripsearch_index_trips")).toEqual(new Map([["holder=main", store.trips]]))
    expect([...seriesOf(exposition, "tripsearch_index_lag_changes").values()]).toEqual([0])
    expect(sampleOf(exposition, "process_resident_memory_bytes")).toBeGreaterThan(0)
  })

  it("counts searches, details, a 400 and a 429 by exactly the requests sent", async () => {
    const search = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&limit=1"
    const id = storeState(dbPath).someId!
    const before = await scrape()

    expect(await status(search, { key })).toBe(200)
    expect(await status(`${search}&_format=xml`, { key })).toBe(200)
    expect(await status(`/api/v2/trips/${encodeURIComponent(id)}?locale=fr_FR`, { key })).toBe(200)
    expect(await status("/api/v2/trips?locale=fr_FR&cur=GBP", { key })).toBe(400)
    expect(await status(search, { key: smallKey })).toBe(200)
    expect(await status(search, { key: smallKey })).toBe(429)
    const after = await scrape()

    const moved = (name: string) => {
      const was = seriesOf(before, name)
      return Object.fromEntries([...seriesOf(after, name)].flatMap(([labels, v]) => (v === (was.get(labels) ?? 0) ? [] : [[labels, v - (was.get(labels) ?? 0)]])))
    }
    expect(moved("tripsearch_http_requests_total")).toEqual({
      "format=json,route=search,status=200": 2,
      "format=xml,route=search,status=200": 1,
      "format=json,route=details,status=200": 1,
      "format=json,route=search,status=400": 1,
      "format=json,route=search,status=429": 1
    })
    expect(moved("tripsearch_quota_rejections_total")).toEqual({ "route=search": 1 })
    expect(moved("tripsearch_http_request_duration_seconds_count")).toEqual({ "route=search": 5, "route=details": 1 })
  })

  it("shows a commit's lag going back to 0 once the shared index has applied it, with the new trip counted", async () => {
    const before = storeState(dbPath)
    const [line] = [...feedLines({ trips: 1, seed: "metrics-lag", nowMs })]
    const db = openDatabase(dbPath)
    const result = await importFeed(db, [JSON.stringify({ ...JSON.parse(line!), id: "metrics-lag-1", status: "active" })])
    db.close()
    expect(result.ok).toBe(true)
    const after = storeState(dbPath)
    expect(after.seq).toBeGreaterThan(before.seq)
    expect(after.trips).toBe(before.trips + 1)

    const committed = performance.now()
    let exposition = await scrape()
    while (performance.now() - committed < 2000) {
      const lags = [...seriesOf(exposition, "tripsearch_index_lag_changes").values()]
      if (lags.length === 1 && lags[0] === 0) break
      await new Promise((r) => setTimeout(r, 20))
      exposition = await scrape()
    }
    expect(sampleOf(exposition, "tripsearch_store_change_seq")).toBe(after.seq)
    expect([...seriesOf(exposition, "tripsearch_index_lag_changes").values()]).toEqual([0])
    expect([...seriesOf(exposition, "tripsearch_index_applied_seq").values()]).toEqual([after.seq])
    expect([...seriesOf(exposition, "tripsearch_index_trips").values()]).toEqual([after.trips])
  })
})

describe("METRICS=off", () => {
  it("answers /metrics 404 resource.not_found, as any unknown path", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-metrics-off-"))
    const dbPath = join(dir, "trips.db")
    await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 20, nowMs: Date.now() })
    const api = await createServer({ config: { ...config(dbPath), matcherThreads: 1, matcherMaxQueue: 4, metrics: false }, logger: quiet })
    try {
      const { port } = await api.listen(0, "127.0.0.1")
      const response = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(response.status).toBe(404)
      expect(((await response.json()) as Json).error["developper-message"]).toBe("resource.not_found")
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
    } finally {
      await api.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
