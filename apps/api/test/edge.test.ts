import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { feedLines } from "@tripsearch/dataset"
import { COMPRESSION_MIN_BYTES } from "@tripsearch/http-express"
import { checkNodeAnswer } from "@tripsearch/openapi-contract"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATASET_SEED } from "../src/config.js"
import { type ApiServer, createServer } from "../src/createServer.js"
import { type DemoKey, ensureDataset } from "../src/ensureDataset.js"

/**
 * The partner-facing edge of the real server (worker pool, SQLite store, gazetteer): compressed
 * searches built in the pool's worker, HEAD, CORS with an allow-list, preflights, and CORS on the
 * replies Node's HTTP parser gives.
 */

const TRIPS = 300
const PARTNER = "https://partner.example"

interface Raw {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: Buffer
}

const send = (port: number, method: string, path: string, headers: Record<string, string>): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const body = Buffer.concat(chunks)
        try {
          checkNodeAnswer(method, path, res.statusCode ?? 0, res.headers, body)
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

/** Bytes written as they are on a socket, for requests Node's client would refuse to send. */
const sendRaw = (port: number, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text))
    const chunks: Array<Buffer> = []
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")))
    socket.on("error", reject)
  })

const decoded = (reply: Raw): string => {
  const coding = reply.headers["content-encoding"]
  return (coding === "br" ? brotliDecompressSync(reply.body) : coding === "gzip" ? gunzipSync(reply.body) : reply.body).toString("utf8")
}

describe("the server's edge: compression in the pool, HEAD, CORS", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-edge-"))
  const dbPath = join(dir, "trips.db")
  const nowMs = Date.now()
  let demoKey: DemoKey
  let api: ApiServer
  let port: number

  beforeAll(async () => {
    demoKey = (await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: TRIPS, nowMs })).demoKey!
    api = await createServer({
      config: {
        dbPath,
        publicBaseUrl: "https://api.example.test",
        websiteBaseUrl: "https://www.example.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        matcherMaxQueue: 16,
        corsOrigins: [PARTNER]
      },
      logger: { info: () => {}, error: () => {} }
    })
    port = (await api.listen(0, "127.0.0.1")).port
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const trip = (() => {
    for (const line of feedLines({ trips: TRIPS, seed: DATASET_SEED, nowMs })) {
      const t = JSON.parse(line) as { id: string; status?: string; departure_time: string; waypoints: Array<{ lat: number; lon: number }> }
      if ((t.status ?? "active") === "active" && Date.parse(t.departure_time) > nowMs + 2 * 3_600_000) return t
    }
    throw new Error("no active trip in the generated feed")
  })()
  const from = trip.waypoints[0]!
  const search = `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${from.lat}%7C${from.lon}&radius=300&limit=50`
  const details = `/api/v2/trips/${trip.id}?locale=fr_FR&cur=EUR`

  it("sends searches and details in gzip and brotli that decompress to exactly the uncompressed JSON and XML", async () => {
    for (const path of [search, `${search}&_format=xml`, details, `${details}&_format=xml`]) {
      const plain = await send(port, "GET", path, { key: demoKey.key })
      expect(plain.status, path).toBe(200)
      expect(plain.headers["content-encoding"], path).toBeUndefined()
      expect(plain.body.length, path).toBeGreaterThan(COMPRESSION_MIN_BYTES)
      for (const [acceptEncoding, coding] of [["gzip", "gzip"], ["br", "br"], ["gzip;q=0, br", "br"], ["gzip, br;q=0.5", "gzip"], ["identity", undefined]] as const) {
        const label = `${path} ${acceptEncoding}`
        const reply = await send(port, "GET", path, { key: demoKey.key, "accept-encoding": acceptEncoding })
        expect(reply.status, label).toBe(200)
        expect(reply.headers["content-encoding"], label).toBe(coding)
        expect(reply.headers["content-type"], label).toBe(plain.headers["content-type"])
        expect(reply.headers["content-length"], label).toBe(String(reply.body.length))
        expect(reply.headers.vary, label).toBe("Accept, Accept-Encoding, Origin")
        expect(decoded(reply), label).toBe(plain.body.toString("utf8"))
        if (coding !== undefined) expect(reply.body.length, label).toBeLessThan(plain.body.length / 2)
      }
    }
  })

  it("answers HEAD on a search, a detail and an error with the GET's status and headers, no body, counted", async () => {
    for (const [path, headers] of [
      [search, { "accept-encoding": "br" }],
      [`${search}&_format=xml`, {}],
      [details, { "accept-encoding": "gzip" }],
      ["/api/v2/trips/no-such-trip?locale=fr_FR", {}],
      [`${search}&seats=many`, {}]
    ] as const) {
      const get = await send(port, "GET", path, { ...headers, key: demoKey.key, "x-request-id": "same" })
      const head = await send(port, "HEAD", path, { ...headers, key: demoKey.key, "x-request-id": "same" })
      expect(head.status, path).toBe(get.status)
      expect(head.body.length, path).toBe(0)
      expect(head.headers["content-length"], path).toBe(String(get.body.length))
      const counted = get.status === 400 ? 0 : 1
      const { date: _d1, "x-ratelimit-remaining-day": left, ...getHeaders } = get.headers
      const { date: _d2, "x-ratelimit-remaining-day": leftAfter, ...headHeaders } = head.headers
      expect(headHeaders, path).toEqual(getHeaders)
      expect(Number(leftAfter), path).toBe(Number(left) - counted)
    }
  })

  it("answers a preflight from a listed origin without a key, and gives an unlisted origin no CORS header", async () => {
    const preflight = { "access-control-request-method": "GET", "access-control-request-headers": "key" }
    const ok = await send(port, "OPTIONS", search, { ...preflight, origin: PARTNER })
    expect(ok.status).toBe(204)
    expect(ok.headers["access-control-allow-origin"]).toBe(PARTNER)
    expect(ok.headers["access-control-allow-headers"]).toContain("Key")
    const before = await send(port, "GET", "/api/v2/trips/no-such-trip?locale=fr_FR", { key: demoKey.key, origin: PARTNER })
    await send(port, "OPTIONS", details, { ...preflight, origin: PARTNER, key: demoKey.key })
    const after = await send(port, "GET", "/api/v2/trips/no-such-trip?locale=fr_FR", { key: demoKey.key, origin: "https://other.example" })
    // The preflight between two counted requests cost nothing.
    expect(Number(after.headers["x-ratelimit-remaining-day"])).toBe(Number(before.headers["x-ratelimit-remaining-day"]) - 1)
    expect(before.headers["access-control-allow-origin"]).toBe(PARTNER)
    expect(after.headers["access-control-allow-origin"]).toBeUndefined()
  })

  it("puts CORS headers on the replies Node's parser gives to requests it refuses", async () => {
    const listed = await sendRaw(port, `GET api/v2/trips HTTP/1.1\r\nHost: x\r\nOrigin: ${PARTNER}\r\n\r\n`)
    expect(listed).toMatch(/^HTTP\/1\.1 400 /)
    expect(listed).toContain(`\r\nAccess-Control-Allow-Origin: ${PARTNER}\r\n`)
    expect(listed).toContain("\r\nVary: Accept, Accept-Encoding, Origin\r\n")
    expect(listed).toContain('"developper-message":"request.malformed"')
    const unlisted = await sendRaw(port, "GET api/v2/trips HTTP/1.1\r\nHost: x\r\nOrigin: https://other.example\r\n\r\n")
    expect(unlisted).toMatch(/^HTTP\/1\.1 400 /)
    expect(unlisted).not.toContain("Access-Control-Allow-Origin")
    const head = await sendRaw(port, `HEAD api/v2/trips HTTP/1.1\r\nHost: x\r\norigin: ${PARTNER}\r\n\r\n`)
    expect(head).toContain(`\r\nAccess-Control-Allow-Origin: ${PARTNER}\r\n`)
    expect(head.endsWith("\r\n\r\n")).toBe(true)
  })

  it("answers 408 request.timeout, on time, to a client whose headers are not in within 10 s", async () => {
    const started = performance.now()
    const reply = await new Promise<string>((resolve, reject) => {
      // Headers begun and never finished: the slow client a server must not wait for forever.
      const socket = connect(port, "127.0.0.1", () => socket.write("GET /api/v2/trips?locale=fr_FR HTTP/1.1\r\nHost: x\r\n"))
      const chunks: Array<Buffer> = []
      socket.on("data", (c: Buffer) => chunks.push(c))
      socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
      socket.on("error", reject)
    })
    const seconds = (performance.now() - started) / 1000
    expect(reply).toMatch(/^HTTP\/1\.1 408 /)
    expect(reply).toContain('"developper-message":"request.timeout"')
    expect(seconds).toBeGreaterThanOrEqual(9.5)
    expect(seconds).toBeLessThan(13)
  }, 20_000)
})
