import { request as httpRequest } from "node:http"
import {
  type ApiKey,
  InvalidParameter,
  type JsonObject,
  PlaceNotFound,
  type RawParams,
  type RequestContext,
  ServiceOverloaded,
  TripNotFound,
  suggestPlaces
} from "@tripsearch/core"
import { Effect, Layer, ManagedRuntime } from "effect"
import { XMLParser } from "fast-xml-parser"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { answerApiRequest, createApp, keyQuota, secondsToUtcMidnight, utcDay, type UseCases } from "../src/index.js"
import { listenStubbed, makeMemoryKeyStore, memorySink, type Running } from "./testServer.js"
import { stubPorts } from "./stubPorts.js"

// A fixed clock 90 s before a UTC midnight: the quota day and Retry-After are known.
const NOW = Date.UTC(2030, 4, 17, 23, 58, 30)
const DAY = utcDay(NOW)
const KEY = "basic-key-0123456789"
const OTHER_KEY = "other-key-9876543210"
const REVOKED_KEY = "revoked-key-000000000"

const keys: Record<string, ApiKey> = {
  [KEY]: { id: "k1", name: "test", tier: "basic", dailyLimit: 10_000, revoked: false },
  [OTHER_KEY]: { id: "k2", name: "other", tier: "production", dailyLimit: 5, revoked: false },
  [REVOKED_KEY]: { id: "k3", name: "revoked", tier: "basic", dailyLimit: 10_000, revoked: true }
}


const selfLink = (ctx: RequestContext) => `${ctx.apiBaseUrl}${ctx.path}${ctx.query ? `?${ctx.query}` : ""}`

const repeated = (params: RawParams) => Object.entries(params).find(([, v]) => Array.isArray(v))?.[0]

/** Use-cases standing for the core: each branch drives one adapter rule. */
const fakeUseCases: UseCases = {
  // The core's own: with no gazetteer provided, it suggests nothing.
  suggestPlaces,
  searchTrips: (params, ctx) => {
    const rep = repeated(params)
    if (rep !== undefined) return Effect.fail(new InvalidParameter({ parameter: rep, message: `${rep}: must be given at most once` }))
    if (params.locale === undefined) {
      return Effect.fail(new InvalidParameter({ parameter: "locale", message: "locale: is required, one of the 23 locales", missing: true }))
    }
    if (params.fn === "Nowhere") return Effect.fail(new PlaceNotFound({ parameter: "fn", text: "Nowhere" }))
    if (params.fn === "Busy") return Effect.fail(new ServiceOverloaded({ retryAfterSeconds: 2 }))
    if (params.fn === "Boom") return Effect.die(new Error("secret internal detail at /var/lib/db"))
    const body: JsonObject = {
      links: { _self: selfLink(ctx), _front: `${ctx.websiteBaseUrl}/search?${ctx.query}` },
      pager: { page: 1, pages: 1, total: 1, limit: 10 },
      trips: [
        {
          permanent_id: "t1",
          locations_to_display: ["Paris", "Lyon & <Co> \"quoted\""],
          viaggio_rosa: false,
          freeway: true,
          price: { value: 12.5, currency: "EUR", symbol: "€", string_value: "12,50 €" }
        }
      ],
      top_trips: [],
      facets: [{ name: "seats", type: "radio", items: [{ value: 1, count: 1, is_selected: false }] }],
      params_seen: Object.keys(params).sort().join(","),
      has_bus: false
    }
    return Effect.succeed(body)
  },
  tripDetails: (id, _params, ctx) =>
    id === "missing"
      ? Effect.fail(new TripNotFound({ id }))
      : Effect.succeed({ links: { _self: selfLink(ctx) }, permanent_id: id, is_passed: false, stop_overs: [] }),
  tripThreads: (id) => Effect.succeed({ permanent_id: id, threads: [{ id: "q1", question: "Pets?" }] })
}

const xmlParser = new XMLParser({ parseTagValue: false, isArray: (name) => ["trip", "facet", "item", "location", "thread"].includes(name) })

describe("createApp over a real listening server", () => {
  const memory = makeMemoryKeyStore(keys)
  const logs = memorySink()
  const queryLog = memorySink()
  const runtime = ManagedRuntime.make(Layer.merge(stubPorts(42), memory.layer))
  let running: Running

  beforeAll(async () => {
    const app = createApp({
      runtime,
      config: {
        apiBaseUrl: "https://api.test",
        websiteBaseUrl: "https://www.test",
        logger: {
          info: (entry) => void logs.write(JSON.stringify(entry)),
          error: (entry) => void logs.write(JSON.stringify(entry))
        },
        queryLog,
        now: () => NOW
      },
      useCases: fakeUseCases
    })
    running = await listenStubbed(app)
  })
  afterAll(async () => {
    await running.close()
    await runtime.dispose()
  })
  beforeEach(() => {
    memory.setUsage("k1", DAY, 0)
    memory.setUsage("k2", DAY, 0)
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${running.base}${path}`, { headers })
  const search = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon"

  const expectError = async (response: Response, status: number, token: string) => {
    expect(response.status).toBe(status)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8")
    const body = (await response.json()) as { error: Record<string, string> }
    expect(Object.keys(body)).toEqual(["error"])
    expect(Object.keys(body.error)).toEqual(["code", "developper-message", "message", "support-link"])
    expect(body.error.code).toBe(String(status))
    expect(body.error["developper-message"]).toBe(token)
    expect(body.error.message.length).toBeGreaterThan(0)
    expect(() => new URL(body.error["support-link"]!)).not.toThrow()
    return body.error
  }

  describe("keys and quotas", () => {
    it("answers 401 auth.missing_key without a key, with no rate headers and no count", async () => {
      const response = await get(search)
      await expectError(response, 401, "auth.missing_key")
      expect(response.headers.get("x-ratelimit-limit-day")).toBeNull()
    })

    it("treats an empty key as missing", async () => {
      await expectError(await get(`${search}&key=`), 401, "auth.missing_key")
    })

    it("answers 403 auth.invalid_key for an unknown or a revoked key", async () => {
      await expectError(await get(search, { key: "nope" }), 403, "auth.invalid_key")
      await expectError(await get(`${search}&key=${REVOKED_KEY}`), 403, "auth.invalid_key")
    })

    it("accepts the key as header or query; the header wins over the query", async () => {
      expect((await get(search, { key: KEY })).status).toBe(200)
      expect((await get(`${search}&key=${KEY}`)).status).toBe(200)
      expect((await get(`${search}&key=nope`, { key: KEY })).status).toBe(200)
      await expectError(await get(`${search}&key=${KEY}`, { key: "nope" }), 403, "auth.invalid_key")
    })

    it("counts 200s and carries the rate headers and the cache header", async () => {
      const first = await get(search, { key: KEY })
      expect(first.status).toBe(200)
      expect(first.headers.get("cache-control")).toBe("private, max-age=600")
      expect(first.headers.get("x-ratelimit-limit-day")).toBe("10000")
      expect(first.headers.get("x-ratelimit-remaining-day")).toBe("9999")
      const second = await get(search, { key: KEY })
      expect(second.headers.get("x-ratelimit-remaining-day")).toBe("9998")
      expect(memory.usageOf("k1", DAY)).toBe(2)
    })

    it("counts 404s (place and trip) but not 400s", async () => {
      const place = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Nowhere", { key: KEY })
      const placeError = await expectError(place, 404, "place.not_found")
      expect(placeError.message).toContain("Nowhere")
      expect(place.headers.get("x-ratelimit-remaining-day")).toBe("9999")
      await expectError(await get("/api/v2/trips/missing?locale=fr_FR", { key: KEY }), 404, "trip.not_found")
      const bad = await get("/api/v2/trips?cur=EUR", { key: KEY })
      await expectError(bad, 400, "parameter.missing")
      expect(bad.headers.get("x-ratelimit-limit-day")).toBe("10000")
      expect(bad.headers.get("x-ratelimit-remaining-day")).toBe("9998")
      expect(memory.usageOf("k1", DAY)).toBe(2)
    })

    it("answers 429 quota.exceeded with Retry-After to the next UTC midnight, uncounted", async () => {
      memory.setUsage("k2", DAY, 5)
      const response = await get(search, { key: OTHER_KEY })
      await expectError(response, 429, "quota.exceeded")
      expect(response.headers.get("retry-after")).toBe(String(secondsToUtcMidnight(NOW)))
      expect(response.headers.get("retry-after")).toBe("90")
      expect(response.headers.get("x-ratelimit-limit-day")).toBe("5")
      expect(response.headers.get("x-ratelimit-remaining-day")).toBe("0")
      expect(memory.usageOf("k2", DAY)).toBe(5)
    })

    it("lets the last request of the quota through, then refuses", async () => {
      memory.setUsage("k2", DAY, 4)
      const last = await get(search, { key: OTHER_KEY })
      expect(last.status).toBe(200)
      expect(last.headers.get("x-ratelimit-remaining-day")).toBe("0")
      expect((await get(search, { key: OTHER_KEY })).status).toBe(429)
    })
  })

  describe("errors", () => {
    it("maps ServiceOverloaded to 503 with Retry-After", async () => {
      const response = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Busy", { key: KEY })
      await expectError(response, 503, "service.overloaded")
      expect(response.headers.get("retry-after")).toBe("2")
      expect(memory.usageOf("k1", DAY)).toBe(0)
    })

    it("maps a defect to 500 service.error without internals, and logs it", async () => {
      const response = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Boom", { key: KEY })
      const error = await expectError(response, 500, "service.error")
      expect(JSON.stringify(error)).not.toContain("secret")
      expect(JSON.stringify(error)).not.toContain("/var/lib")
      expect(logs.lines.some((line) => line.includes("request_failed") && line.includes("secret internal detail"))).toBe(true)
    })

    it("answers a repeated parameter with the core's 400 (arrays reach the use-case)", async () => {
      const error = await expectError(await get(`${search}&seats=1&seats=2`, { key: KEY }), 400, "parameter.invalid")
      expect(error.message).toContain("seats")
    })

    it("answers malformed percent-encoding with 400, never 500", async () => {
      for (const path of ["/api/v2/trips?locale=fr_FR&fn=%ZZ", "/api/v2/trips?locale=fr_FR&fn=%E9", "/api/v2/trips?f%G1=1"]) {
        await expectError(await get(path, { key: KEY }), 400, "parameter.invalid")
      }
      await expectError(await get("/api/v2/trips/%ZZ?locale=fr_FR", { key: KEY }), 400, "parameter.invalid")
    })

    it("answers an unknown path with a 404 Error object", async () => {
      const error = await expectError(await get("/api/v3/trips", { key: KEY }), 404, "resource.not_found")
      expect(error.code).toBe("404")
    })

    it("answers other methods with 405 and Allow: GET, HEAD, OPTIONS", async () => {
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const response = await fetch(`${running.base}${search}`, { method, headers: { key: KEY } })
        expect(response.status, method).toBe(405)
        expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
        await expectError(response, 405, "method.not_allowed")
      }
    })

    it("answers a too long URL with 414", async () => {
      await expectError(await get(`${search}&fn=${"a".repeat(9000)}`, { key: KEY }), 414, "request.uri_too_long")
    })

    it("refuses a GET with a body with 413", async () => {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(`${running.base}${search}`, { method: "GET", headers: { key: KEY, "content-type": "text/plain", "content-length": "100000" } }, (res) => {
          let body = ""
          res.setEncoding("utf8")
          res.on("data", (chunk: string) => (body += chunk))
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
        })
        req.on("error", reject)
        req.end("x".repeat(100_000))
      })
      expect(status, body).toBe(413)
      expect(JSON.parse(body).error["developper-message"]).toBe("request.body_not_allowed")
    })
  })

  describe("formats", () => {
    it("answers an invalid or repeated _format with 400 in JSON, whatever Accept says", async () => {
      const invalid = await get(`${search}&_format=yaml`, { key: KEY, accept: "application/xml" })
      const error = await expectError(invalid, 400, "parameter.invalid")
      expect(error.message).toContain("_format")
      await expectError(await get(`${search}&_format=xml&_format=json`, { key: KEY }), 400, "parameter.invalid")
      expect(memory.usageOf("k1", DAY)).toBe(0)
    })

    it("checks the key before a bad _format or trip id encoding (a broken query string: a key in the header), as before any other bad parameter, and sends a keyed 400 its quota headers", async () => {
      for (const url of [`${search}&_format=yaml`, "/api/v2/trips/%ZZ?locale=fr_FR", "/api/v2/trips/%ZZ/threads?locale=fr_FR", `${search}&fn=Par%ZZis`]) {
        // A broken query string without a key in the header: its key, if any, cannot be read.
        if (url.includes("fn=Par%ZZ")) await expectError(await get(url), 400, "parameter.invalid")
        else await expectError(await get(url), 401, "auth.missing_key")
        await expectError(await get(url, { key: "not-a-key" }), 403, "auth.invalid_key")
        const keyed = await get(url, { key: KEY })
        const error = await expectError(keyed, 400, "parameter.invalid")
        expect(error.message, url).toMatch(url.includes("fn=Par%ZZ") ? /^fn: malformed percent-encoding in the query/ : url.includes("%ZZ") ? /^id: malformed percent-encoding/ : /^_format: /)
        expect(keyed.headers.get("x-ratelimit-limit-day"), url).not.toBeNull()
        expect(keyed.headers.get("x-ratelimit-remaining-day"), url).not.toBeNull()
      }
      expect(memory.usageOf("k1", DAY)).toBe(0)
    })

    it("chooses _format first, then Accept, default JSON", async () => {
      const cases: Array<[string, Record<string, string>, string]> = [
        [search, {}, "application/json; charset=utf-8"],
        [search, { accept: "application/xml" }, "application/xml; charset=utf-8"],
        [search, { accept: "text/xml" }, "application/xml; charset=utf-8"],
        [search, { accept: "application/json" }, "application/json; charset=utf-8"],
        [search, { accept: "*/*" }, "application/json; charset=utf-8"],
        [`${search}&_format=json`, { accept: "application/xml" }, "application/json; charset=utf-8"],
        [`${search}&_format=xml`, { accept: "application/json" }, "application/xml; charset=utf-8"]
      ]
      for (const [path, headers, type] of cases) {
        const response = await get(path, { key: KEY, ...headers })
        expect(response.status).toBe(200)
        expect(response.headers.get("content-type"), JSON.stringify(headers)).toBe(type)
      }
    })

    it("renders a search response as XML, root `response` and singular item names", async () => {
      const response = await get(`${search}&_format=xml`, { key: KEY })
      const text = await response.text()
      expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
      const doc = xmlParser.parse(text).response
      expect(Object.keys(doc)).toEqual(["links", "pager", "trips", "top_trips", "facets", "params_seen", "has_bus"])
      expect(doc.trips.trip).toHaveLength(1)
      expect(doc.trips.trip[0].locations_to_display.location).toEqual(["Paris", 'Lyon & <Co> "quoted"'])
      expect(doc.trips.trip[0].viaggio_rosa).toBe("false")
      expect(doc.trips.trip[0].freeway).toBe("true")
      expect(doc.trips.trip[0].price.value).toBe("12.5")
      expect(doc.top_trips).toBe("")
      expect(doc.facets.facet[0].items.item[0]).toEqual({ value: "1", count: "1", is_selected: "false" })
      expect(doc.has_bus).toBe("false")
    })

    it("renders errors as XML when XML is asked", async () => {
      const response = await get(`${search}&_format=xml`)
      expect(response.status).toBe(401)
      expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8")
      const doc = xmlParser.parse(await response.text()).response
      expect(doc.error.code).toBe("401")
      expect(doc.error["developper-message"]).toBe("auth.missing_key")
      expect(Object.keys(doc.error)).toEqual(["code", "developper-message", "message", "support-link"])
    })

    it("serves details and threads, in both formats", async () => {
      const details = await get("/api/v2/trips/t-1_0_2?locale=fr_FR", { key: KEY })
      expect(details.status).toBe(200)
      expect(((await details.json()) as JsonObject).permanent_id).toBe("t-1_0_2")
      const threads = await get("/api/v2/trips/t-1/threads?locale=fr_FR&_format=xml", { key: KEY })
      const doc = xmlParser.parse(await threads.text()).response
      expect(doc.threads.thread[0].question).toBe("Pets?")
    })
  })

  describe("answerApiRequest, the same answer without Express", () => {
    const targets = [
      search,
      `${search}&_format=xml`,
      `${search}&_format=yaml`,
      `${search}&seats=1&seats=2`,
      "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Nowhere&_format=xml",
      "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Busy",
      "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Boom",
      "/api/v2/trips?cur=EUR",
      "/api/v2/trips?locale=fr_FR&fn=%ZZ&_format=xml",
      "/API/V2/Trips/?locale=fr_FR&cur=EUR",
      "/api/v2/trips/t-1_0_2?locale=fr_FR",
      "/api/v2/trips/missing/?locale=fr_FR&_format=xml",
      "/api/v2/trips/t%201/threads?locale=fr_FR&_format=xml",
      "/api/v2/trips/%ZZ?locale=fr_FR",
      "/api/v2/trips//threads",
      "/api/v3/trips?_format=xml",
      "/health",
      `${search}&fn=${"a".repeat(9000)}`
    ]

    it("answers every request with the app's status, headers and body", async () => {
      const options = {
        apiBaseUrl: "https://api.test",
        websiteBaseUrl: "https://www.test",
        useCases: fakeUseCases,
        admission: keyQuota
      }
      for (const [i, target] of targets.entries()) {
        for (const headers of [{ key: KEY }, { key: KEY, accept: "application/xml" }, {}]) {
          const requestId = `same-${i}`
          // Each from the same quota usage: the rate headers must agree too.
          memory.setUsage("k1", DAY, 7)
          const response = await get(target, { ...headers, "x-request-id": requestId })
          memory.setUsage("k1", DAY, 7)
          const reply = await answerApiRequest(runtime, { method: "GET", url: target, headers }, options, { requestId, receivedAtMs: NOW })
          const label = `${target.slice(0, 80)} ${JSON.stringify(headers)}`
          expect(reply.status, label).toBe(response.status)
          expect(reply.body, label).toBe(await response.text())
          for (const [name, value] of Object.entries(reply.headers)) expect(response.headers.get(name), `${label} ${name}`).toBe(value)
        }
      }
    })

    it("without an admission, runs the use-case with no key and leaves the quota alone", async () => {
      const reply = await answerApiRequest(runtime, { method: "GET", url: `${search}&key=${KEY}&_format=xml`, headers: {} }, {
        apiBaseUrl: "https://api.test",
        websiteBaseUrl: "https://www.test",
        useCases: fakeUseCases
      })
      expect(reply.status).toBe(200)
      expect(reply.headers).toEqual({ "Cache-Control": "private, max-age=600", "Content-Type": "application/xml; charset=utf-8" })
      const doc = xmlParser.parse(reply.body).response
      expect(doc.params_seen).toBe("_format,cur,fn,locale,tn")
      expect(doc.links._self).toBe("https://api.test/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon&_format=xml")
      expect(memory.usageOf("k1", DAY)).toBe(0)
    })
  })

  describe("headers, links and logs", () => {
    it("sets security headers and a request id on every response", async () => {
      for (const response of [await get(search, { key: KEY }), await get(search), await get("/nowhere"), await get("/health")]) {
        expect(response.headers.get("x-content-type-options")).toBe("nosniff")
        expect(response.headers.get("x-frame-options")).toBe("DENY")
        expect(response.headers.get("referrer-policy")).toBe("no-referrer")
        expect(response.headers.get("x-powered-by")).toBeNull()
        expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      }
    })

    it("keeps a sane incoming request id and replaces an insane one", async () => {
      expect((await get(search, { "x-request-id": "abc-123" })).headers.get("x-request-id")).toBe("abc-123")
      const replaced = (await get(search, { "x-request-id": "<script>" })).headers.get("x-request-id")
      expect(replaced).not.toBe("<script>")
      expect(replaced).toMatch(/^[0-9a-f-]{36}$/)
    })

    it("never passes, echoes or logs the key; links use the configured base and the query as asked", async () => {
      logs.lines.length = 0
      queryLog.lines.length = 0
      const response = await get(`/api/v2/trips?locale=fr_FR&key=${KEY}&cur=EUR&fn=Saint%20%C3%89tienne`, { "x-request-id": "req-links" })
      expect(response.status).toBe(200)
      const body = (await response.json()) as { links: { _self: string }; params_seen: string }
      expect(body.links._self).toBe("https://api.test/api/v2/trips?locale=fr_FR&cur=EUR&fn=Saint%20%C3%89tienne")
      expect(body.params_seen).toBe("cur,fn,locale")
      const all = logs.lines.join("\n") + queryLog.lines.join("\n")
      expect(all).not.toContain(KEY)
      const requestLine = logs.lines.map((l) => JSON.parse(l)).find((e) => e.request_id === "req-links")
      expect(requestLine).toMatchObject({ method: "GET", path: "/api/v2/trips", status: 200 })
      expect(typeof requestLine.duration_ms).toBe("number")
      expect(queryLog.lines).toHaveLength(1)
      const entry = JSON.parse(queryLog.lines[0]!)
      expect(Object.keys(entry)).toEqual(["time", "path", "query", "status", "duration_ms"])
      expect(entry).toMatchObject({ time: new Date(NOW).toISOString(), path: "/api/v2/trips", query: "locale=fr_FR&cur=EUR&fn=Saint%20%C3%89tienne", status: 200 })
    })

    it("writes error requests to the query log too, and nothing for /health", async () => {
      queryLog.lines.length = 0
      await get(search)
      await get("/health")
      expect(queryLog.lines.map((l) => JSON.parse(l).status)).toEqual([401])
    })

    it("answers /health without a key, with the data version", async () => {
      const response = await get("/health")
      expect(response.status).toBe(200)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(await response.json()).toEqual({ status: "ok", store: "reachable", data_version: 42 })
    })
  })
})
