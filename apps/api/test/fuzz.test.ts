import { request } from "node:http"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { FastCheck as fc } from "effect"
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

/**
 * Thousands of random and malformed requests against the real server (worker pool, SQLite store,
 * gazetteer): never a 5xx, every body a valid response or the Error object in the format
 * announced, the process still serving, and the key never echoed, logged or written to the query log.
 */

const PARAMS = [
  "locale", "cur", "fn", "tn", "fc", "tc", "db", "de", "hb", "he", "page", "seats", "photo", "fields", "sort", "order",
  "limit", "radius", "radius_from", "radius_to", "aa", "shortlines", "pmin", "pmax", "_format", "key", "utm_source"
]
const GOOD_VALUES = [
  "fr_FR", "EUR", "en_GB", "GBP", "Paris", "Lyon", "paris, fr", "München", "48.8566|2.3522", "45.76|4.83", "2026-11-23",
  "2026-11-23 10:00:00", "0", "1", "8", "23", "24", "10", "100", "trip_price", "trip_date", "desc", "json", "xml",
  "trips.price,pager"
]
const NASTY_VALUES = [
  "", "-1", "1e309", "99999999999999999999999", "NaN", "0x10", "1.5", "|", "||", "%", "%zz", "%%", "%00", "<b>&amp;</b>",
  "]]>", "' OR 1=1 --", "\u0000", "\u202e", "😀", "𝔓𝔞𝔯𝔦𝔰", "a".repeat(5000), "%7C%7C", "..%2F..%2Fetc%2Fpasswd", "null",
  "[]", "{}", "trips.", ".price", "trips.nope"
]

const rawChunk = fc.oneof(
  fc.constantFrom(...GOOD_VALUES),
  fc.constantFrom(...NASTY_VALUES),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String)
)

/** Percent-encodes what Node's HTTP client refuses to send, leaving `%`, `|`, `<`, `&` … raw half the time. */
const toWire = (text: string, raw: boolean): string =>
  raw ? Array.from(text, (ch) => (/[\x21-\x7e]/.test(ch) && ch !== "#" && ch !== "?" ? ch : encodeURIComponent(ch))).join("") : encodeURIComponent(text)

const randomQuery = fc
  .array(
    fc.record({
      name: fc.oneof({ arbitrary: fc.constantFrom(...PARAMS), weight: 4 }, { arbitrary: fc.string({ maxLength: 12 }), weight: 1 }),
      value: rawChunk,
      raw: fc.boolean()
    }),
    { maxLength: 12 }
  )
  .map((parts) => parts.map((p) => `${toWire(p.name, p.raw)}=${toWire(p.value, p.raw)}`).join("&"))

/** Half the queries start valid, so that the fuzz reaches matching, facets and rendering too. */
const queryArb = fc.oneof(
  randomQuery,
  fc
    .tuple(
      fc.constantFrom("locale=fr_FR&cur=EUR", "locale=en_GB&cur=GBP", "locale=de_DE&cur=EUR", "locale=uk_UA&cur=RUB", "locale=hu_HU&cur=HUF"),
      fc.constantFrom("fn=Paris", "fn=Lyon&tn=Paris", "fc=48.8566%7C2.3522", "tc=45.76%7C4.83&radius=500", "fn=M%C3%BCnchen", "fn=Berlin"),
      fc.array(fc.record({ name: fc.constantFrom(...PARAMS.filter((p) => !["locale", "cur", "key"].includes(p))), value: fc.constantFrom(...GOOD_VALUES) }), { maxLength: 4 })
    )
    .map(([base, place, extras]) => [base, place, ...extras.map((e) => `${e.name}=${encodeURIComponent(e.value)}`)].join("&"))
)

const pathArb = fc.oneof(
  { arbitrary: fc.constant("/api/v2/trips"), weight: 6 },
  { arbitrary: rawChunk.map((id) => `/api/v2/trips/${toWire(id, false)}`), weight: 2 },
  { arbitrary: rawChunk.map((id) => `/api/v2/trips/${toWire(id, true)}/threads`), weight: 1 },
  { arbitrary: fc.constantFrom("/", "/api", "/api/v2", "/API/V2/TRIPS", "/api/v2/trips/", "//api//v2//trips", "/api/v3/trips", "/health", "/api/v2/trips/%", "/api/v2/trips/a%2Fb"), weight: 1 },
  { arbitrary: fc.webPath(), weight: 1 }
)

interface Reply {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

const send = (port: number, method: string, path: string, headers: Record<string, string>): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => {
        const raw = Buffer.concat(chunks)
        const coding = res.headers["content-encoding"]
        try {
          // A HEAD's answer names the coding of a body it does not carry.
          const body = method === "HEAD" ? raw : coding === "br" ? brotliDecompressSync(raw) : coding === "gzip" ? gunzipSync(raw) : raw
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString("utf8") })
        } catch (error) {
          reject(error)
        }
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const xml = new XMLParser({ parseTagValue: false })

/** The body is what its content type says: a JSON or XML response, or the Error object of its status. */
const checkBody = (reply: Reply): void => {
  const type = String(reply.headers["content-type"] ?? "")
  if (type.startsWith("application/json")) {
    const json = JSON.parse(reply.body)
    if (reply.status >= 400) {
      expect(Object.keys(json)).toEqual(["error"])
      expect(Object.keys(json.error)).toEqual(["code", "developper-message", "message", "support-link"])
      expect(json.error.code).toBe(String(reply.status))
    } else expect(typeof json).toBe("object")
  } else if (type.startsWith("application/xml")) {
    expect(XMLValidator.validate(reply.body)).toBe(true)
    const doc = xml.parse(reply.body)
    expect(Object.keys(doc).filter((k) => k !== "?xml")).toEqual(["response"])
    if (reply.status >= 400) expect(doc.response.error.code).toBe(String(reply.status))
  } else {
    throw new Error(`unexpected content type "${type}" for status ${reply.status}`)
  }
}

describe("fuzzing the real server", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-fuzz-"))
  const dbPath = join(dir, "trips.db")
  const queryLogPath = join(dir, "query-log.ndjson")
  const logLines: Array<string> = []
  let api: ApiServer
  let port: number
  let key: string

  beforeAll(async () => {
    const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 400, nowMs: Date.now() })
    key = demoKey!.key
    const logger = { info: (line: unknown) => void logLines.push(JSON.stringify(line)), error: (line: unknown) => void logLines.push(JSON.stringify(line)) }
    api = await createServer({
      config: { dbPath, publicBaseUrl: "https://api.fuzz.test", websiteBaseUrl: "https://www.fuzz.test", queryLogPath, productionDailyLimit: undefined },
      logger
    })
    port = (await api.listen(0, "127.0.0.1")).port
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("answers thousands of random and malformed requests without a 5xx, each body well-formed, the key never echoed", async () => {
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(
        pathArb,
        queryArb,
        fc.constantFrom("header", "query", "both", "none", "wrong"),
        fc.constantFrom(undefined, "application/json", "application/xml", "text/xml", "*/*", "text/html", "\u00ff"),
        fc.oneof({ arbitrary: fc.constant("GET"), weight: 9 }, { arbitrary: fc.constantFrom("POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"), weight: 1 }),
        fc.constantFrom(undefined, "gzip, br", "gzip", "br;q=0.5, gzip;q=0.9", "identity", "*;q=0", "nonsense;q=x"),
        async (path, query, keyWhere, accept, method, acceptEncoding) => {
          const headers: Record<string, string> = {}
          if (keyWhere === "header" || keyWhere === "both") headers.key = key
          if (keyWhere === "wrong") headers.key = "not-a-key"
          if (accept !== undefined) headers.accept = accept
          if (acceptEncoding !== undefined) headers["accept-encoding"] = acceptEncoding
          const keyInQuery = keyWhere === "query" || keyWhere === "both" ? `key=${key}` : ""
          const q = [query, keyInQuery].filter((s) => s !== "").join("&")
          const reply = await send(port, method, q === "" ? path : `${path}?${q}`, headers)
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
          expect(reply.status, `${method} ${path}?${q}`).toBeLessThan(500)
          if (method === "HEAD" || reply.status === 204) expect(reply.body).toBe("")
          else checkBody(reply)
          expect(reply.body).not.toContain(key)
          expect(JSON.stringify(reply.headers)).not.toContain(key)
        }
      ),
      { numRuns: 2500 }
    )
    // The run reached the search itself, not only the guards in front of it.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50)
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50)

    const after = await send(port, "GET", "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris", { key })
    expect(after.status).toBe(200)

    await api.close()
    const logged = [...logLines, readFileSync(queryLogPath, "utf8")].join("\n")
    expect(logged.length).toBeGreaterThan(1000)
    expect(logged).not.toContain(key)
  }, 300_000)
})
