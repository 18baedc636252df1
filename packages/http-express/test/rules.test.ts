import {
  decodeDetailsQuery, decodeSearchQuery, FLAG_VALUES, FORMATS, LOCALE_TABLE, LOCALES, ORDERS, SEARCH_FIELD_NAMES,
  SORTS, TRIP_FIELD_NAMES, type LocaleCode, type RawParams
} from "@tripsearch/core"
import { feedLines } from "@tripsearch/dataset"
import { GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { Either } from "effect"
import { XMLParser } from "fast-xml-parser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createApp } from "../src/index.js"
import { listenOverStore, type RealStack } from "./testServer.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === "trip" })

describe("fields, errors that state the rule, _front and color_hexa over a real listening server", () => {
  const nowMs = Date.now()
  const db = openDatabase(":memory:")
  let running: RealStack
  let key: string
  let first: Json
  let multi: Json

  beforeAll(async () => {
    const lines = [...feedLines({ trips: 60, seed: "http-rules", nowMs })]
    const trips = lines.map((l) => JSON.parse(l) as Json)
    first = trips.find((t) => (t.status ?? "active") === "active" && Date.parse(t.departure_time) > nowMs + 7_200_000)!
    multi = trips.find((t) => (t.status ?? "active") === "active" && Date.parse(t.departure_time) > nowMs + 7_200_000 && t.waypoints.length >= 3)!
    // Two copies of the first trip whose colours are written the two ways the feed allows.
    const colored = (id: string, hexa: string) => JSON.stringify({ ...first, id, car: { ...first.car, color_hexa: hexa } })
    const result = await importFeed(db, [...lines, colored("hexa-hash", "#d8c8a8"), colored("hexa-plain", "a0B1c2")])
    expect(result.ok).toBe(true)
    running = await listenOverStore(db, "rules")
    key = running.key
  })

  afterAll(async () => {
    await running?.close()
    db.close()
  })

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${running.base}${path}`, { headers: { key, ...headers } })
  const between = () => {
    const w = first.waypoints as Array<Json>
    return `locale=fr_FR&cur=EUR&fc=${w[0]!.lat}%7C${w[0]!.lon}&tc=${w[w.length - 1]!.lat}%7C${w[w.length - 1]!.lon}&radius=1`
  }

  describe("fields", () => {
    const asked = ["departure_date", "price", "seats_left", "seats", "permanent_id"] // in trip response order
    const fields = "trips,seats,seats_left,departure_date,permanent_id,price"

    it("fields=trips,seats,... as real clients send it: only trips, each trimmed to the named fields (JSON)", async () => {
      const response = await get(`/api/v2/trips?${between()}&fields=${fields}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as Json
      expect(Object.keys(body)).toEqual(["trips"])
      expect(body.trips.map((t: Json) => t.permanent_id)).toContain(first.id)
      for (const t of body.trips as Array<Json>) expect(Object.keys(t)).toEqual(asked)
      const whole = (await (await get(`/api/v2/trips?${between()}`)).json()) as Json
      expect(body.trips).toEqual(whole.trips.map((t: Json) => Object.fromEntries(asked.map((k) => [k, t[k]]))))
    })

    it("the same in XML, and top_trips trimmed alike when listed", async () => {
      const response = await get(`/api/v2/trips?${between()}&fields=${fields}&_format=xml`)
      expect(response.status).toBe(200)
      const doc = xml.parse(await response.text()).response
      expect(Object.keys(doc)).toEqual(["trips"])
      for (const t of doc.trips.trip as Array<Json>) expect(Object.keys(t)).toEqual(asked)
      const both = (await (await get(`/api/v2/trips?${between()}&fields=top_trips,trips,seats`)).json()) as Json
      expect(Object.keys(both)).toEqual(["trips", "top_trips"])
      for (const t of [...both.trips, ...both.top_trips] as Array<Json>) expect(Object.keys(t)).toEqual(["seats"])
    })

    it("a name that is neither a top-level nor a trip field is a 400 naming it", async () => {
      const response = await get(`/api/v2/trips?${between()}&fields=trips,seats,nope`)
      expect(response.status).toBe(400)
      expect(((await response.json()) as Json).error.message).toContain('"nope"')
    })
  })

  describe("a 400 for a value from a list names every allowed value", () => {
    const expectRule = async (path: string, parameter: string, given: string, allowed: ReadonlyArray<string>, core?: string) => {
      for (const headers of [{}, { accept: "application/xml" }]) {
        const response = await get(path, headers)
        expect(response.status, path).toBe(400)
        const text = await response.text()
        // A bad _format cannot choose the format of its own error: it is JSON whatever Accept says.
        const isXml = response.headers.get("content-type")!.includes("xml")
        expect(isXml).toBe("accept" in headers && parameter !== "_format")
        const message: string = isXml ? xml.parse(text).response.error.message : (JSON.parse(text) as Json).error.message
        expect(message.startsWith(`${parameter}: `), message).toBe(true)
        expect(message).toContain(JSON.stringify(given))
        const words = new Set(message.split(/[\s,"():]+/))
        for (const value of allowed) expect(words, `${value} in ${message}`).toContain(value)
        expect(message).not.toMatch(/Expected|actual/)
        if (core !== undefined) expect(message).toBe(core)
      }
    }
    const coreMessage = (decode: (p: RawParams) => Either.Either<unknown, { message: string }>, params: RawParams) =>
      Either.match(decode(params), { onLeft: (e) => e.message, onRight: () => "accepted" })
    const search = (extra: Record<string, string>) => {
      const params = { locale: "fr_FR", cur: "EUR", fn: "Paris", ...extra }
      return { path: `/api/v2/trips?${new URLSearchParams(params)}`, core: coreMessage(decodeSearchQuery, params) }
    }
    const details = (extra: Record<string, string>) => {
      const params = { locale: "fr_FR", ...extra }
      return { path: `/api/v2/trips/${first.id}?${new URLSearchParams(params)}`, core: coreMessage(decodeDetailsQuery, params) }
    }

    it("locale: all 23 locales, in the search and the details; checked before cur", async () => {
      for (const { path, core } of [search({ locale: "fr_CA" }), search({ locale: "fr_CA", cur: "CAD" }), details({ locale: "fr_CA", cur: "CAD" })]) {
        await expectRule(path, "locale", "fr_CA", LOCALES, core)
      }
    })

    it.each(LOCALES)("cur with %s: the locale's default and alternative currencies", async (locale) => {
      const info = LOCALE_TABLE[locale as LocaleCode]
      const allowed = info.alternative === undefined ? [info.currency] : [info.currency, info.alternative]
      for (const make of [search, details]) {
        const { path, core } = make({ locale, cur: "USD" })
        await expectRule(path, "cur", "USD", allowed, core)
      }
    })

    it.each([
      ["sort", SORTS],
      ["order", ORDERS],
      ["photo", FLAG_VALUES],
      ["aa", FLAG_VALUES],
      ["shortlines", FLAG_VALUES]
    ] as const)("%s: every value", async (parameter, allowed) => {
      const { path, core } = search({ [parameter]: "price" })
      await expectRule(path, parameter, "price", allowed, core)
    })

    it("_format: json and xml, in the search and the details", async () => {
      await expectRule(search({ _format: "yaml" }).path, "_format", "yaml", FORMATS)
      await expectRule(details({ _format: "yaml" }).path, "_format", "yaml", FORMATS)
    })

    it("fields: every top-level and every trip field", async () => {
      const { path, core } = search({ fields: "trips,nope" })
      await expectRule(path, "fields", "nope", [...SEARCH_FIELD_NAMES, ...TRIP_FIELD_NAMES], core)
    })
  })

  describe("links", () => {
    it("a search's _front carries the search's own parameters only; _self keeps the query as asked, but the key", async () => {
      const query = `${between()}&_format=xml&fields=links&limit=2`
      const doc = xml.parse(await (await get(`/api/v2/trips?${query}&key=${key}`)).text()).response
      expect(doc.links._self).toBe(`https://api.test/api/v2/trips?${query}`)
      expect(doc.links._front).toBe(`https://www.test/search?${between()}&limit=2`)
      const json = (await (await get(`/api/v2/trips?fields=links&${between()}`)).json()) as Json
      expect(json.links._front).toBe(`https://www.test/search?${between()}`)
    })

    it("_front keeps the traveller's locale and currency: on a search, its trips, a sub-trip and details", async () => {
      const w = multi.waypoints as Array<Json>
      const n = w.length - 1
      const subId = `${multi.id}_1_${n}`
      const query = `locale=en_GB&cur=EUR&fc=${w[1]!.lat}%7C${w[1]!.lon}&tc=${w[n]!.lat}%7C${w[n]!.lon}&radius=1`
      const body = (await (await get(`/api/v2/trips?${query}`)).json()) as Json
      expect(body.links._front).toBe(`https://www.test/search?${query}`)
      const listed = [...(body.trips as Array<Json>), ...(body.top_trips as Array<Json>)]
      expect(listed.map((t) => t.permanent_id)).toContain(subId)
      for (const t of listed) {
        expect(t.links._front).toBe(`https://www.test/trip/${encodeURIComponent(t.permanent_id)}?locale=en_GB&cur=EUR`)
      }
      // Details: the currency asked, else the locale's own.
      for (const [asked, front] of [
        ["locale=it_IT", "locale=it_IT&cur=EUR"],
        ["locale=en_GB&cur=GBP", "locale=en_GB&cur=GBP"],
        ["cur=EUR&locale=hr_HR", "locale=hr_HR&cur=EUR"]
      ] as const) {
        for (const id of [subId, multi.id as string]) {
          const detail = (await (await get(`/api/v2/trips/${encodeURIComponent(id)}?${asked}`)).json()) as Json
          expect(detail.links._front, `${id} ${asked}`).toBe(`https://www.test/trip/${encodeURIComponent(id)}?${front}`)
        }
      }
    })
  })

  describe("color_hexa", () => {
    it("is answered as six upper-case hex digits, whether the feed wrote #rrggbb or mixed case", async () => {
      for (const [id, answered] of [["hexa-hash", "D8C8A8"], ["hexa-plain", "A0B1C2"]]) {
        const json = (await (await get(`/api/v2/trips/${id}?locale=fr_FR`)).json()) as Json
        expect(json.car.color_hexa).toBe(answered)
        const doc = xml.parse(await (await get(`/api/v2/trips/${id}?locale=fr_FR&_format=xml`)).text()).response
        expect(doc.car.color_hexa).toBe(answered)
      }
    })

    it("is answered upper-case for a row stored before the rule, in lower case", async () => {
      db.prepare("UPDATE trips SET trip_json = json_set(trip_json, '$.car.color_hexa', 'abcdef') WHERE id = 'hexa-plain'").run()
      expect(JSON.parse(db.prepare("SELECT trip_json FROM trips WHERE id = 'hexa-plain'").pluck().get() as string).car.color_hexa).toBe("abcdef")
      const json = (await (await get(`/api/v2/trips/hexa-plain?locale=fr_FR`)).json()) as Json
      expect(json.car.color_hexa).toBe("ABCDEF")
    })
  })
})
