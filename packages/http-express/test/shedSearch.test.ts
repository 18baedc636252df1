import { Agent, request as httpRequest } from "node:http"
import { DEFAULT_RATES, type ApiKey, type JsonObject, PlaceResolver, TripMatcher, TripStore } from "@tripsearch/core"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiMetrics, createApp, createRequestListener, readExposition, seriesOf } from "../src/index.js"
import { stubPorts } from "./stubPorts.js"
import { listenStubbed, makeMemoryKeyStore, memorySink, type Running } from "./testServer.js"

const KEY = "basic-key-0123456789"
const keys: Record<string, ApiKey> = { [KEY]: { id: "k1", name: "test", tier: "basic", dailyLimit: 10_000, revoked: false } }

const ports = Layer.mergeAll(
  Layer.succeed(TripStore, {
    getTrip: () => Effect.succeed(Option.none()),
    getTrips: () => Effect.succeed(new Map()),
    scanIndex: () => Effect.succeed(0),
    identity: Effect.succeed("test"),
    changesSince: () => Effect.succeed({ seq: 1, upserts: [], removed: [] }),
    rates: Effect.succeed(DEFAULT_RATES),
      meetingPoints: () => Effect.succeed(new Map()),
      meetingPointsVersion: Effect.succeed("0"),
      meetingPointsSince: () => Effect.succeed([])
  }),
  Layer.succeed(PlaceResolver, { resolve: () => Effect.succeed(Option.none()) }),
  Layer.succeed(TripMatcher, { match: () => Effect.dieMessage("no matcher in this test") })
)

describe("shedSearch: searches refused before the key is looked up, on a listening server", () => {
  const memory = makeMemoryKeyStore(keys)
  const runtime = ManagedRuntime.make(Layer.merge(ports, memory.layer))
  let shedding = true
  const asked: Array<string> = []
  let searches = 0
  let server: Running
  beforeAll(async () => {
    server = await listenStubbed(
      createApp({
        runtime,
        config: { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", logger: { info: () => {}, error: () => {} } },
        useCases: {
          searchTrips: () =>
            Effect.sync(() => {
              searches++
              return { pager: { total: 0 } } as JsonObject
            })
        },
        shedSearch: (key) => {
          asked.push(key)
          return shedding
        }
      })
    )
  })
  afterAll(async () => {
    await server.close()
    await runtime.dispose()
  })

  it("answers 503 service.overloaded with Retry-After, whatever the key, and runs nothing", async () => {
    for (const headers of [{ key: KEY }, { key: "no-such-key" }, {}] as Array<Record<string, string>>) {
      const res = await fetch(`${server.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris`, { headers })
      expect(res.status).toBe(503)
      expect(res.headers.get("retry-after")).toBe("1")
      const body = (await res.json()) as { error: { code: string } } | { code: string }
      expect(JSON.stringify(body)).toContain("service.overloaded")
    }
    // The key is asked as sent (empty when none), and not checked: an unknown key is refused 503, not 403.
    expect(asked).toEqual([KEY, "no-such-key", ""])
    expect(searches).toBe(0)
    expect(memory.usageOf("k1", new Date().toISOString().slice(0, 10))).toBe(0)
  })

  it("lets the search through when the pool admits it", async () => {
    shedding = false
    const res = await fetch(`${server.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris`, { headers: { key: KEY } })
    expect(res.status).toBe(200)
    expect(searches).toBe(1)
  })
})

describe("refusalHoldMs: a connection whose search was refused is not read for a while, on a listening server", () => {
  const HOLD_MS = 300
  const memory = makeMemoryKeyStore(keys)
  const runtime = ManagedRuntime.make(Layer.merge(ports, memory.layer))
  let refuse = true
  let server: Running
  beforeAll(async () => {
    const { listener } = createRequestListener({
      runtime,
      config: { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", logger: { info: () => {}, error: () => {} } },
      useCases: { searchTrips: () => Effect.succeed({ pager: { total: 0 } } as JsonObject) },
      shedSearch: () => refuse,
      refusalHoldMs: HOLD_MS
    })
    server = await listenStubbed(listener)
  })
  afterAll(async () => {
    await server.close()
    await runtime.dispose()
  })

  /** A search on `agent`'s connection: its status, whether the connection was reused, when it ended. */
  const search = (agent: Agent | false) =>
    new Promise<{ status: number; reused: boolean; endedAt: number }>((resolve, reject) => {
      const req = httpRequest(`${server.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris`, { headers: { key: KEY }, agent }, (res) => {
        res.resume()
        res.on("end", () => resolve({ status: res.statusCode!, reused: req.reusedSocket, endedAt: performance.now() }))
        res.on("error", reject)
      })
      req.on("error", reject)
      req.end()
    })
  const oneConnection = () => new Agent({ keepAlive: true, maxSockets: 1 })
  /** Two searches one after the other on one keep-alive connection: their statuses, and the ms between their ends. */
  const twoOnOneConnection = async () => {
    const agent = oneConnection()
    const first = await search(agent)
    const second = await search(agent)
    agent.destroy()
    expect(second.reused).toBe(true)
    return { statuses: [first.status, second.status], gapMs: second.endedAt - first.endedAt }
  }

  it("answers the next request on that connection no sooner than the hold", async () => {
    refuse = true
    const { statuses, gapMs } = await twoOnOneConnection()
    expect(statuses).toEqual([503, 503])
    // Timers may fire a millisecond early; nothing else answers in between.
    expect(gapMs).toBeGreaterThanOrEqual(HOLD_MS - 5)
  })

  it("holds no other connection, and no connection whose search was served", async () => {
    refuse = true
    const held = oneConnection()
    const refused = await search(held)
    const other = await search(false)
    expect([refused.status, other.status]).toEqual([503, 503])
    expect(other.endedAt - refused.endedAt).toBeLessThan(HOLD_MS / 2)
    held.destroy()

    refuse = false
    const { statuses, gapMs } = await twoOnOneConnection()
    expect(statuses).toEqual([200, 200])
    expect(gapMs).toBeLessThan(HOLD_MS / 2)
  })
})

/** One exchange on its own connection: the status, the headers in the order and case received, the body. */
const exchange = (base: string, method: string, path: string, headers: Record<string, string>) =>
  new Promise<{ status: number; headers: Array<string>; body: string }>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        // The date is the one header that may differ between two answers a second apart.
        const raw = res.rawHeaders.flatMap((v, i, all) => (i % 2 === 0 && v.toLowerCase() !== "date" ? [`${v}: ${all[i + 1]}`] : []))
        resolve({ status: res.statusCode!, headers: raw, body: Buffer.concat(chunks).toString("latin1") })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

describe("createRequestListener: searches answered before Express, on listening servers", () => {
  const memory = makeMemoryKeyStore(keys)
  const runtime = ManagedRuntime.make(Layer.merge(stubPorts(1), memory.layer))
  let refuse = true
  let shedCalls = 0
  let searches = 0
  /** The same app twice, each with its own logs and metrics: once as Express alone, once behind the listener. */
  const build = (behind: "app" | "listener") => {
    const logs = memorySink()
    const queryLog = memorySink()
    const metrics = new ApiMetrics({ processMetrics: false })
    const built = createRequestListener({
      runtime,
      metrics,
      config: {
        apiBaseUrl: "https://api.test",
        websiteBaseUrl: "https://www.test",
        logger: { info: (entry) => void logs.write(JSON.stringify(entry)), error: (entry) => void logs.write(JSON.stringify(entry)) },
        queryLog,
        corsOrigins: ["https://app.test"],
        now: () => Date.UTC(2030, 4, 17, 12, 0, 0)
      },
      useCases: {
        searchTrips: (params) =>
          Effect.suspend(() => {
            searches++
            return params.fn === "Boom" ? Effect.die(new Error("boom")) : Effect.succeed({ pager: { total: 0 }, fn: String(params.fn) } as JsonObject)
          })
      },
      shedSearch: () => {
        shedCalls++
        return refuse
      }
    })
    return { logs, queryLog, metrics, handler: behind === "app" ? built.app : built.listener }
  }
  const sides = { app: build("app"), listener: build("listener") }
  const running: Partial<Record<keyof typeof sides, Running>> = {}
  beforeAll(async () => {
    running.app = await listenStubbed(sides.app.handler)
    running.listener = await listenStubbed(sides.listener.handler)
  })
  afterAll(async () => {
    await running.app!.close()
    await running.listener!.close()
    await runtime.dispose()
  })

  /** The log lines a request left, without the time it took (the one thing that differs). */
  const linesOf = (sink: { lines: Array<string> }) =>
    sink.lines.splice(0).map((line) => {
      const { duration_ms: _, ...rest } = JSON.parse(line) as Record<string, unknown>
      return rest
    })
  const requestsCounted = async (metrics: ApiMetrics) => seriesOf(readExposition((await metrics.scrape()).body), "tripsearch_http_requests_total")

  /** One request to one side: what the client got, what was logged and counted, how often `shedSearch` was asked. */
  const on = async (side: keyof typeof sides, method: string, path: string, headers: Record<string, string>) => {
    const { logs, queryLog, metrics } = sides[side]
    // The two sides share the key store: each starts from the same quota.
    memory.setUsage("k1", "2030-05-17", 0)
    shedCalls = 0
    logs.lines.length = 0
    queryLog.lines.length = 0
    const counted = await requestsCounted(metrics)
    const answer = await exchange(running[side]!.base, method, path, { ...headers, "x-request-id": "same-id" })
    // Logged once the response is finished: give the 'finish' event its turn.
    await new Promise((r) => setTimeout(r, 20))
    const after = await requestsCounted(metrics)
    return {
      answer,
      log: linesOf(logs),
      queryLog: linesOf(queryLog),
      counted: [...after].filter(([series, n]) => n !== (counted.get(series) ?? 0)).map(([series, n]) => [series, n - (counted.get(series) ?? 0)]),
      shedCalls
    }
  }

  const refusals: ReadonlyArray<readonly [string, string, string, Record<string, string>]> = [
    ["JSON by default", "GET", "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris", { key: KEY }],
    ["XML by _format", "GET", "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&_format=xml", { key: KEY }],
    ["XML by Accept, compression asked, a listed origin", "GET", "/api/v2/trips?locale=fr_FR&fn=Paris", { key: KEY, accept: "application/xml", "accept-encoding": "gzip, br", origin: "https://app.test" }],
    ["HEAD, an origin not listed", "HEAD", "/api/v2/trips?locale=fr_FR&fn=Paris", { key: KEY, origin: "https://evil.test" }],
    ["the key and a misspelt one in the query, the route's other spelling", "GET", `/API/v2/Trips/?key=${KEY}&api_Key=${KEY}&locale=fr_FR`, {}]
  ]

  it.each(refusals)("refuses a search (%s) exactly as the app, logs and counts included, asking shedSearch once", async (_, method, path, headers) => {
    refuse = true
    const app = await on("app", method, path, headers)
    const listener = await on("listener", method, path, headers)
    expect(app.answer.status).toBe(503)
    expect(app.answer.headers).toContain("Retry-After: 1")
    expect(listener).toEqual(app)
    expect(listener.log).toHaveLength(1)
    expect(listener.queryLog).toHaveLength(1)
    expect(listener.counted).toHaveLength(1)
    expect(listener.shedCalls).toBe(1)
    expect(JSON.stringify(listener)).not.toContain(KEY)
    expect(searches).toBe(0)
  })

  const others: ReadonlyArray<readonly [string, string, string, Record<string, string>]> = [
    ["a search served", "GET", "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris", { key: KEY, "accept-encoding": "gzip" }],
    ["a search served in XML, to HEAD", "HEAD", "/api/v2/trips?locale=fr_FR&fn=Lyon&_format=xml", { key: KEY }],
    ["a search whose use-case dies (500)", "GET", "/api/v2/trips?locale=fr_FR&fn=Boom", { key: KEY }],
    ["no key (401)", "GET", "/api/v2/trips?locale=fr_FR", {}],
    ["an unknown key (403)", "GET", "/api/v2/trips?locale=fr_FR", { key: "no-such-key" }],
    ["a malformed query (400)", "GET", "/api/v2/trips?locale=%E0%A4", { key: KEY }],
    ["an unknown _format (400)", "GET", "/api/v2/trips?locale=fr_FR&_format=csv", { key: KEY }],
    ["a trip's details (through Express)", "GET", "/api/v2/trips/t1", { key: KEY }],
    ["the health route (through Express)", "GET", "/health", {}]
  ]

  it.each(others)("answers %s exactly as the app", async (_, method, path, headers) => {
    refuse = false
    const app = await on("app", method, path, headers)
    const listener = await on("listener", method, path, headers)
    expect(listener).toEqual(app)
    expect(listener.log.length).toBeGreaterThan(0)
  })

  it("hands every other request to what stands in front of the app, when told (listenerBefore)", async () => {
    const handed: Array<string> = []
    const built = createRequestListener({
      runtime,
      config: { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", logger: { info: () => {}, error: () => {} } },
      useCases: { searchTrips: () => Effect.succeed({ pager: { total: 0 } } as JsonObject) }
    })
    const front = await listenStubbed(
      built.listenerBefore((req, res) => {
        handed.push(`${req.method} ${req.url}`)
        built.app(req, res)
      })
    )
    try {
      refuse = false
      expect((await exchange(front.base, "GET", "/api/v2/trips?locale=fr_FR&fn=Paris", { key: KEY })).status).toBe(200)
      expect((await exchange(front.base, "GET", "/health", {})).status).toBe(200)
      expect((await exchange(front.base, "OPTIONS", "/api/v2/trips", {})).status).toBe(204)
      expect(handed).toEqual(["GET /health", "OPTIONS /api/v2/trips"])
    } finally {
      await front.close()
    }
  })

  it("counts an admitted search once, and runs it", async () => {
    refuse = false
    const before = searches
    const served = await on("listener", "GET", "/api/v2/trips?locale=fr_FR&fn=Paris", { key: KEY })
    expect(served.answer.status).toBe(200)
    expect(JSON.parse(served.answer.body)).toEqual({ pager: { total: 0 }, fn: "Paris" })
    expect(searches - before).toBe(1)
    expect(served.shedCalls).toBe(1)
  })
})
