import { type JsonValue } from "@tripsearch/core"
import { feedLines } from "@tripsearch/dataset"
import { GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { ManagedRuntime } from "effect"
import { XMLParser } from "fast-xml-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp, XML_GENERIC_ITEM, XML_SINGULARS } from "../src/index.js"
import { listenOverStore, type RealStack } from "./testServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** What XMLParser (no value parsing, item names forced to arrays) reads back from `toXml(json)`. */
const expectedFromXml = (name: string, value: JsonValue): unknown => {
  if (Array.isArray(value)) {
    if (value.length === 0) return ""
    const singular = XML_SINGULARS[name] ?? XML_GENERIC_ITEM
    return { [singular]: value.map((item) => expectedFromXml(singular, item)) }
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
    return entries.length === 0 ? "" : Object.fromEntries(entries.map(([k, v]) => [k, expectedFromXml(k, v)]))
  }
  return typeof value === "boolean" ? (value ? "true" : "false") : String(value)
}

// An element is an array item when its parent is an array element: the singular of its parent's
// name, or the generic item of any other array (a car's `picture` string is not an item).
const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  isArray: (name, jpath) => {
    const path = String(jpath).split(".")
    const parent = path[path.length - 2] ?? ""
    return XML_SINGULARS[parent] === name || (name === XML_GENERIC_ITEM && !(parent in XML_SINGULARS))
  }
})

describe("createApp over the real core, SQLite store, gazetteer and in-thread matcher", () => {
  const nowMs = Date.now()
  const db = openDatabase(":memory:")
  let running: RealStack
  let key: string
  let firstTrip: Json

  beforeAll(async () => {
    const lines = [...feedLines({ trips: 400, seed: "http-express", nowMs })]
    const result = await importFeed(db, lines)
    expect(result.ok).toBe(true)
    firstTrip = lines.map((l) => JSON.parse(l) as Json).find((t) => (t.status ?? "active") === "active" && Date.parse(t.departure_time) > nowMs + 7_200_000)!
    running = await listenOverStore(db, "test")
    key = running.key
  })

  afterAll(async () => {
    await running?.close()
    db.close()
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${running.base}${path}`, { headers: { key, ...headers } })

  const tripQuery = () => {
    const w = firstTrip.waypoints as Array<Json>
    const a = w[0]!
    const b = w[w.length - 1]!
    return `locale=fr_FR&cur=EUR&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}&radius=1`
  }

  it("finds a trip between its ends, with links on the configured bases and without the key", async () => {
    const response = await get(`/api/v2/trips?${tripQuery()}&key=${key}`, {})
    expect(response.status).toBe(200)
    const body = (await response.json()) as Json
    expect(body.links._self).toBe(`https://api.test/api/v2/trips?${tripQuery()}`)
    expect(body.trips.map((t: Json) => t.permanent_id)).toContain(firstTrip.id)
    expect(JSON.stringify(body)).not.toContain(key)
  })

  it("gives the same data in XML as in JSON, for a search and a detail", async () => {
    for (const path of [`/api/v2/trips?${tripQuery()}`, `/api/v2/trips/${firstTrip.id}?locale=de_DE&cur=EUR`]) {
      const json = (await (await get(path)).json()) as Json
      // Asked through Accept, so that the query (and thus the links) is the same as the JSON's.
      const xmlResponse = await get(path, { accept: "application/xml" })
      expect(xmlResponse.status).toBe(200)
      const doc = parser.parse(await xmlResponse.text()).response
      expect(doc).toEqual(expectedFromXml("response", json))
      expect(Object.keys(doc)).toEqual(Object.keys(json))
    }
  })

  it("maps the core's errors: unknown place 404, bad parameter 400, repeated parameter 400, unknown trip 404", async () => {
    const place = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Qwxzyvillezz")
    expect(place.status).toBe(404)
    expect(((await place.json()) as Json).error["developper-message"]).toBe("place.not_found")
    const bad = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&limit=1000")
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as Json).error.message).toContain("limit")
    const repeated = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&fn=Lyon")
    expect(repeated.status).toBe(400)
    expect(((await repeated.json()) as Json).error.message).toContain("fn")
    const missing = await get("/api/v2/trips?cur=EUR&fn=Paris")
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as Json).error["developper-message"]).toBe("parameter.missing")
    const trip = await get("/api/v2/trips/no-such-trip?locale=fr_FR")
    expect(trip.status).toBe(404)
    expect(((await trip.json()) as Json).error["developper-message"]).toBe("trip.not_found")
  })

  it("resolves place names through the gazetteer", async () => {
    const response = await get("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon")
    expect(response.status).toBe(200)
    const body = (await response.json()) as Json
    expect(body.distance).toBeGreaterThan(350)
  })

  it("counts 200 and 404 answers against the key's quota, in the real key store", async () => {
    const before = Number((await get(`/api/v2/trips?${tripQuery()}`)).headers.get("x-ratelimit-remaining-day"))
    await get("/api/v2/trips/no-such-trip?locale=fr_FR")
    await get("/api/v2/trips?cur=EUR")
    const after = Number((await get(`/api/v2/trips?${tripQuery()}`)).headers.get("x-ratelimit-remaining-day"))
    expect(before - after).toBe(2)
  })
})
