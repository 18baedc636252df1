import { type ApiKey, InvalidParameter, TripNotFound, suggestPlaces } from "@tripsearch/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiMetrics, createApp, type IndexState, readExposition, sampleOf, seriesOf, type UseCases } from "../src/index.js"
import { listenStubbed, makeMemoryKeyStore, type Running } from "./testServer.js"
import { stubPorts } from "./stubPorts.js"

const KEY = "metrics-key-0123456789"
const SMALL_KEY = "small-key-0123456789"
const keys: Record<string, ApiKey> = {
  [KEY]: { id: "k1", name: "metrics", tier: "basic", dailyLimit: 10_000, revoked: false },
  [SMALL_KEY]: { id: "k2", name: "small", tier: "basic", dailyLimit: 1, revoked: false }
}


const useCases: UseCases = {
  // The core's own: with no gazetteer provided, it suggests nothing.
  suggestPlaces,
  searchTrips: (params) =>
    params.fn === "Slow"
      ? Effect.never
      : params.locale === undefined
      ? Effect.fail(new InvalidParameter({ parameter: "locale", message: "locale: is required", missing: true }))
      : Effect.succeed({ trips: [], pager: { page: 1, pages: 0, total: 0, limit: 10 } }),
  tripDetails: (id) => (id === "missing" ? Effect.fail(new TripNotFound({ id })) : Effect.succeed({ permanent_id: id })),
  tripThreads: (id) => Effect.succeed({ permanent_id: id, threads: [] })
}

const quiet = { info: () => {}, error: () => {} }

describe("GET /metrics over a real listening server", () => {
  const memory = makeMemoryKeyStore(keys)
  const runtime = ManagedRuntime.make(Layer.merge(stubPorts(0), memory.layer))
  // What the server would read from its pool, its workers and its store: set by the tests.
  let storeSeq = 0
  let indexes: Array<IndexState> = []
  const metrics = new ApiMetrics({
    sources: {
      pool: () => ({ queueDepth: 3, busyWorkers: 1, workers: 2 }),
      indexes: () => indexes,
      storeSeq: async () => storeSeq
    }
  })
  let running: Running
  let other: Running
  let off: Running

  const app = (withMetrics: ApiMetrics | undefined) =>
    createApp({ runtime, metrics: withMetrics, useCases, config: { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", logger: quiet } })

  beforeAll(async () => {
    running = await listenStubbed(app(metrics))
    // A second app in the same process, with its own registry.
    other = await listenStubbed(app(new ApiMetrics()))
    off = await listenStubbed(app(undefined))
  })
  afterAll(async () => {
    await running.close()
    await other.close()
    await off.close()
    await runtime.dispose()
  })

  const scrape = async (base = running.base) => {
    const response = await fetch(`${base}/metrics`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
    return readExposition(await response.text())
  }
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${running.base}${path}`, { headers }).then(async (r) => {
    await r.arrayBuffer()
    return r.status
  })

  it("counts each request by route, status and format, its latency by route, and 429s, by exactly what was sent", async () => {
    const before = await scrape()
    const search = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris"
    expect(await get(search, { key: KEY })).toBe(200)
    expect(await get(search, { key: KEY })).toBe(200)
    expect(await get(`${search}&_format=xml`, { key: KEY })).toBe(200)
    expect(await get("/api/v2/trips?cur=EUR", { key: KEY })).toBe(400)
    expect(await get("/api/v2/trips/t1?locale=fr_FR", { key: KEY })).toBe(200)
    expect(await get("/api/v2/trips/missing?locale=fr_FR", { key: KEY, accept: "application/xml" })).toBe(404)
    expect(await get(search, { key: SMALL_KEY })).toBe(200)
    expect(await get(search, { key: SMALL_KEY })).toBe(429)
    expect(await get("/api/v2/trips/t1?locale=fr_FR", { key: SMALL_KEY })).toBe(429)
    expect(await get(search)).toBe(401)
    expect(await get("/api/v2/trips/t1/threads?locale=fr_FR", { key: KEY })).toBe(200)
    expect(await get("/health")).toBe(200)
    expect(await get("/nowhere")).toBe(404)
    const after = await scrape()

    const delta = (name: string) => {
      const was = seriesOf(before, name)
      const moved = new Map<string, number>()
      for (const [labels, value] of seriesOf(after, name)) if (value !== (was.get(labels) ?? 0)) moved.set(labels, value - (was.get(labels) ?? 0))
      return Object.fromEntries(moved)
    }
    expect(delta("tripsearch_http_requests_total")).toEqual({
      "format=json,route=search,status=200": 3,
      "format=xml,route=search,status=200": 1,
      "format=json,route=search,status=400": 1,
      "format=json,route=search,status=401": 1,
      "format=json,route=search,status=429": 1,
      "format=json,route=details,status=200": 1,
      "format=xml,route=details,status=404": 1,
      "format=json,route=details,status=429": 1,
      "format=json,route=other,status=200": 2,
      "format=json,route=other,status=404": 1
    })
    expect(delta("tripsearch_quota_rejections_total")).toEqual({ "route=search": 1, "route=details": 1 })
    expect(delta("tripsearch_http_request_duration_seconds_count")).toEqual({ "route=search": 7, "route=details": 3, "route=other": 3 })
    // Every request falls in the +Inf bucket, and took some time.
    expect(delta("tripsearch_http_request_duration_seconds_bucket")["le=+Inf,route=search"]).toBe(7)
    expect(Object.keys(delta("tripsearch_http_request_duration_seconds_sum")).sort()).toEqual(["route=details", "route=other", "route=search"])

    expect(seriesOf(before, "tripsearch_quota_rejections_total")).toEqual(new Map([["route=search", 0], ["route=details", 0], ["route=other", 0]]))
    expect(after.types.get("tripsearch_http_requests_total")).toBe("counter")
    expect(after.types.get("tripsearch_http_request_duration_seconds")).toBe("histogram")
    // The other app counted none of these: each app has its own registry.
    expect(seriesOf(await scrape(other.base), "tripsearch_http_requests_total").size).toBe(0)
  })

  it("counts a request whose client left before its answer as status aborted", async () => {
    const before = seriesOf(await scrape(), "tripsearch_http_requests_total").get("format=json,route=search,status=aborted") ?? 0
    const client = new AbortController()
    const asked = fetch(`${running.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Slow`, { headers: { key: KEY }, signal: client.signal })
    await new Promise((r) => setTimeout(r, 100))
    client.abort()
    await expect(asked).rejects.toThrow()
    let after = before
    for (let k = 0; k < 50 && after === before; k++) {
      await new Promise((r) => setTimeout(r, 20))
      after = seriesOf(await scrape(), "tripsearch_http_requests_total").get("format=json,route=search,status=aborted") ?? 0
    }
    expect(after - before).toBe(1)
  })

  it("does not count scrapes, needs no key, answers HEAD as GET without a body, and other methods 405 as any path", async () => {
    const first = await scrape()
    await scrape()
    const last = await scrape()
    expect(seriesOf(last, "tripsearch_http_requests_total")).toEqual(seriesOf(first, "tripsearch_http_requests_total"))
    const head = await fetch(`${running.base}/metrics`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toMatch(/^text\/plain/)
    expect(await head.text()).toBe("")
    const post = await fetch(`${running.base}/metrics`, { method: "POST" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
    // Outside the API: no OPTIONS of its own (docs/METRICS.md).
    expect((await fetch(`${running.base}/metrics`, { method: "OPTIONS" })).status).toBe(404)
  })

  it("reads the pool, the indexes and the store at each scrape: lag is the store's sequence minus the index's", async () => {
    storeSeq = 40
    indexes = [
      { holder: "1", trips: 300, appliedSeq: 40 },
      { holder: "2", trips: 299, appliedSeq: 37 }
    ]
    let exposition = await scrape()
    expect(sampleOf(exposition, "tripsearch_pool_queue_depth")).toBe(3)
    expect(sampleOf(exposition, "tripsearch_pool_busy_workers")).toBe(1)
    expect(sampleOf(exposition, "tripsearch_pool_workers")).toBe(2)
    expect(sampleOf(exposition, "tripsearch_store_change_seq")).toBe(40)
    expect(seriesOf(exposition, "tripsearch_index_trips")).toEqual(new Map([["holder=1", 300], ["holder=2", 299]]))
    expect(seriesOf(exposition, "tripsearch_index_applied_seq")).toEqual(new Map([["holder=1", 40], ["holder=2", 37]]))
    expect(seriesOf(exposition, "tripsearch_index_lag_changes")).toEqual(new Map([["holder=1", 0], ["holder=2", 3]]))

    // Worker 2 catches up and worker 1 is replaced by worker 3: the gone holder leaves the gauges.
    indexes = [
      { holder: "2", trips: 301, appliedSeq: 41 },
      { holder: "3", trips: 301, appliedSeq: 41 }
    ]
    storeSeq = 41
    exposition = await scrape()
    expect(seriesOf(exposition, "tripsearch_index_trips")).toEqual(new Map([["holder=2", 301], ["holder=3", 301]]))
    expect(seriesOf(exposition, "tripsearch_index_lag_changes")).toEqual(new Map([["holder=2", 0], ["holder=3", 0]]))
  })

  it("carries Node's process metrics in the app's registry", async () => {
    const exposition = await scrape()
    expect(sampleOf(exposition, "process_cpu_user_seconds_total")).toBeGreaterThan(0)
    expect(sampleOf(exposition, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0)
    expect(exposition.types.get("nodejs_eventloop_lag_seconds")).toBe("gauge")
  })

  it("answers /metrics 404 resource.not_found without metrics, as any unknown path", async () => {
    const response = await fetch(`${off.base}/metrics`)
    expect(response.status).toBe(404)
    expect(((await response.json()) as { error: Record<string, string> }).error["developper-message"]).toBe("resource.not_found")
  })
})
