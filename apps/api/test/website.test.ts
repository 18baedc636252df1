import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { haversineKm } from "@tripsearch/core"
import { ERROR_TOKENS, openApiDocument } from "@tripsearch/http-express"
import { feedLines } from "@tripsearch/dataset"
import { Gazetteer } from "@tripsearch/gazetteer"
import { createKey, importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"

const CERT = Array.from({ length: 32 }, (_, k) => (k * 7).toString(16).padStart(2, "0").toUpperCase()).join(":")

const NAUGHTY = `<script>alert("x")</script>`

interface FeedLine {
  readonly id: string
  readonly status?: string
  readonly departure_time: string
  readonly seats_left: number
  readonly waypoints: Array<{ city: string; lat: number; lon: number; country: string }>
  readonly messaging_status?: string
  readonly questions?: Array<{ question: string; answer?: string; asked_at: string }>
  readonly car: { make: string; model: string }
}

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const REPO = resolve(import.meta.dirname, "../../..")

/** Every error token a source file of the server writes (`token: "x.y"`), wherever it is produced. */
const tokensInSources = (): Set<string> => {
  const found = new Set<string>()
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".ts")) for (const m of readFileSync(path, "utf8").matchAll(/token: "([a-z_]+\.[a-z_]+)"/g)) found.add(m[1]!)
    }
  }
  for (const root of ["packages", "apps"]) {
    for (const pkg of readdirSync(join(REPO, root))) {
      try {
        walk(join(REPO, root, pkg, "src"))
      } catch {
        // A folder without sources.
      }
    }
  }
  return found
}

const unescape = (s: string): string =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&")

/** The permanent ids a search page lists, in page order. */
const shownIds = (page: string): Array<string> => [...page.matchAll(/<li data-id="([^"]+)"/g)].map((m) => unescape(m[1]!))

describe("the website, served by the API server over a small store", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-website-"))
  const dbPath = join(dir, "trips.db")
  const nowMs = Date.now()
  const trips: Array<FeedLine> = []
  let key: string
  let api: ApiServer
  let base: string

  beforeAll(async () => {
    const lines = [...feedLines({ trips: 400, seed: "website", nowMs })]
    for (const line of lines) trips.push(JSON.parse(line) as FeedLine)
    // One trip's stop-over carries markup in its name: the pages must show it as text.
    const marked = trips.find((t) => (t.status ?? "active") === "active" && t.waypoints.length >= 3 && Date.parse(t.departure_time) > nowMs + 3_600_000)!
    marked.waypoints[1]!.city = NAUGHTY
    const db = openDatabase(dbPath)
    expect((await importFeed(db, trips.map((t) => JSON.stringify(t)))).ok).toBe(true)
    key = createKey(db, { name: "website-test", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    api = await createServer({
      config: {
        dbPath,
        publicBaseUrl: "http://api.example.test",
        websiteBaseUrl: "http://www.example.test",
        queryLogPath: join(dir, "query-log.ndjson"),
        productionDailyLimit: undefined,
        matcherThreads: 1,
        metrics: true,
        appLinks: { android: { packageName: "com.example.rides", certFingerprints: [CERT] }, ios: { appId: "ABCDE12345.com.example.rides" } }
      },
      logger: { info: () => {}, error: () => {} }
    })
    base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 60_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const apiJson = async (query: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${base}/api/v2/trips?${query}`, { headers: { key } })
    return { status: res.status, body: (await res.json()) as Json }
  }
  const page = async (path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> => {
    const res = await fetch(`${base}${path}`, { headers })
    return { status: res.status, text: await res.text(), type: res.headers.get("content-type") }
  }

  /** The label of a form field, as the page in that locale writes it. */
  const labelOf = async (locale: string, name: string): Promise<string> => {
    const home = await page(`/search?locale=${locale}`)
    return unescape(new RegExp(`<label>([^<]+)<input name="${name}"`).exec(home.text)![1]!)
  }
  const active = () => trips.filter((t) => (t.status ?? "active") === "active" && Date.parse(t.departure_time) > nowMs + 3_600_000)
  const at = (w: { lat: number; lon: number }) => encodeURIComponent(`${w.lat}|${w.lon}`)

  it("lists the API's trips, in the API's order, for the same parameters", async () => {
    // Far enough apart that the search does not take them for a short line.
    const far = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => Math.abs(a.lat - b.lat) + Math.abs(a.lon - b.lon) > 1
    // The feed is made around the test's own time, so which trips are still to leave varies: the
    // trip chosen is the one whose departure has the most others leaving near it (a trip in a
    // country of few trips would leave the wide search below one page).
    const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => haversineKm(a.lat, a.lon, b.lat, b.lon)
    const neighbours = (t: FeedLine) => active().filter((o) => o.seats_left >= 1 && o.waypoints.slice(0, -1).some((w) => km(w, t.waypoints[0]!) <= 400)).length
    const whole = active()
      .filter((t) => far(t.waypoints[0]!, t.waypoints.at(-1)!) && !t.waypoints.some((w) => w.city === NAUGHTY))
      .map((t) => ({ t, n: neighbours(t) }))
      .reduce((a, b) => (b.n > a.n ? b : a)).t
    const long = active().find((t) => t.waypoints.length >= 4 && far(t.waypoints[1]!, t.waypoints[2]!))!
    // The last page of a wide search: how many pages it has depends on the feed.
    const wide = `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500&limit=5&seats=1`
    const lastPage = (await apiJson(wide)).body.pager.pages as number
    expect(lastPage).toBeGreaterThanOrEqual(2)
    const queries = [
      `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&tc=${at(whole.waypoints.at(-1)!)}&radius=50`,
      // A sub-trip: between two stop-overs of a longer trip.
      `locale=en_GB&cur=GBP&fc=${at(long.waypoints[1]!)}&tc=${at(long.waypoints[2]!)}&radius=10`,
      `locale=de_DE&cur=EUR&fn=${encodeURIComponent(whole.waypoints[0]!.city)}&radius=200&sort=trip_price&order=desc&limit=3`,
      // A later page of a wide search.
      `locale=es_ES&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500&limit=2&page=2`,
      `${wide}&page=${lastPage}`
    ]
    let subTrips = 0
    for (const query of queries) {
      const fromApi = await apiJson(query)
      expect(fromApi.status, query).toBe(200)
      const ids = (fromApi.body.trips as Array<Json>).map((t) => String(t.permanent_id))
      expect(ids.length, query).toBeGreaterThan(0)
      subTrips += ids.filter((id) => /_\d+_\d+$/.test(id)).length
      const fromSite = await page(`/search?${query}`)
      expect(fromSite.status, query).toBe(200)
      expect(fromSite.type).toBe("text/html; charset=utf-8")
      expect(shownIds(fromSite.text), query).toEqual(ids)
    }
    expect(subTrips).toBeGreaterThan(0)
    expect((await apiJson(queries[3]!)).body.pager.page).toBe(2)
  })

  it("follows the API's _front link of a search to the same trips, and names the next page", async () => {
    const whole = active()[0]!
    const query = `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500&limit=2`
    const { body } = await apiJson(query)
    const front = new URL(String(body.links._front))
    expect(front.pathname).toBe("/search")
    const fromSite = await page(`${front.pathname}${front.search}`)
    expect(shownIds(fromSite.text)).toEqual((body.trips as Array<Json>).map((t) => t.permanent_id))
    expect(fromSite.text).toContain('rel="next" href="/search?')
    expect(fromSite.text).toMatch(/rel="next" href="[^"]*page=2/)
  })

  it("shows every stop-over of a trip, marks the searched part, and draws the route", async () => {
    const long = active().find((t) => t.waypoints.length >= 3 && !t.waypoints.some((w) => w.city === NAUGHTY))!
    const whole = await page(`/trip/${encodeURIComponent(long.id)}?locale=fr_FR`)
    expect(whole.status).toBe(200)
    const stops = [...whole.text.matchAll(/<li( class="searched")?><time>[^<]*<\/time> ([^<,(]*)/g)]
    // The places in French, as the API names them (docs/API.md, Place names).
    expect(stops.map((m) => unescape(m[2]!).trim())).toEqual(
      long.waypoints.map((w) => Gazetteer.shared().localCityName(w.city, w.country, w.lat, w.lon, "fr_FR"))
    )
    expect(stops.every((m) => m[1] !== undefined)).toBe(true)
    expect(whole.text.match(/<circle /g)?.length).toBe(long.waypoints.length)
    // The price as the API formats it for the locale.
    const detail = (await (await fetch(`${base}/api/v2/trips/${encodeURIComponent(long.id)}?locale=fr_FR&cur=EUR`, { headers: { key } })).json()) as Json
    expect(whole.text).toContain(`<strong class="price">${String(detail.price.string_value)}</strong>`)

    const part = await page(`/trip/${encodeURIComponent(`${long.id}_1_2`)}?locale=en_GB`)
    expect(part.status).toBe(200)
    const marks = [...part.text.matchAll(/<li( class="searched")?><time>/g)].map((m) => m[1] !== undefined)
    expect(marks).toEqual(long.waypoints.map((_, k) => k === 1 || k === 2))
    expect(part.text).toContain(`href="/trip/${encodeURIComponent(long.id)}?`)
  })

  /** The page's script elements: only the site's own files, and the map's JSON data, which is not run. */
  const scriptsOf = (text: string): Array<string> => [...text.matchAll(/<script[^>]*>/g)].map((m) => m[0])
  const OWN_SCRIPT = /^<script (defer src="\/assets\/[a-z]+-[0-9a-f]{12}\.js"|type="application\/json" id="map-data")>$/

  it("shows markup from the data and from the query as text", async () => {
    const marked = trips.find((t) => t.waypoints[1]?.city === NAUGHTY)!
    const trip = await page(`/trip/${encodeURIComponent(marked.id)}`)
    expect(trip.status).toBe(200)
    expect(scriptsOf(trip.text).every((tag) => OWN_SCRIPT.test(tag)), scriptsOf(trip.text).join(" ")).toBe(true)
    expect(trip.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
    // In the map's JSON, the name cannot close the element.
    const data = /<script type="application\/json" id="map-data">([^<]*)<\/script>/.exec(trip.text)![1]!
    expect(JSON.stringify(JSON.parse(data))).toContain(`<script>alert(\\"x\\")</script>`)

    const name = `${NAUGHTY}"><img src=x>`
    const query = `locale=en_GB&cur=GBP&fn=${encodeURIComponent(name)}&tn=Lyon`
    const fromApi = await apiJson(query)
    const fromSite = await page(`/search?${query}`)
    expect(fromSite.status).toBe(fromApi.status)
    expect(fromSite.status).toBe(404)
    expect(scriptsOf(fromSite.text).every((tag) => OWN_SCRIPT.test(tag))).toBe(true)
    expect(fromSite.text).not.toContain("<img")
    // The form keeps what was typed, as text.
    expect(unescape(/<input id="fn" name="fn" type="text" value="([^"]*)"/.exec(fromSite.text)![1]!)).toBe(name)
  })

  it("answers a refused search with the form kept and words for travellers: no token, no status code", async () => {
    // A field of the form is named with its rule; what the form cannot send, in general words.
    const said: Record<string, string> = {
      "locale=en_GB&cur=GBP&fn=Paris&tn=Lyon&seats=99": "“Seats” must be a whole number from 1 to 8.",
      "locale=fr_FR&cur=GBP&fn=Paris": "vérifiez les champs",
      "locale=xx_XX&fn=Paris": "check the fields",
      "fn=Paris&hb=9&he=3": "“Leaving before (hour)” must be greater than “Leaving from (hour)”.",
      "fn=Paris&tn=%ZZ": "“To” cannot be read: check what was typed."
    }
    for (const query of Object.keys(said)) {
      const fromSite = await page(`/search?${query}`, { "accept-language": "en" })
      expect(fromSite.status, query).toBe(400)
      expect(fromSite.type).toBe("text/html; charset=utf-8")
      const withLocale = /(^|&)locale=/.test(query) ? query : `${query}&locale=en_GB&cur=GBP`
      const fromApi = await apiJson(withLocale)
      expect(fromApi.status, query).toBe(400)
      const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(fromSite.text)![1]!
      expect(main, query).not.toContain(String(fromApi.body.error["developper-message"]))
      expect(main, query).not.toContain("400")
      expect(main, query).not.toContain(String(fromApi.body.error.message))
      expect(main, query).toContain(said[query])
      expect(main, query).toContain('<input id="fn" name="fn" type="text" value="Paris"')
    }
    // The website's own filters, read as strictly.
    for (const query of ["fn=Paris&experience=9", "fn=Paris&comfort=0", "fn=Paris&comfort=two"]) {
      const refused = await page(`/search?locale=en_GB&${query}`)
      expect(refused.status, query).toBe(400)
      expect(refused.text, query).toContain("check the fields")
    }
    const badId = await page("/trip/%ZZ")
    expect(badId.status).toBe(400)
    expect(badId.text).not.toContain("malformed percent-encoding")
    expect(badId.text).toContain("check the fields")
    const gone = await page("/trip/no-such-trip?locale=de_DE")
    expect(gone.status).toBe(404)
    expect(gone.text).toContain("Diese Fahrt wird nicht mehr angeboten")
    expect(gone.text).not.toContain("trip.not_found")
  })

  it("suggests towns for a place field at /places/suggest: name and country in the page's language, the locale's country first", async () => {
    const res = await fetch(`${base}/places/suggest?q=${encodeURIComponent("lyo")}&locale=fr_FR`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8")
    const { places } = (await res.json()) as { places: Array<Json> }
    expect(places.length).toBeGreaterThan(1)
    expect(places.length).toBeLessThanOrEqual(8)
    for (const p of places) {
      expect(p.name.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").startsWith("lyo")).toBe(true)
      const country = new Intl.DisplayNames(["fr-FR"], { type: "region" }).of(p.country_code)
      expect(p.value).toBe(`${p.name}, ${country}`)
      // A town with a namesake of its country in the list is told apart by the larger town near it.
      const namesakes = places.filter((o) => o.name === p.name && o.country_code === p.country_code).length
      if (namesakes === 1) expect(p.label).toBe(p.value)
      else expect(p.label).toMatch(new RegExp(`^${p.name} \\(vers [^)]+\\), ${country}`))
    }
    expect(new Set(places.map((p) => p.label)).size).toBe(places.length)
    expect(places[0]).toMatchObject({ name: "Lyon", country_code: "FR", label: "Lyon, France" })
    // A picked suggestion is a search the API answers.
    expect((await apiJson(`locale=fr_FR&cur=EUR&fn=${encodeURIComponent(places[0]!.value)}`)).status).toBe(200)
    for (const bad of ["", "q=", `q=${"x".repeat(101)}`, "q=lyo&locale=xx_XX"]) {
      const refused = await fetch(`${base}/places/suggest?${bad}`)
      expect(refused.status, bad).toBe(400)
      const body = (await refused.json()) as Json
      expect(body.error["developper-message"], bad).toBe("parameter.invalid")
      expect(body.error.code).toBe("400")
    }
  })

  it("sends a browser that opens the server's root to the home page, and an API client to the API's 404", async () => {
    const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    const root = await fetch(`${base}/?key=${"k".repeat(32)}`, { redirect: "manual", headers: { accept: BROWSER } })
    expect(root.status).toBe(302)
    expect(root.headers.get("location")).toBe("/search")
    expect(await root.text()).toBe("")
    const followed = await fetch(`${base}/`, { headers: { accept: BROWSER } })
    expect(followed.status).toBe(200)
    expect(followed.url).toBe(`${base}/search`)
    for (const accept of ["*/*", "application/json", "application/xml"]) {
      const api = await fetch(`${base}/`, { redirect: "manual", headers: { accept } })
      expect(api.status, accept).toBe(404)
      expect(await api.text(), accept).toContain("resource.not_found")
    }
  })

  it("serves Leaflet and the site's script itself, gzipped and kept a year, and allows only the tiles' host beside its own", async () => {
    // Offered brotli first, a page comes gzipped all the same (docs/DECISIONS.md, Compression).
    const res = await fetch(`${base}/search?locale=en_GB&fn=Lyon`, { headers: { "accept-encoding": "br, gzip" } })
    expect(res.headers.get("content-encoding")).toBe("gzip")
    expect(res.headers.get("vary")).toBe("Accept-Language, Accept-Encoding")
    const csp = res.headers.get("content-security-policy")!
    expect(csp).toContain("script-src 'self';")
    expect(csp).toContain("img-src 'self' data: https://tile.openstreetmap.org;")
    const text = await res.text()
    const scripts = [...text.matchAll(/<script defer src="([^"]+)"><\/script>/g)].map((m) => m[1]!)
    expect(scripts).toEqual([expect.stringMatching(/^\/assets\/site-[0-9a-f]{12}\.js$/)])
    // Leaflet, which the site's script loads when the map comes near the screen.
    const leaflet = /<div id="map"[^>]* data-leaflet="([^"]+)"/.exec(text)![1]!
    expect(leaflet).toMatch(/^\/assets\/leaflet-[0-9a-f]{12}\.js$/)
    expect(text).toMatch(/<link rel="stylesheet" href="\/assets\/leaflet-[0-9a-f]{12}\.css">/)
    for (const src of [...scripts, leaflet]) {
      const js = await fetch(`${base}${src}`)
      expect(js.status).toBe(200)
      expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
      expect(js.headers.get("content-encoding")).toBe("gzip")
      expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect((await js.text()).length).toBeGreaterThan(1000)
    }
    // The home page has no map: no Leaflet.
    const home = await page("/search?locale=en_GB")
    expect(home.status).toBe(200)
    expect(home.text).toContain('<form method="get" action="/search" role="search">')
    expect(home.text).not.toContain("/assets/leaflet-")
    expect(home.text).not.toContain('id="map"')
    expect((await fetch(`${base}/assets/leaflet-000000000000.js`)).status).toBe(404)
  })

  it("labels the page in the URL's locale, else in Accept-Language's", async () => {
    const fr = await page("/search?locale=fr_BE", { "accept-language": "de" })
    expect(fr.text).toContain('<html lang="fr">')
    expect(fr.text).toContain(">Rechercher</button>")
    const de = await page("/search", { "accept-language": "de-CH, fr;q=0.5" })
    expect(de.text).toContain('<html lang="de">')
    expect(de.text).toContain(">Suchen</button>")
    const fallback = await page("/search", { "accept-language": "ja" })
    expect(fallback.text).toContain('<html lang="en">')
    expect(fallback.text).toContain(">Search</button>")
  })

  it("explains every error token the server can send under its own anchor, where each support-link lands", async () => {
    const errors = await page("/developers/errors")
    expect(errors.status).toBe(200)
    const anchors = new Set([...errors.text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))
    const tokens = new Set([...Object.keys(ERROR_TOKENS), ...tokensInSources()])
    // The scan found the tokens the code writes, not just the table's.
    expect(tokensInSources().size).toBeGreaterThanOrEqual(10)
    for (const token of tokens) expect(anchors, token).toContain(token)
    // What the server does with methods, as it does it: HEAD and OPTIONS answered, `Allow` listing them.
    const methods = errors.text.slice(errors.text.indexOf('id="method.not_allowed"'))
    expect(methods.slice(0, methods.indexOf("</section>"))).toContain("<code>Allow: GET, HEAD, OPTIONS</code>")
    expect(errors.text).not.toContain("<code>Allow: GET</code>")
    const refused = await fetch(`${base}/api/v2/trips`, { method: "DELETE", headers: { key } })
    expect(refused.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
    expect((await fetch(`${base}/api/v2/trips?locale=fr_FR&cur=EUR`, { method: "HEAD", headers: { key } })).status).toBe(200)
    expect((await fetch(`${base}/api/v2/trips`, { method: "OPTIONS" })).status).toBe(204)
    // Real errors: each support-link, taken to this server, opens a page holding the token's anchor.
    const failures: Array<[string, RequestInit, string]> = [
      ["/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris", {}, "auth.missing_key"],
      ["/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris", { headers: { key: "not-a-key" } }, "auth.invalid_key"],
      ["/api/v2/trips?locale=fr_FR&cur=EUR&seats=99", { headers: { key } }, "parameter.invalid"],
      ["/api/v2/trips?cur=EUR", { headers: { key } }, "parameter.missing"],
      ["/api/v2/trips/no-such-trip?locale=fr_FR", { headers: { key } }, "trip.not_found"],
      ["/api/v2/nothing-here", { headers: { key } }, "resource.not_found"],
      ["/api/v2/trips", { method: "DELETE", headers: { key } }, "method.not_allowed"]
    ]
    for (const [path, init, token] of failures) {
      const res = await fetch(`${base}${path}`, init)
      const error = ((await res.json()) as Json).error as Json
      expect(error["developper-message"], path).toBe(token)
      const link = new URL(String(error["support-link"]))
      expect(link.origin).toBe("http://www.example.test")
      expect(link.hash).toBe(`#${token}`)
      const help = await page(`${link.pathname}${link.search}`)
      expect(help.status, path).toBe(200)
      expect(help.text).toContain(`<section class="token" id="${token}"`)
    }
  })

  it("serves /developers: how to get a key, and the API reference from the served OpenAPI document", async () => {
    const dev = await page("/developers?locale=en_GB")
    expect(dev.status).toBe(200)
    expect(dev.text).toContain('id="getting-a-key"')
    expect(dev.text).toContain("keys create")
    const doc = openApiDocument("http://api.example.test") as Json
    for (const path of Object.keys(doc.paths as Json)) expect(dev.text, path).toContain(`>GET ${path}</h4>`)
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
      expect(dev.text, name).toContain(`>${name}</h4>`)
      for (const field of Object.keys(((schema as Json).properties ?? {}) as Json)) expect(dev.text, `${name}.${field}`).toContain(`<code>${field}</code>`)
    }
    expect(dev.text).toContain('href="http://api.example.test/api/v2/openapi.json"')
    expect(dev.text).not.toContain("<script")
    // The page links its own headings: every in-page link has its target.
    const ids = new Set([...dev.text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!))
    for (const m of dev.text.matchAll(/href="#([^"]+)"/g)) expect(ids, m[1]).toContain(m[1]!)
  })

  it("shows the driver's public questions and answers, the car, the seats and the booking, as the API's detail", async () => {
    const asked = active().filter((t) => (t.messaging_status ?? "public") === "public" && (t.questions?.length ?? 0) > 0)
    expect(asked.length).toBeGreaterThan(0)
    for (const trip of asked.slice(0, 3)) {
      const shown = await page(`/trip/${encodeURIComponent(trip.id)}?locale=en_GB`)
      expect(shown.status).toBe(200)
      const qa = /<dl class="qa">([\s\S]*?)<\/dl>/.exec(shown.text)![1]!
      const questions = [...qa.matchAll(/<dt>([^<]*) <small>/g)].map((m) => unescape(m[1]!))
      // Oldest question first, whatever the feed's order.
      const byDate = [...trip.questions!].sort((a, b) => Date.parse(a.asked_at) - Date.parse(b.asked_at))
      expect(questions).toEqual(byDate.map((q) => q.question))
      const answers = [...qa.matchAll(/<dd class="(answer|unanswered)">([^<]*)/g)].map((m) => (m[1] === "answer" ? unescape(m[2]!).trim() : undefined))
      expect(answers).toEqual(byDate.map((q) => q.answer))
      const detail = (await (await fetch(`${base}/api/v2/trips/${encodeURIComponent(trip.id)}?locale=en_GB&cur=GBP`, { headers: { key } })).json()) as Json
      expect(unescape(/<dd class="car">([^<·]*)/.exec(shown.text)![1]!).trim()).toBe(`${detail.car.make} ${detail.car.model}${detail.car.color ? `, ${detail.car.color}` : ""}`)
      const booking = { auto: "confirmed at once", manual: "confirmed by the driver" }[String(detail.booking_mode)]
      expect(shown.text).toContain(`<dd class="booking">${booking}, `)
      expect(shown.text).toContain(`${detail.seats_left} of ${detail.seats} ${detail.seats === 1 ? "seat" : "seats"} left`)
    }
    const silent = active().find((t) => (t.questions?.length ?? 0) === 0)!
    expect((await page(`/trip/${encodeURIComponent(silent.id)}`)).text).not.toContain('class="qa"')
  })

  it("accepts svc_cmkt and utm_* on every page, keeps them out of the canonical URL and the links, and counts them per campaign", async () => {
    const whole = active()[0]!
    const search = `locale=fr_FR&fc=${at(whole.waypoints[0]!)}&radius=500&limit=2`
    const tracking = "svc_cmkt=spring-app&utm_source=newsletter&utm_medium=email"
    const plain = await page(`/search?${search}`)
    const tracked = await page(`/search?${tracking}&${search}&utm_content=top`)
    expect(tracked.status).toBe(200)
    expect(shownIds(tracked.text)).toEqual(shownIds(plain.text))
    const canonical = (text: string) => unescape(/<link rel="canonical" href="([^"]+)">/.exec(text)![1]!)
    expect(canonical(tracked.text)).toBe(`http://www.example.test/search?${search}`)
    expect(canonical(tracked.text)).toBe(canonical(plain.text))
    expect(tracked.text).not.toMatch(/svc_cmkt|utm_/)
    const trip = await page(`/trip/${encodeURIComponent(whole.id)}?utm_campaign=winter&locale=de_DE&utm_source=x`)
    expect(trip.status).toBe(200)
    expect(canonical(trip.text)).toBe(`http://www.example.test/trip/${encodeURIComponent(whole.id)}?locale=de_DE`)
    const dev = await page("/developers/errors?utm_source=forum")
    expect(canonical(dev.text)).toBe("http://www.example.test/developers/errors")

    const metrics = await (await fetch(`${base}/metrics`)).text()
    const visits = (campaign: string, pageName: string) =>
      Number(new RegExp(`^tripsearch_website_campaign_visits_total\\{campaign="${campaign}",page="${pageName}"\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0)
    expect(visits("spring-app", "search")).toBe(1)
    expect(visits("winter", "trip")).toBe(1)
    expect(visits("unnamed", "errors")).toBe(1)
    expect(metrics).not.toContain('page="developers"')

    // The query log: the searches the pages ran, as API requests, with their page and campaign.
    await new Promise((r) => setTimeout(r, 200))
    const logged = readFileSync(join(dir, "query-log.ndjson"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Json)
    const spring = logged.filter((l) => l.campaign === "spring-app")
    expect(spring).toHaveLength(1)
    expect(spring[0]).toMatchObject({ path: "/api/v2/trips", status: 200, page: "search" })
    expect(spring[0]!.query).not.toMatch(/svc_cmkt|utm_/)
    expect(spring[0]!.query).toContain("radius=500")
    expect(logged.filter((l) => l.campaign === "winter")).toMatchObject([{ path: `/api/v2/trips/${encodeURIComponent(whole.id)}`, page: "trip" }])
  })

  it("names the configured apps: app link tags on the pages, and the two /.well-known files", async () => {
    const whole = active()[0]!
    const trip = await page(`/trip/${encodeURIComponent(whole.id)}?locale=fr_FR&utm_source=x`)
    const url = `http://www.example.test/trip/${encodeURIComponent(whole.id)}?locale=fr_FR`
    expect(trip.text).toContain('<meta property="al:android:package" content="com.example.rides">')
    expect(unescape(/<meta property="al:android:url" content="([^"]+)">/.exec(trip.text)![1]!)).toBe(url)
    expect(unescape(/<meta property="al:ios:url" content="([^"]+)">/.exec(trip.text)![1]!)).toBe(url)
    expect((await page("/search?fn=Paris")).text).toContain('<meta property="al:android:package"')

    const android = await fetch(`${base}/.well-known/assetlinks.json`)
    expect(android.status).toBe(200)
    expect(android.headers.get("content-type")).toMatch(/^application\/json/)
    expect(await android.json()).toEqual([
      {
        relation: ["delegate_permission/common.handle_all_urls"],
        target: { namespace: "android_app", package_name: "com.example.rides", sha256_cert_fingerprints: [CERT] }
      }
    ])
    const apple = await fetch(`${base}/.well-known/apple-app-site-association`)
    expect(apple.status).toBe(200)
    expect(apple.headers.get("content-type")).toMatch(/^application\/json/)
    const details = ((await apple.json()) as Json).applinks.details as Array<Json>
    expect(details).toHaveLength(1)
    expect(details[0]!.appIDs).toEqual(["ABCDE12345.com.example.rides"])
    expect(details[0]!.components).toContainEqual({ "/": "/trip/*" })
    expect(details[0]!.paths).toContain("/search")
  })

  it("without a configured app: no app link tags, and the /.well-known files are the API's 404", async () => {
    const bare = await createServer({
      config: { dbPath, publicBaseUrl: "http://api.example.test", websiteBaseUrl: "http://www.example.test", queryLogPath: undefined, productionDailyLimit: undefined, matcherThreads: 0, metrics: false },
      logger: { info: () => {}, error: () => {} }
    })
    try {
      const bareBase = `http://127.0.0.1:${(await bare.listen(0, "127.0.0.1")).port}`
      for (const path of ["/.well-known/assetlinks.json", "/.well-known/apple-app-site-association"]) {
        const res = await fetch(`${bareBase}${path}`)
        expect(res.status, path).toBe(404)
        expect((((await res.json()) as Json).error as Json)["developper-message"]).toBe("resource.not_found")
      }
      const search = await (await fetch(`${bareBase}/search?fn=Paris`)).text()
      expect(search).toContain('<link rel="canonical"')
      expect(search).not.toContain("al:")
    } finally {
      await bare.close()
    }
  })

  it("shows the API's top trips on the first page, and links the same page in each of the 23 locales", async () => {
    const whole = active()[0]!
    const query = `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500&limit=3&svc_cmkt=x`
    const { body } = await apiJson(query)
    const top = (body.top_trips as Array<Json>).map((t) => String(t.permanent_id))
    expect(top.length).toBeGreaterThan(0)
    const shown = await page(`/search?${query}`)
    expect([...shown.text.matchAll(/<li data-top-id="([^"]+)"/g)].map((m) => unescape(m[1]!))).toEqual(top)
    expect(shownIds(shown.text)).toEqual((body.trips as Array<Json>).map((t) => String(t.permanent_id)))

    const languages = /<ul class="languages">([\s\S]*?)<\/ul>/.exec(shown.text)![1]!
    const links = [...languages.matchAll(/<a href="([^"]+)" hreflang="([^"]+)"/g)].map((m) => ({ href: unescape(m[1]!), lang: m[2]! }))
    expect(links).toHaveLength(22)
    expect(languages).toContain('<span aria-current="true">français (France)</span>')
    const polish = links.find((l) => l.lang === "pl-PL")!
    expect(polish.href).not.toMatch(/cur=|svc_cmkt|locale=fr_FR/)
    const inPolish = await page(polish.href)
    expect(inPolish.status).toBe(200)
    expect(inPolish.text).toContain('<html lang="pl">')
    // Prices in złoty now, the Polish currency, for the same trips.
    const fromApi = await apiJson(new URL(polish.href, "http://x").search.slice(1) + "&cur=PLN")
    expect(shownIds(inPolish.text)).toEqual((fromApi.body.trips as Array<Json>).map((t) => String(t.permanent_id)))
    expect(inPolish.text).toContain(String((fromApi.body.trips as Array<Json>)[0]!.price.string_value))
  })

  it("offers price ranges that are exactly the API's pmin/pmax, shows the one on with the API's count, and removes it", async () => {
    const whole = active()[0]!
    const query = `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500`
    const first = await page(`/search?${query}`)
    const facet = /<div class="facet" data-facet="price">([\s\S]*?)<\/div>/.exec(first.text)![1]!
    const links = [...facet.matchAll(/<a href="([^"]+)" aria-pressed="(true|false)" role="button">([^<]+)<\/a>/g)].map((m) => ({ href: unescape(m[1]!), pressed: m[2], label: m[3]! }))
    expect(links.length).toBeGreaterThanOrEqual(2)
    expect(links.every((l) => l.pressed === "false")).toBe(true)
    for (const link of links.slice(0, 3)) {
      const q = new URL(link.href, base).searchParams
      const [pmin, pmax] = [Number(q.get("pmin")), Number(q.get("pmax"))]
      expect(Number.isInteger(pmin) && Number.isInteger(pmax) && pmin < pmax, link.href).toBe(true)
      const range = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", maximumFractionDigits: 0 }).formatRange(pmin, pmax)
      expect(link.label.startsWith(range), link.label).toBe(true)
      const { body } = await apiJson(`${query}&pmin=${pmin}&pmax=${pmax}`)
      const total = Number(body.pager.total)
      // A count shown is the API's for that range.
      const count = /\(([\d\s\u202f]+)\)$/.exec(link.label)?.[1]
      if (count !== undefined) expect(Number(count.replace(/\D/g, ""))).toBe(total)
      const on = await page(link.href)
      const onFacet = /<div class="facet" data-facet="price">([\s\S]*?)<\/div>/.exec(on.text)![1]!
      // One item on, the whole range, with the API's count; no other looks selected.
      const pressed = [...onFacet.matchAll(/<a href="([^"]+)" aria-pressed="true" role="button">([^<]+)<\/a>/g)]
      expect(pressed.map((m) => m[2])).toEqual([`${range} (${new Intl.NumberFormat("fr-FR").format(total)})`])
      expect(new URL(unescape(pressed[0]![1]!), base).searchParams.has("pmin")).toBe(false)
      expect(on.text).toContain(`<span>Prix\u202f: ${range}</span>`)
      expect(/<h2 class="total">([^<]+)<\/h2>/.exec(on.text)![1]).toBe(`${total} ${total === 1 ? "trajet" : "trajets"}`)
    }
  })

  it("offers drivers with a photo as the photo facet's one choice, and counts the others in words", async () => {
    const whole = active()[0]!
    const query = `locale=fr_FR&cur=EUR&fc=${at(whole.waypoints[0]!)}&radius=500`
    const { body } = await apiJson(query)
    const items = (body.facets as Array<Json>).find((f) => f.name === "photo")!.items as Array<Json>
    const [without, withPhoto] = [items.find((i) => i.value === 0)!.count, items.find((i) => i.value === 1)!.count]
    expect(without).toBeGreaterThan(0)
    const shown = await page(`/search?${query}`)
    const facet = /<div class="facet" data-facet="photo">([\s\S]*?)<\/div>/.exec(shown.text)![1]!
    const links = [...facet.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)]
    expect(links.map((m) => m[2])).toEqual([`Conducteur avec photo (${withPhoto})`])
    expect(new URL(unescape(links[0]![1]!), base).searchParams.get("photo")).toBe("1")
    expect(facet).toContain(`<li class="count">${new Intl.NumberFormat("fr-FR").format(without)} ${without === 1 ? "conducteur" : "conducteurs"} sans photo</li>`)
  })

  it("names the field and its rule when a search is refused for the form's values, the values kept and marked", async () => {
    const hours = await page("/search?locale=fr_FR&fn=Paris&tn=Lyon&hb=20&he=5")
    expect(hours.status).toBe(400)
    expect(hours.text).toContain(`«\u202f${await labelOf("fr_FR", "he")}\u202f» doit être supérieur à «\u202f${await labelOf("fr_FR", "hb")}\u202f».`)
    expect(hours.text).toMatch(/name="hb" type="number" value="20" min="0" max="23" aria-invalid="true"/)
    expect(hours.text).toMatch(/name="he" type="number" value="5" min="1" max="24" aria-invalid="true"/)
    const price = await page("/search?locale=de_DE&fn=Paris&tn=Lyon&pmax=0")
    expect(price.status).toBe(400)
    expect(price.text).toContain(`„${await labelOf("de_DE", "pmin")}“ ist nötig, wenn „${await labelOf("de_DE", "pmax")}“ ausgefüllt ist.`)
    expect(price.text).toMatch(/name="pmax" type="number" value="0" min="1" aria-invalid="true"/)
  })

  it("says a past date is past, a page past the last is, and what is missing when the form is sent without places", async () => {
    const past = await page("/search?locale=de_DE&fn=Paris&tn=Lyon&db=2020-01-01")
    expect(past.status).toBe(200)
    expect(past.text).toContain('<p class="date-past">Der 01.01.2020 liegt in der Vergangenheit: Wählen Sie heute oder einen späteren Tag.</p>')
    // The form offers no day before today.
    expect(past.text).toMatch(/name="db" type="date" value="2020-01-01" min="\d{4}-\d{2}-\d{2}"/)

    const whole = active()[0]!
    const query = `locale=de_DE&fc=${at(whole.waypoints[0]!)}&radius=500`
    const { body } = await apiJson(`${query}&cur=EUR`)
    const pages = Number(body.pager.pages)
    expect(pages).toBeGreaterThan(1)
    const beyond = await page(`/search?${query}&page=999`)
    const said = /<p class="past-last">([^<]+)<a href="([^"]+)">([^<]+)<\/a><\/p>/.exec(beyond.text)!
    expect(said[1]).toBe(`Seite 999 liegt hinter dem Ende: Die Ergebnisse füllen ${pages} Seiten. `)
    expect(said[3]).toBe("Zur letzten Seite")
    expect(new URL(unescape(said[2]!), base).searchParams.get("page")).toBe(String(pages))
    expect(beyond.text).not.toContain("Seite 999 von")

    const empty = await page("/search?locale=en_GB&fn=&tn=&db=&order=asc")
    expect(empty.status).toBe(200)
    expect(empty.text).toContain('<p class="places-missing">Enter where you leave from, where you are going, or both.</p>')
    // The home page itself asks nothing.
    expect((await page("/search?locale=en_GB")).text).not.toContain("places-missing")
  })

  it("heads the page with the towns understood, in its language, and links the other languages with the towns in theirs", async () => {
    const de = await page("/search?locale=de_DE&fn=Munchen&tn=Berlin")
    expect(/<h1>([^<]+)<\/h1>/.exec(de.text)![1]).toBe("Mitfahrgelegenheiten von München nach Berlin")
    const links = [...de.text.matchAll(/<a href="([^"]+)" hreflang="([^"]+)"/g)].map((m) => ({ href: unescape(m[1]!), lang: m[2]! }))
    const polish = new URL(links.find((l) => l.lang === "pl-PL")!.href, base).searchParams
    expect([polish.get("fn"), polish.get("tn"), polish.get("locale")]).toEqual(["Monachium, Niemcy", "Berlin, Niemcy", "pl_PL"])
    const pl = await page(`/search?${polish.toString()}`)
    expect(/<h1>([^<]+)<\/h1>/.exec(pl.text)![1]).toBe("Przejazdy: Monachium → Berlin")
    expect(pl.text).toContain('name="fn" type="text" value="Monachium, Niemcy"')
    // From Russian to Polish: the form no longer keeps the Cyrillic names.
    const ru = await page(`/search?locale=ru_RU&fn=${encodeURIComponent("Мюнхен, Германия")}&tn=${encodeURIComponent("Берлин, Германия")}`)
    expect(/<h1>([^<]+)<\/h1>/.exec(ru.text)![1]).toBe("Поездки: Мюнхен → Берлин")
    const toPolish = [...ru.text.matchAll(/<a href="([^"]+)" hreflang="pl-PL"/g)].map((m) => new URL(unescape(m[1]!), base).searchParams)[0]!
    expect(toPolish.get("fn")).toBe("Monachium, Niemcy")
  })

  it("offers the locale's other currency, and keeps the currency across languages only where the other locale takes it", async () => {
    const gb = await page("/search?locale=en_GB&fn=Paris&tn=Lyon&pmin=10&pmax=50")
    const currencies = /<ul class="languages currencies">([\s\S]*?)<\/ul>/.exec(gb.text)![1]!
    expect(currencies).toContain('<span aria-current="true">British Pound (GBP)</span>')
    const euro = new URL(unescape(/<a href="([^"]+)">Euro \(EUR\)<\/a>/.exec(currencies)![1]!), base).searchParams
    // Prices typed in pounds do not carry over to euros.
    expect([euro.get("cur"), euro.get("pmin"), euro.get("locale")]).toEqual(["EUR", null, "en_GB"])
    expect((await page(`/search?${euro.toString()}`)).text).toContain('<span aria-current="true">Euro (EUR)</span>')
    // A locale with one currency offers none.
    expect((await page("/search?locale=fr_FR&fn=Paris&tn=Lyon")).text).not.toContain("currencies")

    const inEuros = await page("/search?locale=en_GB&cur=EUR&fn=Paris&tn=Lyon&pmin=10&pmax=50")
    const hrefs = new Map([...inEuros.text.matchAll(/<a href="([^"]+)" hreflang="([^"]+)"/g)].map((m) => [m[2]!, new URL(unescape(m[1]!), base).searchParams]))
    // Croatian takes euros (its alternative): kept, prices too; French's own is the euro; Polish takes złoty only.
    expect([hrefs.get("hr-HR")!.get("cur"), hrefs.get("hr-HR")!.get("pmin")]).toEqual(["EUR", "10"])
    expect([hrefs.get("fr-FR")!.get("cur"), hrefs.get("fr-FR")!.get("pmin")]).toEqual([null, "10"])
    expect([hrefs.get("pl-PL")!.get("cur"), hrefs.get("pl-PL")!.get("pmin")]).toEqual([null, null])
    expect((await page(`/search?${hrefs.get("hr-HR")!.toString()}`)).status).toBe(200)
  })

})
