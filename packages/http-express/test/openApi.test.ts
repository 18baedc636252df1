import { readdirSync, readFileSync } from "node:fs"
import type { IncomingMessage, ServerResponse } from "node:http"
import { join } from "node:path"
import { InMemoryTripMatcher } from "@tripsearch/core"
import { feedLines, generateQueryLog, type QueryLogTrip } from "@tripsearch/dataset"
import { GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ERROR_TOKENS, openApiDocument } from "../src/index.js"
import { ContractViolation, openApiContract } from "@tripsearch/openapi-contract"
import { listen, listenOverStore, type RealStack } from "./testServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const document = openApiDocument("http://localhost:3000") as Json

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
  })

  it("describes every query parameter the core's Schemas decode, with its type", () => {
    const search = document.paths["/api/v2/trips"].get.parameters as Array<Json>
    const byName = Object.fromEntries(search.map((p) => [p.name, p]))
    expect(Object.keys(byName).sort()).toEqual(
      ["_format", "aa", "cur", "db", "de", "fc", "fields", "fn", "hb", "he", "limit", "locale", "order", "page", "photo", "pmax", "pmin", "radius", "radius_from", "radius_to", "seats", "shortlines", "sort", "tc", "tn"]
    )
    expect(byName.limit.schema).toEqual({ type: "integer", minimum: 0, maximum: 100 })
    expect(byName.he.schema).toEqual({ type: "integer", minimum: 1, maximum: 24 })
    expect(byName.locale.required).toBe(true)
    expect(byName.fn.required).toBe(false)
    for (const p of search) expect(typeof p.description, p.name).toBe("string")
    const details = document.paths["/api/v2/trips/{id}"].get.parameters as Array<Json>
    expect(details.map((p) => p.name).sort()).toEqual(["_format", "cur", "id", "locale"])
  })

  it("lists every error token of ERROR_TOKENS, each under the responses of its status", () => {
    expect(document.components.schemas.ErrorToken.enum).toEqual(Object.keys(ERROR_TOKENS))
    const listed = Object.values(document.components.responses as Json).flatMap(
      (r: Json) => r.content["application/json"].schema.allOf[1].properties.error.properties["developper-message"].enum as Array<string>
    )
    // `service.error` is listed under 500 and, store unreachable, under 503 too.
    expect([...new Set(listed)].sort()).toEqual(Object.keys(ERROR_TOKENS).sort())
  })

  it("closes every object it describes: an unknown field is not the service's", () => {
    const open: Array<string> = []
    const walk = (schema: unknown, at: string, inAllOfRestriction: boolean): void => {
      if (schema === null || typeof schema !== "object") return
      if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${at}/${i}`, inAllOfRestriction))
      const s = schema as Json
      // allOf: [Error, {restriction}]: the restriction narrows the closed Error, it adds no field.
      if (s.type === "object" && s.additionalProperties !== false && s.unevaluatedProperties !== false && !inAllOfRestriction) open.push(at)
      for (const [key, value] of Object.entries(s)) {
        if (key === "allOf" && Array.isArray(value)) {
          walk(value[0], `${at}/allOf/0`, false)
          for (const [i, rest] of value.slice(1).entries()) walk(rest, `${at}/allOf/${i + 1}`, true)
        } else walk(value, `${at}/${key}`, inAllOfRestriction && key === "properties" ? true : inAllOfRestriction && key !== "items")
      }
    }
    walk(document.components, "components", false)
    for (const [path, item] of Object.entries(document.paths as Json)) walk(item, path, false)
    // The document itself, served as it is, is the one open object.
    expect(open).toEqual(["get", "head"].map((method) => `/api/v2/openapi.json/${method}/responses/200/content/application/json/schema`))
  })

  it("lists GET, HEAD and OPTIONS on every path, as the server answers them, and 405 with Allow for the others", () => {
    for (const [path, item] of Object.entries(document.paths as Json)) {
      expect(Object.keys(item), path).toEqual(["get", "head", "options"])
      expect(item.head.responses, path).toEqual(item.get.responses)
      expect(item.options.security, path).toEqual([])
      expect(item.options.responses["204"].headers.Allow.schema, path).toEqual({ const: "GET, HEAD, OPTIONS" })
    }
    expect(document.components.responses.MethodNotAllowed.headers.Allow).toMatchObject({ required: true, schema: { const: "GET, HEAD, OPTIONS" } })
    expect(JSON.stringify(document)).not.toMatch(/Allow: GET`|Only GET/)
  })

  it("lists every token the code sends", () => {
    // Every `token: ...` of the adapter and the server, wherever a reply is built.
    const roots = ["../src", "../../../apps/api/src"].map((p) => new URL(p, import.meta.url).pathname)
    const sent = new Set<string>()
    for (const root of roots) {
      for (const file of readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))) {
        for (const line of readFileSync(join(root, file), "utf8").split("\n")) {
          if (!/\btoken: /.test(line)) continue
          for (const m of line.matchAll(/"([a-z]+\.[a-z_]+)"/g)) sent.add(m[1]!)
        }
      }
    }
    expect(sent.size).toBeGreaterThanOrEqual(14)
    for (const token of sent) expect(Object.keys(ERROR_TOKENS), token).toContain(token)
    // And no token is documented that the code never sends.
    expect([...sent].sort()).toEqual(Object.keys(ERROR_TOKENS).sort())
  })
})

/** A JSON Schema 2020-12 validator for the JSON body of `status` of an operation of the document. */
const responseValidators = (doc: Json) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  const cache = new Map<string, ValidateFunction>()
  return (path: string, status: number): ValidateFunction => {
    const key = `${path} ${status}`
    let validate = cache.get(key)
    if (validate === undefined) {
      let response = doc.paths[path].get.responses[String(status)] as Json | undefined
      if (response === undefined) throw new Error(`${path}: status ${status} is not documented`)
      if (typeof response.$ref === "string") response = doc.components.responses[response.$ref.split("/").pop()!] as Json
      const schema = response.content["application/json"].schema as Json
      validate = ajv.compile({ ...schema, components: { schemas: doc.components.schemas } })
      cache.set(key, validate)
    }
    return validate
  }
}

describe("answers of a real listening server validate against the document", () => {
  const nowMs = Date.now()
  const db = openDatabase(":memory:")
  let running: RealStack
  let key: string
  let trips: Array<QueryLogTrip>
  const validatorOf = responseValidators(document)
  const seenIds = new Set<string>()

  beforeAll(async () => {
    const lines = [...feedLines({ trips: 300, seed: "openapi", nowMs })]
    const result = await importFeed(db, lines)
    expect(result.ok).toBe(true)
    trips = lines.map((l) => JSON.parse(l) as QueryLogTrip & { status?: string }).filter((t) => (t.status ?? "active") === "active")
    running = await listenOverStore(db, "openapi")
    key = running.key
  }, 60_000)

  afterAll(async () => {
    await running?.close()
    db.close()
  })

  const check = async (docPath: string, target: string, init: RequestInit = { headers: { key } }) => {
    const response = await fetch(`${running.base}${target}`, init)
    const body = (await response.json()) as Json
    const validate = validatorOf(docPath, response.status)
    expect(validate(body), `${target} ${response.status}: ${JSON.stringify(validate.errors)}`).toBe(true)
    if (response.status !== 200) {
      const token = body.error["developper-message"] as keyof typeof ERROR_TOKENS
      expect(ERROR_TOKENS[token].status, token).toBe(response.status)
    }
    return { status: response.status, body }
  }

  it("serves the document at /api/v2/openapi.json without a key, with the configured server", async () => {
    const response = await fetch(`${running.base}/api/v2/openapi.json`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^application\/json/)
    expect(response.headers.get("x-ratelimit-limit-day")).toBeNull()
    const served = (await response.json()) as Json
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument("https://api.test"))))
    expect(served.servers).toEqual([{ url: "https://api.test" }])
    // Paths take one trailing slash and any case, as every other path of the service does.
    for (const path of ["/api/v2/openapi.json/", "/API/V2/OPENAPI.JSON"]) expect((await fetch(`${running.base}${path}`)).status, path).toBe(200)
  })

  it("validates 200 generated searches", async () => {
    const records = [...generateQueryLog({ trips, count: 320, seed: "openapi", startMs: nowMs })].filter((r) => r.path === "/api/v2/trips")
    expect(records.length).toBeGreaterThanOrEqual(200)
    const statuses = new Map<number, number>()
    let withTrips = 0
    for (const record of records.slice(0, 240)) {
      const query = new URLSearchParams(record.query)
      query.set("_format", "json")
      const { status, body } = await check("/api/v2/trips", `/api/v2/trips?${query}`)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status !== 200) continue
      const listed = [...(body.trips as Array<Json>), ...(body.top_trips as Array<Json>)]
      if (body.trips.length > 0) {
        withTrips++
        // The validator does catch a body that differs from the document.
        const validate = validatorOf("/api/v2/trips", 200)
        expect(validate({ ...body, trips: [{ ...body.trips[0], seats_left: "3" }] })).toBe(false)
        expect(validate({ ...body, extra: 1 })).toBe(false)
      }
      for (const trip of listed) seenIds.add(trip.permanent_id as string)
    }
    expect(statuses.get(200) ?? 0).toBeGreaterThanOrEqual(200)
    // The searches find trips, so the trip schemas are exercised, not only empty lists.
    expect(withTrips).toBeGreaterThanOrEqual(100)
  }, 120_000)

  it("validates 100 trip details and their threads, whole trips and segments", async () => {
    const ids = [...seenIds].sort()
    expect(ids.length).toBeGreaterThanOrEqual(100)
    expect(ids.some((id) => /_\d+_\d+$/.test(id))).toBe(true)
    for (const [n, id] of ids.slice(0, 100).entries()) {
      const locale = n % 2 === 0 ? "fr_FR" : "en_GB&cur=GBP"
      const { status } = await check("/api/v2/trips/{id}", `/api/v2/trips/${encodeURIComponent(id)}?locale=${locale}`)
      expect(status).toBe(200)
      if (n % 5 === 0) {
        const threads = await check("/api/v2/trips/{id}/threads", `/api/v2/trips/${encodeURIComponent(id)}/threads?locale=de_DE`)
        expect(threads.status).toBe(200)
      }
    }
  }, 120_000)

  it("validates the error answers with their documented status and token", async () => {
    expect((await check("/api/v2/trips", "/api/v2/trips?locale=fr_FR&cur=EUR&limit=101")).status).toBe(400)
    expect((await check("/api/v2/trips", "/api/v2/trips?cur=EUR")).body.error["developper-message"]).toBe("parameter.missing")
    expect((await check("/api/v2/trips", "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Zzyzxqwv")).status).toBe(404)
    expect((await check("/api/v2/trips", "/api/v2/trips?locale=fr_FR&cur=EUR", { headers: {} })).status).toBe(401)
    expect((await check("/api/v2/trips", "/api/v2/trips?locale=fr_FR&cur=EUR", { headers: { key: "nope" } })).status).toBe(403)
    expect((await check("/api/v2/trips", "/api/v2/trips?locale=fr_FR&cur=EUR", { method: "POST", headers: { key } })).status).toBe(405)
    expect((await check("/api/v2/trips/{id}", "/api/v2/trips/no-such-trip?locale=fr_FR")).status).toBe(404)
    expect((await check("/api/v2/trips/{id}", `/api/v2/trips/x?locale=fr_FR&q=${"a".repeat(9000)}`)).status).toBe(414)
    expect((await check("/health", "/health", {})).status).toBe(200)
  })

  it("answers {id}_0_{n}, the whole trip, as {id}; HEAD and OPTIONS on every path; other methods 405 with Allow", async () => {
    const trip = trips.find((t) => t.waypoints.length >= 2 && Date.parse(String((t as Json).departure_time)) > nowMs)!
    const n = trip.waypoints.length - 1
    const whole = await check("/api/v2/trips/{id}", `/api/v2/trips/${trip.id}?locale=fr_FR`)
    const asSegment = await check("/api/v2/trips/{id}", `/api/v2/trips/${trip.id}_0_${n}?locale=fr_FR`)
    expect(asSegment.status).toBe(200)
    expect(asSegment.body).toEqual(whole.body)
    expect(asSegment.body.permanent_id).toBe(trip.id)
    expect((await check("/api/v2/trips/{id}", `/api/v2/trips/${trip.id}_0_${n + 1}?locale=fr_FR`)).status).toBe(404)
    for (const path of ["/api/v2/trips?locale=fr_FR&cur=EUR", `/api/v2/trips/${trip.id}?locale=fr_FR`, `/api/v2/trips/${trip.id}/threads?locale=fr_FR`, "/health", "/api/v2/openapi.json"]) {
      // Each answer is checked against the document by the fetch of every test (openApiContract.setup.ts).
      const head = await fetch(`${running.base}${path}`, { method: "HEAD", headers: { key } })
      expect(head.status, path).toBe(200)
      const options = await fetch(`${running.base}${path}`, { method: "OPTIONS" })
      expect(options.status, path).toBe(204)
      expect(options.headers.get("allow"), path).toBe("GET, HEAD, OPTIONS")
      const preflight = await fetch(`${running.base}${path}`, { method: "OPTIONS", headers: { origin: "https://app.test", "access-control-request-method": "GET" } })
      expect(preflight.headers.get("access-control-allow-methods"), path).toBe("GET, HEAD")
      for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
        const refused = await fetch(`${running.base}${path}`, { method, headers: { key } })
        expect(refused.status, `${method} ${path}`).toBe(405)
        expect(refused.headers.get("allow"), `${method} ${path}`).toBe("GET, HEAD, OPTIONS")
      }
    }
  })

  it("answers XML under the media type the document lists for that status", async () => {
    for (const query of ["locale=fr_FR&cur=EUR&fn=Paris&_format=xml", "locale=fr_FR&cur=EUR&limit=500&_format=xml"]) {
      const response = await fetch(`${running.base}/api/v2/trips?${query}`, { headers: { key } })
      const documented = document.paths["/api/v2/trips"].get.responses[String(response.status)] as Json
      const resolved = documented.$ref ? document.components.responses[documented.$ref.split("/").pop()] : documented
      const type = response.headers.get("content-type")!.split(";")[0]!
      expect(Object.keys(resolved.content), query).toContain(type)
      expect(type).toBe("application/xml")
      expect(await response.text()).toMatch(/^<\?xml[^>]*>\s*<response>/)
    }
  })
})

describe("the check every test's fetch makes (openApiContract.setup.ts)", () => {
  const nowMs = Date.now()
  const db = openDatabase(":memory:")
  let real: RealStack
  let search: { status: number; headers: Record<string, string>; body: Json }
  // A server that answers what the test tells it to: a body the real server gave, altered.
  let next: { status: number; headers: Record<string, string>; body: string }
  let fake: Awaited<ReturnType<typeof listen>>

  beforeAll(async () => {
    expect((await importFeed(db, [...feedLines({ trips: 80, seed: "contract", nowMs })])).ok).toBe(true)
    real = await listenOverStore(db, "contract")
    const response = await fetch(`${real.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&radius=500&limit=3`, { headers: { key: real.key } })
    search = { status: response.status, headers: Object.fromEntries(response.headers), body: (await response.json()) as Json }
    expect(search.status).toBe(200)
    expect(search.body.trips.length).toBeGreaterThan(0)
    fake = await listen((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(next.status, next.headers)
      res.end(next.body)
    })
  }, 60_000)

  afterAll(async () => {
    await fake?.close()
    await real?.close()
    db.close()
  })

  const answering = (body: unknown, status = 200, headers: Record<string, string> = {}) => {
    const { "content-length": _length, "content-encoding": _coding, "transfer-encoding": _chunked, ...kept } = search.headers
    next = { status, headers: { ...kept, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) }
  }
  const searchOfFake = () => fetch(`${fake.base}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris`)

  it("passes the real server's answer, served again as it was", async () => {
    answering(search.body)
    expect((await searchOfFake()).status).toBe(200)
  })

  it("fails an undocumented field, at the top and in a trip", async () => {
    answering({ ...search.body, undocumented: 1 })
    await expect(searchOfFake()).rejects.toThrow(ContractViolation)
    await expect(searchOfFake()).rejects.toThrow(/must NOT have additional properties \(undocumented\)/)
    answering({ ...search.body, trips: [{ ...search.body.trips[0], driver_phone: "+33 6 00 00 00 00" }] })
    await expect(searchOfFake()).rejects.toThrow(/\/trips\/0 must NOT have additional properties \(driver_phone\)/)
    answering({ ...search.body, trips: [{ ...search.body.trips[0], price: { ...search.body.trips[0].price, cents: 1 } }] })
    await expect(searchOfFake()).rejects.toThrow(/\/trips\/0\/price must NOT have additional properties \(cents\)/)
  })

  it("fails a field of the wrong type, an undocumented status, content type or header value", async () => {
    answering({ ...search.body, pager: { ...search.body.pager, total: "12" } })
    await expect(searchOfFake()).rejects.toThrow(/\/pager\/total must be integer/)
    answering(search.body, 418)
    await expect(searchOfFake()).rejects.toThrow(/status 418 is not documented/)
    answering("<html></html>", 200, { "content-type": "text/html; charset=utf-8" })
    await expect(searchOfFake()).rejects.toThrow(/Content-Type text\/html is not documented/)
    answering('<?xml version="1.0"?><trips/>', 200, { "content-type": "application/xml; charset=utf-8" })
    await expect(searchOfFake()).rejects.toThrow(/root element response/)
    answering(search.body, 200, { "cache-control": "public, max-age=86400" })
    await expect(searchOfFake()).rejects.toThrow(/header Cache-Control/)
    // A 405 must say what is allowed.
    const refusal = { error: { code: "405", "developper-message": "method.not_allowed", message: "no", "support-link": "https://www.test/developers/errors#method.not_allowed" } }
    // (A 405 is refused before the key is looked up: without the search's quota headers.)
    const refusing = (allow: string) => {
      answering(refusal, 405, { "cache-control": "no-store", allow })
      delete next.headers["x-ratelimit-limit-day"]
      delete next.headers["x-ratelimit-remaining-day"]
    }
    refusing("GET")
    await expect(fetch(`${fake.base}/api/v2/trips`, { method: "POST" })).rejects.toThrow(/header Allow/)
    refusing("GET, HEAD, OPTIONS")
    expect((await fetch(`${fake.base}/api/v2/trips`, { method: "POST" })).status).toBe(405)
    // A header of the service's own that the document does not declare for the answer.
    answering(refusal, 405, { "cache-control": "no-store", allow: "GET, HEAD, OPTIONS" })
    await expect(fetch(`${fake.base}/api/v2/trips`, { method: "POST" })).rejects.toThrow(/header x-ratelimit-limit-day is sent but not declared/)
  })

  it("reads the same answer the caller then reads, and leaves its body unread", async () => {
    answering(search.body)
    const response = await searchOfFake()
    expect(response.bodyUsed).toBe(false)
    expect(await response.json()).toEqual(search.body)
  })

  it("checks an answer as a whole: openApiContract alone", () => {
    const contract = openApiContract(document)
    const headers = new Headers(search.headers)
    const exchange = { method: "GET", url: "/api/v2/trips", status: 200, headers, body: JSON.stringify(search.body) }
    expect(contract.check(exchange)).toEqual([])
    expect(contract.check({ ...exchange, body: JSON.stringify({ ...search.body, extra: true }) })).toHaveLength(1)
    // Outside the API: the website's pages and /metrics are not the document's.
    expect(contract.check({ ...exchange, url: "/search", headers: new Headers({ "content-type": "text/html" }), body: "<p>" })).toEqual([])
    // A path the document does not list answers only its Error objects.
    expect(contract.check({ ...exchange, url: "/api/v3/trips" })[0]).toMatch(/status 200 is not documented/)
  })
})
