import { DEFAULT_RATES, type ApiKey, type JsonObject, PlaceResolver, TripMatcher, TripStore } from "@tripsearch/core"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../src/index.js"
import { listen, makeMemoryKeyStore, type Running } from "./testServer.js"

const KEY = "basic-key-0123456789"
const keys: Record<string, ApiKey> = { [KEY]: { id: "k1", name: "test", tier: "basic", dailyLimit: 10_000, revoked: false } }

const ports = Layer.mergeAll(
  Layer.succeed(TripStore, {
    getTrip: () => Effect.succeed(Option.none()),
    getTrips: () => Effect.succeed(new Map()),
    scanIndex: () => Effect.succeed(0),
    identity: Effect.succeed("test"),
    changesSince: () => Effect.succeed({ seq: 1, upserts: [], removed: [] }),
    rates: Effect.succeed(DEFAULT_RATES)
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
    server = await listen(
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
