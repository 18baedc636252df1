import { request as httpRequest } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { type ApiKey, InvalidParameter, type JsonObject, TripNotFound, suggestPlaces } from "@tripsearch/core"
import { checkNodeAnswer } from "@tripsearch/openapi-contract"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { COMPRESSION_MIN_BYTES, createApp, type CorsOrigins, utcDay, type UseCases } from "../src/index.js"
import { listenStubbed, makeMemoryKeyStore, memorySink, type Running } from "./testServer.js"
import { stubPorts } from "./stubPorts.js"

const NOW = Date.UTC(2030, 4, 17, 12, 0, 0)
const DAY = utcDay(NOW)
const KEY = "edge-key-0123456789"
const keys: Record<string, ApiKey> = { [KEY]: { id: "k1", name: "edge", tier: "basic", dailyLimit: 10_000, revoked: false } }
const PARTNER = "https://partner.example"
const STRANGER = "https://stranger.example"


const trip = (i: number): JsonObject => ({
  permanent_id: `trip-${i}`,
  departure_date: `2${i % 10}/11/2030 14:55:00`,
  departure_place: { city_name: "Brétigny-sur-Orge", latitude: 48.61135 + i / 1000, longitude: 2.30593, country_code: "FR" },
  arrival_place: { city_name: "Lyon", latitude: 45.74846, longitude: 4.84671, country_code: "FR" },
  price: { value: 30 + i, currency: "EUR", symbol: "€", string_value: `${30 + i},00 €` }
})

/** `fn=Big` (30 trips) and trip `big` are over the compression threshold; the rest are small. */
const useCases: UseCases = {
  // The core's own: with no gazetteer provided, it suggests nothing.
  suggestPlaces,
  searchTrips: (params) =>
    Object.values(params).some(Array.isArray)
      ? Effect.fail(new InvalidParameter({ parameter: "page", message: "page: must be given at most once" }))
      : Effect.succeed({ pager: { page: 1, pages: 1, total: 1, limit: 10 }, trips: Array.from({ length: params.fn === "Big" ? 30 : 1 }, (_, i) => trip(i)) }),
  tripDetails: (id) =>
    id === "missing"
      ? Effect.fail(new TripNotFound({ id }))
      : Effect.succeed({ ...trip(0), permanent_id: id, stop_overs: Array.from({ length: id === "big" ? 12 : 0 }, (_, i) => trip(i)) }),
  tripThreads: (id) => Effect.succeed({ permanent_id: id, threads: [] })
}

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

/** One request with Node's client, which neither adds `Accept-Encoding` nor decompresses. */
const raw = (base: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base)
    // The path as given, even `*` (the asterisk form of OPTIONS).
    const req = httpRequest({ host: hostname, port, method, path, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const body = Buffer.concat(chunks)
        try {
          checkNodeAnswer(method, path === "*" ? path : `${base}${path}`, res.statusCode ?? 0, res.headers, body)
        } catch (error) {
          reject(error)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const decoded = (reply: Raw): string => {
  const coding = reply.headers["content-encoding"]
  return (coding === "br" ? brotliDecompressSync(reply.body) : coding === "gzip" ? gunzipSync(reply.body) : reply.body).toString("utf8")
}

/** Headers that must agree between two answers to the same request (Date may tick between them). */
const comparable = (headers: Raw["headers"]) => Object.fromEntries(Object.entries(headers).filter(([name]) => name !== "date"))

describe("CORS, HEAD, OPTIONS and compression over a real listening server", () => {
  const memory = makeMemoryKeyStore(keys)
  const queryLog = memorySink()
  const runtime = ManagedRuntime.make(Layer.merge(stubPorts(7), memory.layer))
  const servers: Array<Running> = []
  let open: Running
  let listed: Running

  const start = async (corsOrigins: CorsOrigins | undefined) => {
    const app = createApp({
      runtime,
      useCases,
      config: {
        apiBaseUrl: "https://api.test",
        websiteBaseUrl: "https://www.test",
        logger: { info: () => {}, error: () => {} },
        queryLog,
        now: () => NOW,
        corsOrigins
      }
    })
    const running = await listenStubbed(app)
    servers.push(running)
    return running
  }

  beforeAll(async () => {
    open = await start(undefined)
    listed = await start([PARTNER, "http://localhost:8080"])
  })
  afterAll(async () => {
    for (const s of servers) await s.close()
    await runtime.dispose()
  })
  beforeEach(() => {
    memory.setUsage("k1", DAY, 0)
    queryLog.lines.length = 0
  })

  const search = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris"
  const bigSearch = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Big"
  const preflight = (origin: string) => ({ origin, "access-control-request-method": "GET", "access-control-request-headers": "key, accept" })

  describe("CORS and OPTIONS", () => {
    it("answers a preflight from a foreign origin with 204, the methods and headers allowed, without key or quota", async () => {
      for (const path of [search, "/api/v2/trips/t1?locale=fr_FR", "/api/v2/trips/t1/threads", "/health"]) {
        const reply = await raw(open.base, "OPTIONS", path, preflight(STRANGER))
        expect(reply.status, path).toBe(204)
        expect(reply.body.length).toBe(0)
        expect(reply.headers["access-control-allow-origin"]).toBe("*")
        expect(reply.headers["access-control-allow-methods"]).toBe("GET, HEAD")
        const allowed = String(reply.headers["access-control-allow-headers"]).toLowerCase().split(/\s*,\s*/)
        expect(allowed).toEqual(expect.arrayContaining(["key", "accept"]))
        expect(Number(reply.headers["access-control-max-age"])).toBeGreaterThan(0)
        expect(reply.headers["x-ratelimit-remaining-day"]).toBeUndefined()
      }
      expect(memory.usageOf("k1", DAY)).toBe(0)
      // With a key it is no more counted: a preflight never reaches the quota.
      expect((await raw(open.base, "OPTIONS", search, { ...preflight(STRANGER), key: KEY })).status).toBe(204)
      expect(memory.usageOf("k1", DAY)).toBe(0)
      expect(queryLog.lines).toEqual([])
    })

    it("answers a plain OPTIONS with 204 and Allow, and an unknown path with 404", async () => {
      const plain = await raw(open.base, "OPTIONS", search, { origin: STRANGER })
      expect(plain.status).toBe(204)
      expect(plain.headers.allow).toBe("GET, HEAD, OPTIONS")
      expect(plain.headers["access-control-allow-methods"]).toBeUndefined()
      expect(plain.headers["access-control-allow-origin"]).toBe("*")
      expect((await raw(open.base, "OPTIONS", "*")).status).toBe(204)
      const unknown = await raw(open.base, "OPTIONS", "/api/v3/trips", preflight(STRANGER))
      expect(unknown.status).toBe(404)
      expect(unknown.headers["access-control-allow-origin"]).toBe("*")
    })

    it("lists GET, HEAD, OPTIONS in Allow of a 405", async () => {
      for (const method of ["POST", "DELETE", "PATCH"]) {
        const reply = await raw(open.base, method, search, { key: KEY })
        expect(reply.status, method).toBe(405)
        expect(reply.headers.allow).toBe("GET, HEAD, OPTIONS")
        expect(reply.headers["access-control-allow-origin"]).toBe("*")
      }
    })

    it("puts the CORS headers on every answer, errors included, and exposes the rate and request-id headers", async () => {
      const answers = [
        await raw(open.base, "GET", search, { key: KEY, origin: STRANGER }),
        await raw(open.base, "GET", search, { origin: STRANGER }),
        await raw(open.base, "GET", "/api/v2/trips/missing?locale=fr_FR", { key: KEY }),
        await raw(open.base, "GET", "/nowhere"),
        await raw(open.base, "GET", `${search}&fn=${"a".repeat(9000)}`),
        await raw(open.base, "HEAD", search, { key: KEY }),
        await raw(open.base, "GET", "/health")
      ]
      expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 404, 414, 200, 200])
      for (const reply of answers) {
        expect(reply.headers["access-control-allow-origin"]).toBe("*")
        const exposed = String(reply.headers["access-control-expose-headers"]).toLowerCase().split(/\s*,\s*/)
        expect(exposed).toEqual(expect.arrayContaining(["x-ratelimit-limit-day", "x-ratelimit-remaining-day", "x-request-id"]))
        expect(reply.headers.vary).toBe("Accept, Accept-Encoding")
      }
    })

    it("with an allow-list, echoes a listed origin with Vary: Origin and gives an unlisted one nothing", async () => {
      for (const path of [search, "/api/v2/trips/missing?locale=fr_FR"]) {
        const allowed = await raw(listed.base, "GET", path, { key: KEY, origin: PARTNER })
        expect(allowed.headers["access-control-allow-origin"]).toBe(PARTNER)
        expect(allowed.headers["access-control-expose-headers"]).toContain("X-RateLimit-Remaining-day")
        expect(allowed.headers.vary).toBe("Accept, Accept-Encoding, Origin")
        const refused = await raw(listed.base, "GET", path, { key: KEY, origin: STRANGER })
        expect(refused.status).toBe(allowed.status)
        expect(refused.headers["access-control-allow-origin"]).toBeUndefined()
        expect(refused.headers["access-control-expose-headers"]).toBeUndefined()
        expect(refused.headers.vary).toBe("Accept, Accept-Encoding, Origin")
      }
      expect((await raw(listed.base, "GET", search, { key: KEY, origin: "http://localhost:8080" })).headers["access-control-allow-origin"]).toBe(
        "http://localhost:8080"
      )
      // An origin differing by scheme or port is another origin.
      expect((await raw(listed.base, "GET", search, { key: KEY, origin: "http://partner.example" })).headers["access-control-allow-origin"]).toBeUndefined()
      expect((await raw(listed.base, "GET", search, { key: KEY })).headers["access-control-allow-origin"]).toBeUndefined()

      const ok = await raw(listed.base, "OPTIONS", search, preflight(PARTNER))
      expect(ok.status).toBe(204)
      expect(ok.headers["access-control-allow-origin"]).toBe(PARTNER)
      expect(ok.headers["access-control-allow-methods"]).toBe("GET, HEAD")
      const no = await raw(listed.base, "OPTIONS", search, preflight(STRANGER))
      expect(no.status).toBe(204)
      expect(no.headers["access-control-allow-origin"]).toBeUndefined()
      expect(no.headers["access-control-allow-methods"]).toBeUndefined()
    })
  })

  describe("HEAD", () => {
    it("answers as GET does, status and headers with Content-Length, without the body, counted against the quota", async () => {
      const cases: Array<[string, Record<string, string>]> = [
        [search, { key: KEY }],
        [bigSearch, { key: KEY }],
        [bigSearch, { key: KEY, "accept-encoding": "gzip" }],
        [`${search}&_format=xml`, { key: KEY }],
        ["/api/v2/trips/t1?locale=fr_FR", { key: KEY }],
        ["/api/v2/trips/big?locale=fr_FR", { key: KEY, "accept-encoding": "br" }],
        ["/api/v2/trips/missing?locale=fr_FR", { key: KEY }],
        [search, {}],
        [`${search}&page=1&page=2`, { key: KEY }],
        ["/nowhere", {}],
        ["/health", {}]
      ]
      for (const [i, [path, headers]] of cases.entries()) {
        const requestId = `head-${i}`
        const usage = memory.usageOf("k1", DAY)
        const get = await raw(open.base, "GET", path, { ...headers, "x-request-id": requestId })
        const afterGet = memory.usageOf("k1", DAY)
        const head = await raw(open.base, "HEAD", path, { ...headers, "x-request-id": requestId })
        const afterHead = memory.usageOf("k1", DAY)
        expect(head.status, path).toBe(get.status)
        expect(head.body.length, path).toBe(0)
        expect(get.headers["content-length"], path).toBe(String(get.body.length))
        expect(comparable(head.headers), path).toEqual({
          ...comparable(get.headers),
          // A counted answer leaves one request less for the next.
          ...(get.headers["x-ratelimit-remaining-day"] === undefined
            ? {}
            : { "x-ratelimit-remaining-day": String(Number(get.headers["x-ratelimit-remaining-day"]) - (afterHead - afterGet)) })
        })
        expect(afterHead - afterGet, path).toBe(afterGet - usage)
      }
      // 200s and 404s count, the 401 and the 400 do not: 6 + 1 GETs, and as many HEADs.
      expect(memory.usageOf("k1", DAY)).toBe(14)
    })
  })

  describe("compression", () => {
    const bigPaths = [bigSearch, `${bigSearch}&_format=xml`, "/api/v2/trips/big?locale=fr_FR", "/api/v2/trips/big?locale=fr_FR&_format=xml"]

    it("sends gzip and brotli bodies that decompress to exactly the uncompressed answer, in JSON and XML", async () => {
      for (const path of bigPaths) {
        const plain = await raw(open.base, "GET", path, { key: KEY })
        expect(plain.status, path).toBe(200)
        expect(plain.headers["content-encoding"], path).toBeUndefined()
        expect(plain.body.length, path).toBeGreaterThanOrEqual(COMPRESSION_MIN_BYTES)
        for (const coding of ["gzip", "br"]) {
          const packed = await raw(open.base, "GET", path, { key: KEY, "accept-encoding": coding })
          expect(packed.headers["content-encoding"], `${path} ${coding}`).toBe(coding)
          expect(packed.headers["content-type"]).toBe(plain.headers["content-type"])
          expect(packed.headers["content-length"]).toBe(String(packed.body.length))
          expect(packed.headers.vary).toContain("Accept-Encoding")
          expect(packed.body.length).toBeLessThan(plain.body.length / 2)
          expect(decoded(packed)).toBe(plain.body.toString("utf8"))
        }
      }
    })

    it("honours q-values: the best accepted coding, brotli on a tie, none when identity is asked or nothing fits", async () => {
      const cases: Array<[string, string | undefined]> = [
        ["gzip;q=0, br", "br"],
        ["gzip, br", "br"],
        ["gzip, deflate, br, zstd", "br"],
        ["br;q=0.5, gzip", "gzip"],
        ["br;q=0.2, gzip;q=0.8, identity;q=0.9", undefined],
        ["*", "br"],
        ["*;q=0.5, br;q=0", "gzip"],
        ["identity", undefined],
        ["deflate", undefined],
        ["br;q=0, gzip;q=0", undefined],
        ["*;q=0", undefined],
        ["", undefined]
      ]
      for (const [acceptEncoding, expected] of cases) {
        const reply = await raw(open.base, "GET", bigSearch, { key: KEY, "accept-encoding": acceptEncoding })
        expect(reply.status, acceptEncoding).toBe(200)
        expect(reply.headers["content-encoding"], acceptEncoding).toBe(expected)
        expect(JSON.parse(decoded(reply)).trips).toHaveLength(30)
      }
    })

    it("leaves small bodies uncompressed, still with Vary: Accept-Encoding", async () => {
      for (const path of [search, `${search}&_format=xml`, "/api/v2/trips/t1?locale=fr_FR", "/api/v2/trips/missing?locale=fr_FR&_format=xml", "/nowhere"]) {
        const reply = await raw(open.base, "GET", path, { key: KEY, "accept-encoding": "gzip, br" })
        expect(reply.body.length, path).toBeLessThan(COMPRESSION_MIN_BYTES)
        expect(reply.headers["content-encoding"], path).toBeUndefined()
        expect(reply.headers.vary, path).toBe("Accept, Accept-Encoding")
        expect(reply.body.toString("utf8").startsWith("{") || reply.body.toString("utf8").startsWith("<?xml"), path).toBe(true)
      }
    })
  })
})
