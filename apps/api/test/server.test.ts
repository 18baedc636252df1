import { spawn } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { feedLines } from "@tripsearch/dataset"
import { Gazetteer } from "@tripsearch/gazetteer"
import { createKey, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DATASET_SEED, REPO_ROOT } from "../src/config.js"
import { type ApiServer, createServer } from "../src/createServer.js"
import { type DemoKey, ensureDataset } from "../src/ensureDataset.js"

const TRIPS = 300
const API_BASE = "https://api.example.test"
const WEBSITE_BASE = "https://www.example.test"

interface FeedWaypoint {
  readonly city: string
  readonly lat: number
  readonly lon: number
  readonly country: string
}

/** A waypoint's `city_name` in a locale (docs/API.md, Place names). */
const nameIn = (w: FeedWaypoint, locale: "fr_FR" | "ru_RU" | "uk_UA") => Gazetteer.shared().localCityName(w.city, w.country, w.lat, w.lon, locale)
interface FeedLine {
  readonly id: string
  readonly status?: string
  readonly departure_time: string
  readonly waypoints: ReadonlyArray<FeedWaypoint>
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const SEARCH_KEYS = [
  "links", "pager", "trips", "top_trips", "facets", "distance", "duration", "recommended_price", "savings",
  "lowest_price", "lowest_price_object", "full_trips_count", "total_trip_count_to_display", "sorting_algorithm", "has_bus"
]
const TRIP_KEYS = [
  "links", "departure_date", "departure_place", "arrival_place", "price", "price_with_commission", "price_without_commission",
  "commission", "seats_left", "seats", "duration", "distance", "permanent_id", "car", "multimodal_id", "viaggio_rosa",
  "is_comfort", "freeway", "answer_delay", "booking_mode", "booking_type", "locations_to_display",
  "departure_passenger_routing", "arrival_passenger_routing", "corridoring_type", "vehicle_pictures"
]
const DETAIL_KEYS = [
  "links", "departure_date", "departure_date_iso8601", "is_passed", "departure_place", "arrival_place", "price",
  "price_with_commission", "price_without_commission", "commission", "seats_left", "seats", "seats_count_origin",
  "duration", "distance", "permanent_id", "car", "viaggio_rosa", "is_comfort", "freeway", "luggage", "stop_overs",
  "detour", "schedule", "question_response_count", "booking_mode", "booking_type", "is_booking_allowed", "view_count",
  "cross_border_alert", "trip_plan", "messaging_status", "display_contact", "can_report"
]
const LOCAL_DATE = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/

const expectPrice = (price: Json, withColor: boolean) => {
  expect(typeof price.value).toBe("number")
  expect(price.currency).toBe("EUR")
  expect(typeof price.symbol).toBe("string")
  expect(typeof price.string_value).toBe("string")
  if (withColor) expect(["GREEN", "ORANGE", "RED"]).toContain(price.price_color)
  else expect(price.price_color).toBeUndefined()
}

const expectPlace = (place: Json) => {
  expect(typeof place.city_name).toBe("string")
  expect(typeof place.latitude).toBe("number")
  expect(typeof place.longitude).toBe("number")
  expect(place.country_code).toMatch(/^[A-Z]{2}$/)
}

describe("the API server end to end, over a small generated store", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-api-"))
  const dbPath = join(dir, "data", "trips.db")
  const demoKeyPath = join(dir, "data", "demo-key.json")
  const queryLogPath = join(dir, "data", "query-log.ndjson")
  const nowMs = Date.now()
  let demoKey: DemoKey
  let api: ApiServer
  let base: string

  beforeAll(async () => {
    const first = await ensureDataset({ dbPath, demoKeyPath, trips: TRIPS, nowMs })
    expect(first.created).toBe(true)
    demoKey = first.demoKey!
    api = await createServer({
      // The production shape: matching on the worker pool.
      config: { dbPath, publicBaseUrl: API_BASE, websiteBaseUrl: WEBSITE_BASE, queryLogPath, productionDailyLimit: undefined, matcherThreads: 2, matcherMaxQueue: 64 },
      logger: { info: () => {}, error: () => {} }
    })
    const address = await api.listen(0, "127.0.0.1")
    base = `http://127.0.0.1:${address.port}`
  })

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  // A whole trip of the feed departing in more than two hours: searching between its first and last
  // waypoints with a 1 km radius must find it.
  const target = (() => {
    for (const line of feedLines({ trips: TRIPS, seed: DATASET_SEED, nowMs })) {
      const trip = JSON.parse(line) as FeedLine
      if ((trip.status ?? "active") === "active" && Date.parse(trip.departure_time) > nowMs + 2 * 3_600_000) return trip
    }
    throw new Error("no active trip in the generated feed")
  })()
  const first = target.waypoints[0]!
  const last = target.waypoints[target.waypoints.length - 1]!
  const searchQuery =
    `locale=fr_FR&cur=EUR&fc=${first.lat}%7C${first.lon}&tc=${last.lat}%7C${last.lon}&radius=1&limit=100`

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers })

  it("created the store, then a second start reuses it and its demo key", async () => {
    expect(statSync(demoKeyPath).mode & 0o777).toBe(0o600)
    expect(existsSync(`${dbPath}.partial`)).toBe(false)
    const again = await ensureDataset({ dbPath, demoKeyPath, trips: TRIPS, nowMs: nowMs + 1000 })
    expect(again).toEqual({ created: false, demoKey })
  })

  it("answers /health with the data version", async () => {
    const response = await get("/health")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: "ok", store: "reachable", data_version: TRIPS })
  })

  it("refuses a search without a key", async () => {
    expect((await get(`/api/v2/trips?${searchQuery}`)).status).toBe(401)
  })

  it("searches: the Search response of the spec, with the target trip", async () => {
    const response = await get(`/api/v2/trips?${searchQuery}&key=${demoKey.key}`)
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("private, max-age=600")
    expect(response.headers.get("x-ratelimit-limit-day")).toBe("10000")
    const body = (await response.json()) as Json
    for (const key of SEARCH_KEYS) expect(body, key).toHaveProperty(key)
    expect(body.links).toEqual({ _self: `${API_BASE}/api/v2/trips?${searchQuery}`, _front: `${WEBSITE_BASE}/search?${searchQuery}` })
    expect(JSON.stringify(body)).not.toContain(demoKey.key)
    expect(body.pager).toMatchObject({ page: 1, limit: 100 })
    expect(body.pager.total).toBeGreaterThanOrEqual(1)
    expect(body.total_trip_count_to_display).toBe(body.pager.total)
    expect(body.sorting_algorithm).toBe("trip_date")
    expect(body.has_bus).toBe(false)
    expect(body.facets.map((f: Json) => f.name)).toEqual(["seats", "date", "hour", "price", "photo", "experience", "car_comfort"])
    const trip = (body.trips as Array<Json>).find((t) => t.permanent_id === target.id)
    expect(trip, `trip ${target.id} in the results`).toBeDefined()
    for (const key of TRIP_KEYS) expect(trip, key).toHaveProperty(key)
    expect(trip!.departure_date).toMatch(LOCAL_DATE)
    expectPlace(trip!.departure_place)
    expectPlace(trip!.arrival_place)
    expect(trip!.departure_place.city_name).toBe(nameIn(first, "fr_FR"))
    expect(trip!.arrival_place.city_name).toBe(nameIn(last, "fr_FR"))
    for (const name of ["price", "price_with_commission", "price_without_commission"]) expectPrice(trip![name], true)
    expectPrice(trip!.commission, false)
    expect(trip!.duration.unity).toBe("s")
    expect(trip!.distance.unity).toBe("km")
    expect(trip!.multimodal_id).toEqual({ source: "CARPOOLING", id: target.id })
    expect(trip!.freeway).toBe(true)
    expect(trip!.locations_to_display).toEqual(target.waypoints.map((w) => nameIn(w, "fr_FR")))
    expect(trip!.departure_passenger_routing.routes[0].type).toBe("AS_THE_CROW_FLIES")
    expect(trip!.links._self.startsWith(`${API_BASE}/api/v2/trips/${target.id}`)).toBe(true)
    expect(trip!.links._front).toBe(`${WEBSITE_BASE}/trip/${target.id}?locale=fr_FR&cur=EUR`)
    expect(trip!.links._threads.startsWith(`${API_BASE}/api/v2/trips/${target.id}/threads`)).toBe(true)
  })

  it("answers a search in XML too, rendered in the pool's worker", async () => {
    const json = (await (await get(`/api/v2/trips?${searchQuery}&key=${demoKey.key}`)).json()) as Json
    const response = await get(`/api/v2/trips?${searchQuery}&_format=xml&key=${demoKey.key}`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8")
    const xml = await response.text()
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response><links><_self>/)
    expect(xml).toContain(`<total>${json.pager.total}</total>`)
    expect(xml).toContain(`<permanent_id>${target.id}</permanent_id>`)
    const bad = await get(`/api/v2/trips?locale=fr_FR&cur=EUR&fc=1%7C2&seats=x&_format=xml&key=${demoKey.key}`)
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain("<developper-message>parameter.invalid</developper-message>")
  })

  it("serves the trip's details: the Trip detail of the spec", async () => {
    const response = await get(`/api/v2/trips/${target.id}?locale=fr_FR&cur=EUR`, { key: demoKey.key })
    expect(response.status).toBe(200)
    const detail = (await response.json()) as Json
    for (const key of DETAIL_KEYS) expect(detail, key).toHaveProperty(key)
    expect(detail.permanent_id).toBe(target.id)
    expect(detail.main_permanent_id).toBeUndefined()
    expect(detail.departure_date).toMatch(LOCAL_DATE)
    expect(detail.is_passed).toBe(false)
    expect(detail.stop_overs).toHaveLength(target.waypoints.length)
    expect(detail.stop_overs[0].departure_place).toBe(true)
    expect(detail.stop_overs[target.waypoints.length - 1].arrival_place).toBe(true)
    expect(detail.trip_plan).toHaveLength(target.waypoints.length)
    expect(detail.trip_plan[0].date).toMatch(LOCAL_DATE)
    expect(detail.can_report).toBe(true)
  })

  it("serves the same details as XML, and the threads", async () => {
    const response = await get(`/api/v2/trips/${target.id}?locale=fr_FR&cur=EUR&_format=xml`, { key: demoKey.key })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8")
    // The element structure is tested in http-express; here: the same data reaches the XML.
    const xml = await response.text()
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<response><links><_self>/)
    expect(xml).toContain(`<permanent_id>${target.id}</permanent_id>`)
    expect(xml.match(/<stop_over>/g)).toHaveLength(target.waypoints.length)
    expect(xml.match(/<step>/g)).toHaveLength(target.waypoints.length)
    expect(xml).toContain("<is_passed>false</is_passed>")
    const threads = await get(`/api/v2/trips/${target.id}/threads?locale=fr_FR`, { key: demoKey.key })
    expect(threads.status).toBe(200)
  })

  it("answers 404 trip.not_found for an unknown trip, counted", async () => {
    const response = await get("/api/v2/trips/no-such-trip?locale=fr_FR&cur=EUR", { key: demoKey.key })
    expect(response.status).toBe(404)
    expect(((await response.json()) as Json).error["developper-message"]).toBe("trip.not_found")
    expect(Number(response.headers.get("x-ratelimit-remaining-day"))).toBeLessThan(10_000)
  })

  it("answers 400 naming the parameter for a bad search", async () => {
    const response = await get("/api/v2/trips?locale=xx_XX&cur=EUR&fn=Paris", { key: demoKey.key })
    expect(response.status).toBe(400)
    const error = ((await response.json()) as Json).error
    expect(error["developper-message"]).toBe("parameter.invalid")
    expect(error.message).toContain("locale")
  })

  it("writes the query log without the key", async () => {
    // One line per API request above (10); the file stream writes asynchronously.
    const read = () => readFileSync(queryLogPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Json)
    for (let wait = 0; wait < 40 && read().length < 10; wait++) await new Promise((r) => setTimeout(r, 50))
    const lines = read()
    expect(lines.length).toBe(10)
    expect(lines.some((l) => l.path === "/api/v2/trips" && l.query === searchQuery && l.status === 200)).toBe(true)
    expect(readFileSync(queryLogPath, "utf8")).not.toContain(demoKey.key)
  })

  it("names the places in the locale's language from the pool's workers too (ru_RU, uk_UA)", async () => {
    // A trip whose ends have Russian names that differ from the feed's text.
    const trips = [...feedLines({ trips: TRIPS, seed: DATASET_SEED, nowMs })].map((line) => JSON.parse(line) as FeedLine)
    const russian = trips.find(
      (t) =>
        (t.status ?? "active") === "active" &&
        Date.parse(t.departure_time) > nowMs + 2 * 3_600_000 &&
        [t.waypoints[0]!, t.waypoints.at(-1)!].every((w) => nameIn(w, "ru_RU") !== w.city)
    )!
    expect(russian, "a trip between cities with Russian names").toBeDefined()
    const [from, to] = [russian.waypoints[0]!, russian.waypoints.at(-1)!]
    for (const [locale, cur] of [["ru_RU", "RUB"], ["uk_UA", "UAH"]] as const) {
      const query = `locale=${locale}&cur=${cur}&fc=${from.lat}%7C${from.lon}&tc=${to.lat}%7C${to.lon}&radius=1&limit=100`
      const body = (await (await get(`/api/v2/trips?${query}&key=${demoKey.key}`)).json()) as Json
      const trip = (body.trips as Array<Json>).find((t) => t.permanent_id === russian.id)!
      expect([trip.departure_place.city_name, trip.arrival_place.city_name]).toEqual([nameIn(from, locale), nameIn(to, locale)])
      expect(trip.locations_to_display).toEqual(russian.waypoints.map((w) => nameIn(w, locale)))
    }
    expect(nameIn(from, "ru_RU")).toMatch(/\p{Script=Cyrillic}/u)
    expect(nameIn(from, "ru_RU")).not.toMatch(/\p{Script=Latin}/u)
  })
})

describe("PRODUCTION_DAILY_LIMIT", () => {
  it("becomes the daily limit of production keys, basic keys keep theirs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-limit-"))
    const dbPath = join(dir, "trips.db")
    const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 20, nowMs: Date.now() })
    const db = openDatabase(dbPath)
    const production = createKey(db, { name: "partner", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    const api = await createServer({
      config: { dbPath, publicBaseUrl: API_BASE, websiteBaseUrl: WEBSITE_BASE, queryLogPath: undefined, productionDailyLimit: 2, matcherThreads: 0, matcherMaxQueue: 1 },
      logger: { info: () => {}, error: () => {} }
    })
    try {
      const { port } = await api.listen(0, "127.0.0.1")
      const ask = (key: string) => fetch(`http://127.0.0.1:${port}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris`, { headers: { key } })
      const basic = await ask(demoKey!.key)
      expect(basic.headers.get("x-ratelimit-limit-day")).toBe("10000")
      expect((await ask(production)).headers.get("x-ratelimit-limit-day")).toBe("2")
      expect((await ask(production)).status).toBe(200)
      const over = await ask(production)
      expect(over.status).toBe(429)
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
    } finally {
      await api.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("the search pool under a burst", () => {
  it("answers 503 service.overloaded with Retry-After past its queue, never a backlog, then serves again", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-burst-"))
    const dbPath = join(dir, "trips.db")
    const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 2_000, nowMs: Date.now() })
    const api = await createServer({
      config: { dbPath, publicBaseUrl: API_BASE, websiteBaseUrl: WEBSITE_BASE, queryLogPath: undefined, productionDailyLimit: undefined, matcherThreads: 1, matcherMaxQueue: 1 },
      logger: { info: () => {}, error: () => {} }
    })
    try {
      const { port } = await api.listen(0, "127.0.0.1")
      // Searches by city name around a large radius: each takes the worker a while, and 40 arrive
      // at once for one worker and one waiting place.
      const ask = () =>
        fetch(`http://127.0.0.1:${port}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&radius=300&limit=100`, { headers: { key: demoKey!.key } })
      const burst = await Promise.all(Array.from({ length: 40 }, ask))
      const statuses = burst.map((r) => r.status)
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2)
      const refused = burst.filter((r) => r.status === 503)
      expect(refused.length).toBeGreaterThan(0)
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
      for (const r of refused) {
        expect(r.headers.get("retry-after")).toBe("1")
        expect(((await r.json()) as Json).error["developper-message"]).toBe("service.overloaded")
      }
      expect((await ask()).status).toBe(200)
    } finally {
      await api.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("main", () => {
  const mainJs = resolve(REPO_ROOT, "apps/api/dist/main.js")

  it("reuses an existing store, prints the demo key and a curl, and exits 0 on SIGTERM", async () => {
    expect(existsSync(mainJs), "build apps/api first (npx tsc -p apps/api)").toBe(true)
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-main-"))
    try {
      const dbPath = join(dir, "trips.db")
      const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 50, nowMs: Date.now() })
      const child = spawn(process.execPath, [mainJs], {
        env: { ...process.env, PORT: "0", HOST: "127.0.0.1", TRIPSEARCH_DB: dbPath, QUERY_LOG: "off", PUBLIC_BASE_URL: "http://api.test" },
        stdio: ["ignore", "ignore", "pipe"]
      })
      let stderr = ""
      const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
      const port = await new Promise<number>((done, fail) => {
        child.stderr.setEncoding("utf8")
        child.stderr.on("data", (chunk: string) => {
          stderr += chunk
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)
          if (m && stderr.includes("curl")) done(Number(m[1]))
        })
        void exited.then((code) => fail(new Error(`main exited with ${code}: ${stderr}`)))
      })
      expect(stderr).toContain(demoKey!.key)
      expect(stderr).toContain(`curl 'http://api.test/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon' -H 'key: ${demoKey!.key}'`)
      expect(stderr).not.toContain("first start")
      const health = await fetch(`http://127.0.0.1:${port}/health`)
      expect(health.status).toBe(200)
      child.kill("SIGTERM")
      expect(await exited).toBe(0)
      expect(stderr).toContain("stopped")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
