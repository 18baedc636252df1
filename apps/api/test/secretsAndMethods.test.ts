import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { request } from "node:http"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { checkNodeAnswer } from "@tripsearch/openapi-contract"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

/**
 * Keys kept out of every log whatever their shape, and every request answered, against the real
 * server (worker pool, SQLite store, query log file) listening on 127.0.0.1.
 */

interface Reply {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

const send = (port: number, method: string, path: string, headers: Record<string, string> = {}): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const bytes = Buffer.concat(chunks)
        try {
          checkNodeAnswer(method, path, res.statusCode ?? 0, res.headers, bytes)
        } catch (error) {
          reject(error)
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString("utf8") })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/**
 * Bytes written as they are on a socket, which the client then half-closes; resolves with
 * everything the server sent before it closed.
 */
const sendRaw = (port: number, text: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text))
    const chunks: Array<Buffer> = []
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")))
    socket.on("error", reject)
    setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close after 5 s; got ${JSON.stringify(Buffer.concat(chunks).toString("latin1"))}`))
    }, 5_000).unref()
  })

const bodyOf = (raw: string): unknown => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4))

/** The key names a partner may type instead of `key`, raw as they go on the wire. */
const KEY_NAMES = [
  "Key", "KEY", "kEY", "api_key", "apikey", "apiKey", "API_KEY", "api-key", "x-api-key", "key%20", "%20key", "key+", "k%65y%20", "%4B%45%59",
  "k%2565y", "%EF%BC%AB%EF%BC%A5%EF%BC%B9", "key%00", "access_token", "accessToken", "token", "auth_token", "secret", "client_secret",
  "password", "authorization", "?key", "key[]"
]

describe("keys in logs, and methods Node handles apart", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-secrets-"))
  const dbPath = join(dir, "trips.db")
  const queryLogPath = join(dir, "logs", "query-log.ndjson")
  const logLines: Array<string> = []
  let api: ApiServer
  let port: number
  let validKey: string
  // Never issued, in the shape of an issued key (32 base64url characters): a 403 when sent as `key`.
  const unknownKey = "Zq9vUnknownKeyNeverIssued_012345"

  beforeAll(async () => {
    const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 200, nowMs: Date.now() })
    validKey = demoKey!.key
    const logger = { info: (line: unknown) => void logLines.push(JSON.stringify(line)), error: (line: unknown) => void logLines.push(JSON.stringify(line)) }
    api = await createServer({
      config: {
        dbPath,
        publicBaseUrl: "https://api.secrets.test",
        websiteBaseUrl: "https://www.secrets.test",
        queryLogPath,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        matcherMaxQueue: 16
      },
      logger
    })
    port = (await api.listen(0, "127.0.0.1")).port
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("answers CONNECT with the 405 and Allow of any other method, in the Error object, logged, the socket then closed", async () => {
    const before = logLines.length
    const reply = await sendRaw(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
    expect(reply).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/)
    expect(reply).toContain("\r\nAllow: GET, HEAD, OPTIONS\r\n")
    expect(reply).toContain("\r\nConnection: close\r\n")
    expect(reply).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/)
    expect(reply).toMatch(/\r\nX-Request-Id: [0-9a-f-]{36}\r\n/)
    expect(bodyOf(reply)).toEqual({
      error: {
        code: "405",
        "developper-message": "method.not_allowed",
        message: "Method CONNECT is not allowed: the service answers GET, HEAD, OPTIONS",
        "support-link": "https://www.secrets.test/developers/errors#method.not_allowed"
      }
    })
    // The same answer as a method Express sees, but for the method's name.
    const post = await send(port, "POST", "/api/v2/trips")
    expect(post.status).toBe(405)
    expect(post.headers.allow).toBe("GET, HEAD, OPTIONS")
    expect((JSON.parse(post.body) as { error: { "developper-message": string } }).error["developper-message"]).toBe("method.not_allowed")

    // In XML when the target asks for it, like the others; a reset mid-request does not bring the server down.
    const xml = await sendRaw(port, "CONNECT /api/v2/trips?_format=xml HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(xml).toMatch(/^HTTP\/1\.1 405 /)
    expect(xml).toContain("<developper-message>method.not_allowed</developper-message>")
    await new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n")
        socket.resetAndDestroy()
        resolve()
      })
    })

    const connects = logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.method === "CONNECT")
    expect(connects.length).toBeGreaterThanOrEqual(2)
    expect(connects[0]).toMatchObject({ event: "request", path: "example.com:443", status: 405 })
    expect((await send(port, "GET", "/health")).status).toBe(200)
  })

  it("answers a method Node's parser does not know with the same 405, and an upgrade request as a plain one", async () => {
    const before = logLines.length
    const brew = await sendRaw(port, "BREW /api/v2/trips HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(brew).toMatch(/^HTTP\/1\.1 405 /)
    expect(brew).toContain("\r\nAllow: GET, HEAD, OPTIONS\r\n")
    expect((bodyOf(brew) as { error: { message: string } }).error.message).toBe("Method BREW is not allowed: the service answers GET, HEAD, OPTIONS")
    const rtsp = await sendRaw(port, "DESCRIBE / HTTP/1.1\r\nHost: x\r\n\r\n")
    expect(rtsp).toMatch(/^HTTP\/1\.1 405 /)
    // Garbage is still garbage.
    expect(await sendRaw(port, "\x16\x03\x01 not http\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /)
    const logged = logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(logged).toContainEqual(expect.objectContaining({ event: "request", method: "BREW", path: "/api/v2/trips", status: 405 }))
    expect(logged).toContainEqual(expect.objectContaining({ event: "request", status: 400 }))

    // With no 'upgrade' listener Node hands an upgrade request to the app as an ordinary one.
    const upgrade = await sendRaw(port, "GET /api/v2/trips HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
    expect(upgrade).toMatch(/^HTTP\/1\.1 401 /)
  })

  it("writes no key to the query log or the request log, whatever its parameter's spelling, place or answer", async () => {
    const statuses = new Set<number>()
    const locale = "locale=fr_FR&cur=EUR&fn=Paris"
    for (const value of [validKey, unknownKey]) {
      const targets: Array<string> = []
      for (const name of KEY_NAMES) {
        targets.push(`/api/v2/trips?${name}=${value}&${locale}`)
        targets.push(`/api/v2/trips?${locale}&${name}=${value}&${name}=${value}`)
        targets.push(`/api/v2/trips?${name}=${value}&fn=%ZZ`)
        targets.push(`/api/v2/trips/abc-1?locale=fr_FR&${name}=${value}`)
        targets.push(`/api/v2/trips/abc-1/threads?${name}=${value}&locale=fr_FR`)
        targets.push(`/nowhere?${name}=${value}`)
      }
      targets.push(
        `/api/v2/trips?key=${value}&${locale}`,
        `/api/v2/trips?${value}&${locale}`,
        `/api/v2/trips?fn=${value}&locale=fr_FR&cur=EUR`,
        `/api/v2/trips?K%C3%A9ey=${value}&${locale}`,
        `/api/v2/trips?key=${value}&key=${value}&${locale}`,
        `/api/v2/trips?key%ZZ=${value}&${locale}`,
        `/api/v2/trips?${locale};key=${value}`,
        `/api/v2/trips?locale=fr_FR;api_key=${value};cur=EUR`,
        `/api/v2/trips&key=${value}&${locale}`,
        `/api/v2/trips;api_key=${value}`,
        `/api/v2/trips/key=${value}?locale=fr_FR`,
        `/api/v2/trips/token:${value}/threads?locale=fr_FR`
      )
      for (const target of targets) {
        for (const headers of [{}, { key: validKey }, { key: value }, { authorization: `Bearer ${value}`, "x-api-key": value }]) {
          const reply = await send(port, "GET", target, headers)
          statuses.add(reply.status)
          expect(reply.status, target).toBeLessThan(500)
        }
      }
      for (const method of ["HEAD", "POST", "DELETE", "OPTIONS"]) {
        statuses.add((await send(port, method, `/api/v2/trips?Key=${value}&${locale}`, { key: value })).status)
      }
      expect(await sendRaw(port, `CONNECT /api/v2/trips?api_key=${value} HTTP/1.1\r\nHost: x\r\nkey: ${value}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 405 /)
      expect(await sendRaw(port, `CONNECT /api/v2/trips&api_key=${value} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 405 /)
      expect(await sendRaw(port, `BREW /api/v2/trips;key=${value}?api_key=${value} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 405 /)
      expect(await sendRaw(port, `GET api/v2/trips&key=${value}?api_key=${value} HTTP/1.1\r\nHost: x\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /)
      expect(await sendRaw(port, `GET /api/v2/trips?api_key=${value} HTTP/1.1\r\nHost: x\r\nkey: ${value}\r\nX: ${"a".repeat(20_000)}\r\n\r\n`)).toMatch(
        /^HTTP\/1\.1 431 /
      )
    }
    // Every kind of answer was met, so the logs below saw every path through the app.
    for (const status of [200, 204, 400, 401, 403, 404, 405]) expect(statuses, `status ${status}`).toContain(status)

    await api.close()
    const files = readdirSync(join(dir, "logs")).map((name) => readFileSync(join(dir, "logs", name), "utf8"))
    const queryLog = files.join("\n")
    // The logs were written, with the redacted spellings in them.
    expect(queryLog.split("\n").length).toBeGreaterThan(500)
    expect(queryLog).toContain("api_key=REDACTED")
    expect(queryLog).toContain("key%20=REDACTED")
    expect(logLines.join("\n")).toContain("/api/v2/trips&key=REDACTED")
    for (const value of [validKey, unknownKey]) {
      expect(queryLog).not.toContain(value)
      for (const line of logLines) expect(line).not.toContain(value)
    }
  }, 120_000)
})
