/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import polyline from "@mapbox/polyline"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { COMFORT_STARS, type Comfort } from "@tripsearch/core"
import { feedLines } from "@tripsearch/dataset"
import { Gazetteer } from "@tripsearch/gazetteer"
import { createKey, importFeed, importMeetingPoints, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ApiServer } from "../src/createServer.js"
import { startSiteAndBrowser } from "./siteInBrowser.js"

// The traveller's website in headless Chromium (Debian's package): the map, the place suggestions,
// the facets, the filters at phone width, errors in three languages, full trips. No tile is
// fetched: the map's tile requests are answered in the browser by a blank PNG.

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any
interface FeedTrip {
  id: string
  waypoints: Array<{ city: string; lat: number; lon: number; address?: string }>
  legs: Array<{ path?: string }>
  driver: { experience: number }
  car: { comfort: Comfort }
  status?: string
}

// A 1 x 1 PNG: every request for the map's tiles (`TILES`, where nothing listens) is answered with
// it by the browser's route below.
const BLANK_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==", "base64")


const shownIds = (page: Page): Promise<Array<string>> => page.locator("ol.trips > li").evaluateAll((items) => items.map((li) => li.getAttribute("data-id") ?? ""))
const tripIdOf = (permanentId: string): string => /^(.+?)_m?\d+_m?\d+$/.exec(permanentId)?.[1] ?? permanentId
const mapDataOf = async (page: Page): Promise<Json> => JSON.parse((await page.locator("#map-data").textContent())!) as Json
const round5 = (x: number) => Math.round(x * 1e5) / 1e5
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

describe("the traveller's website in a real browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-website-browser-"))
  const dbPath = join(dir, "trips.db")
  let key: string
  let api: ApiServer
  let base: string
  let browser: Browser
  let city: string
  let trips: Map<string, FeedTrip>
  /** A trip whose legs have no road (paths taken off, should the generator draw roads). */
  let straight: FeedTrip

  beforeAll(async () => {
    const parsed = [...feedLines({ trips: 1000, seed: "website-browser", nowMs: Date.now() })].map((line) => JSON.parse(line) as FeedTrip)
    straight = parsed.find((t) => (t.status ?? "active") === "active" && t.waypoints.length >= 4)!
    for (const leg of straight.legs) delete leg.path
    const lines = parsed.map((t) => JSON.stringify(t))
    trips = new Map(parsed.map((t) => [t.id, t]))
    const db = openDatabase(dbPath)
    expect((await importFeed(db, lines)).ok).toBe(true)
    key = createKey(db, { name: "website-browser", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    ;({ api, browser, base } = await startSiteAndBrowser(dbPath))
    // The commonest departure town with two pages of rides or more.
    const counts = new Map<string, number>()
    for (const t of trips.values()) counts.set(t.waypoints[0]!.city, (counts.get(t.waypoints[0]!.city) ?? 0) + 1)
    for (const [name] of [...counts].sort((a, b) => b[1] - a[1])) {
      const { status, body } = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent(name)}`)
      if (status === 200 && body.pager.pages >= 2) {
        city = name
        break
      }
    }
    expect(city).toBeDefined()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const apiJson = async (query: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${base}/api/v2/trips?${query}`, { headers: { key } })
    return { status: res.status, body: (await res.json()) as Json }
  }

  /** A browser context whose tile requests get a blank PNG, never the network. */
  const contextWith = async (options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> => {
    const context = await browser.newContext(options)
    await context.route("http://127.0.0.1:9/**", (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_PNG }))
    return context
  }

  it("searches from the form with a town picked among the suggestions: name and country, never lat|lon", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB`)
    const from = page.getByLabel("From", { exact: true })
    expect(await from.getAttribute("placeholder")).not.toContain("|")
    // All but the last letter: the town is then among the few suggested, whatever its size.
    await from.pressSequentially(city.length > 4 ? city.slice(0, -1) : city, { delay: 30 })
    const options = page.locator("#fn-suggestions li[role=option]")
    await options.first().waitFor()
    const texts = await options.allTextContents()
    expect(texts.length).toBeGreaterThan(0)
    // Every suggestion is a town and its country, in the page's language.
    for (const text of texts) expect(text).toMatch(/^[^|]+, [^|]+$/)
    const wanted = options.filter({ hasText: new RegExp(`^${escapeRegExp(city)}, `) }).first()
    const picked = (await wanted.textContent())!
    await wanted.click()
    expect(await from.inputValue()).toBe(picked)
    expect(await page.locator("#fn-suggestions").isHidden()).toBe(true)
    await Promise.all([page.waitForURL(/\/search\?.*fn=/), page.getByRole("button", { name: "Search" }).click()])
    expect(new URL(page.url()).searchParams.get("fn")).toBe(picked)
    const shown = await shownIds(page)
    expect(shown.length).toBeGreaterThan(0)
    const { body } = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent(picked)}`)
    expect(shown).toEqual((body.trips as Array<Json>).map((t) => String(t.permanent_id)))
    // The searched place on the search page's map, labelled with its country.
    const data = await mapDataOf(page)
    expect(data.stops.map((s: Json) => s.label)).toEqual([`From: ${picked}`])
    await context.close()
  })

  it("applies and removes the experience and comfort facets with a click, and says which filters are on", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const search = `locale=en_GB&cur=GBP&fn=${encodeURIComponent(city)}`
    await page.goto(`${base}/search?${search}`)
    expect(await page.locator(".active-filters").count()).toBe(0)
    // Every ride the API matches (pages of 100), in its order: the reference for the website's filters.
    const all: Array<Json> = []
    for (let n = 1; ; n++) {
      const { body } = await apiJson(`${search}&limit=100&page=${n}`)
      all.push(...(body.trips as Array<Json>))
      if (n >= body.pager.pages) break
    }
    const experienceOf = (t: Json) => trips.get(tripIdOf(String(t.permanent_id)))!.driver.experience
    const starsOf = (t: Json) => COMFORT_STARS[trips.get(tripIdOf(String(t.permanent_id)))!.car.comfort]

    const experience = page.locator('[data-facet="experience"] a[aria-pressed="false"]').first()
    const level = Number(/experience=(\d)/.exec((await experience.getAttribute("href"))!)![1])
    await Promise.all([page.waitForURL(/experience=/), experience.click()])
    const byExperience = all.filter((t) => experienceOf(t) === level)
    expect(await shownIds(page)).toEqual(byExperience.slice(0, 10).map((t) => String(t.permanent_id)))
    expect(await page.locator(".total").textContent()).toBe(`${byExperience.length} ${byExperience.length === 1 ? "ride" : "rides"}`)
    expect(await page.locator('[data-facet="experience"] a[aria-pressed="true"]').count()).toBe(1)
    expect(await page.locator(".active-filters li").allTextContents()).toEqual([expect.stringContaining(`Driver's experience: `)])

    const comfort = page.locator('[data-facet="car_comfort"] a[aria-pressed="false"]').first()
    const stars = Number(/comfort=(\d)/.exec((await comfort.getAttribute("href"))!)![1])
    await Promise.all([page.waitForURL(/comfort=/), comfort.click()])
    const both = byExperience.filter((t) => starsOf(t) === stars)
    expect(await shownIds(page)).toEqual(both.slice(0, 10).map((t) => String(t.permanent_id)))
    expect(await page.locator(".active-filters li").count()).toBe(2)
    expect(await page.locator(".filters-button").textContent()).toContain("2 filters on")

    // Removed by a click on the selected item: the comfort filter alone is left.
    await Promise.all([page.waitForURL((url) => !url.searchParams.has("experience")), page.locator('[data-facet="experience"] a[aria-pressed="true"]').click()])
    expect(new URL(page.url()).searchParams.get("comfort")).toBe(String(stars))
    expect(await shownIds(page)).toEqual(all.filter((t) => starsOf(t) === stars).slice(0, 10).map((t) => String(t.permanent_id)))
    // And by the list of filters that are on: back to the API's own answer.
    await Promise.all([page.waitForURL((url) => !url.searchParams.has("comfort")), page.locator('.active-filters li[data-filter="car_comfort"] a').click()])
    expect(await page.locator(".active-filters").count()).toBe(0)
    expect(await shownIds(page)).toEqual(all.slice(0, 10).map((t) => String(t.permanent_id)))
    await context.close()
  })

  it("fr_FR: picks a price range in the facet: one range on, the API's count for it, and removed by a click", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const search = `locale=fr_FR&cur=EUR&fn=${encodeURIComponent(city)}`
    await page.goto(`${base}/search?${search}`)
    const ranges = page.locator('[data-facet="price"] a[aria-pressed="false"]')
    expect(await ranges.count()).toBeGreaterThanOrEqual(2)
    const label = (await ranges.first().textContent())!
    await Promise.all([page.waitForURL(/pmin=/), ranges.first().click()])
    const url = new URL(page.url())
    const [pmin, pmax] = [Number(url.searchParams.get("pmin")), Number(url.searchParams.get("pmax"))]
    expect(pmin).toBeLessThan(pmax)
    const { body } = await apiJson(`${search}&pmin=${pmin}&pmax=${pmax}`)
    const total = Number(body.pager.total)
    const range = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR", maximumFractionDigits: 0 }).formatRange(pmin, pmax)
    expect(label.startsWith(range)).toBe(true)
    // One item on, saying the whole range and what the API found; the list and the filters agree.
    expect(await page.locator('[data-facet="price"] a[aria-pressed="true"]').allTextContents()).toEqual([`${range} (${total})`])
    expect(await page.locator(".total").textContent()).toBe(`${total} ${total === 1 ? "trajet" : "trajets"}`)
    expect(await page.locator('.active-filters li[data-filter="price"] > span').textContent()).toBe(`Prix\u202f: ${range}`)
    await Promise.all([page.waitForURL((u) => !u.searchParams.has("pmin")), page.locator('[data-facet="price"] a[aria-pressed="true"]').click()])
    expect(await page.locator('[data-facet="price"] a[aria-pressed="true"]').count()).toBe(0)
    // The photo facet: "with a photo" is the one choice.
    expect(await page.locator('[data-facet="photo"] a').count()).toBe(1)
    await context.close()
  })

  it("sends the form without its blank fields, keeps it working without the script, and says what is missing", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB`)
    await page.locator("#fn").fill(city)
    await Promise.all([page.waitForURL(/fn=/), page.getByRole("button", { name: "Search" }).click()])
    const sent = [...new URL(page.url()).searchParams]
    expect(sent.filter(([, v]) => v === "")).toEqual([])
    expect(Object.fromEntries(sent)).toMatchObject({ locale: "en_GB", fn: city })
    expect(await page.locator("ol.trips > li").count()).toBeGreaterThan(0)
    // Back on the form, its fields are usable again.
    await page.goBack()
    expect(await page.locator('input[name="db"]').isDisabled()).toBe(false)
    // Both places blank: said.
    await page.goto(`${base}/search?locale=en_GB`)
    await Promise.all([page.waitForURL(/\?.+&/), page.getByRole("button", { name: "Search" }).click()])
    expect(await page.locator(".places-missing").textContent()).toBe("Enter where you leave from, where you are going, or both.")
    // Hours the API would refuse are refused by the form first: "Leaving before" below "Leaving from".
    await page.locator("details.more").evaluate((d) => ((d as HTMLDetailsElement).open = true))
    await page.locator("#fn").fill(city)
    await page.locator('input[name="hb"]').fill("20")
    await page.locator('input[name="he"]').fill("5")
    const before = page.url()
    await page.getByRole("button", { name: "Search" }).click()
    expect(await page.locator('input[name="he"]').evaluate((e) => (e as HTMLInputElement).validity.rangeUnderflow)).toBe(true)
    expect(page.url()).toBe(before)

    // Without the script the form sends every field, blank ones too, and the search runs.
    const bare = await browser.newContext({ javaScriptEnabled: false })
    const still = await bare.newPage()
    await still.goto(`${base}/search?locale=en_GB`)
    await still.locator("#fn").fill(city)
    await Promise.all([still.waitForURL(/fn=/), still.getByRole("button", { name: "Search" }).click()])
    expect(new URL(still.url()).searchParams.get("db")).toBe("")
    expect(await still.locator("ol.trips > li").count()).toBeGreaterThan(0)
    await bare.close()
    await context.close()
  })

  it("draws a trip's road, stops and labels on the map: straight between waypoints without paths", async () => {
    const trip = straight
    const n = trip.waypoints.length - 1
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/trip/${encodeURIComponent(`${trip.id}_1_${n}`)}?locale=en_GB`)
    const data = await mapDataOf(page)
    const points = trip.waypoints.map((w) => [round5(w.lat), round5(w.lon)])
    expect(data.road).toEqual(points)
    expect(data.part).toEqual(points.slice(1))
    const labels = data.stops.map((s: Json) => s.label)
    // The page names towns in its language, as the API does: Botoşani is Botosani in en_GB.
    const named = (k: number) => {
      const w = trip.waypoints[k] as FeedTrip["waypoints"][number] & { readonly country: string }
      return Gazetteer.shared().localCityName(w.city, w.country, w.lat, w.lon, "en_GB")
    }
    expect(labels).toContain(named(0))
    expect(labels.some((l: string) => l.startsWith(`Pick-up: ${named(1)}`))).toBe(true)
    expect(labels.some((l: string) => l.startsWith(`Drop-off: ${named(n)}`))).toBe(true)
    expect(data.stops.length).toBe(trip.waypoints.length)
    // Leaflet drew them once the map came into view: the road, the passenger's part, a label per
    // stop; the SVG is put away.
    await page.locator("#map").scrollIntoViewIfNeeded()
    await page.locator(".leaflet-tooltip").nth(labels.length - 1).waitFor()
    expect((await page.locator(".leaflet-tooltip").allTextContents()).sort()).toEqual([...labels].sort())
    expect(await page.locator("path.road").count()).toBe(1)
    expect(await page.locator("path.part").count()).toBe(1)
    expect(await page.locator(".route-fallback").isHidden()).toBe(true)
    await page.locator(".leaflet-control-attribution", { hasText: "Test tiles" }).waitFor()

    // Without the script, the SVG drawing is the route.
    const bare = await browser.newContext({ javaScriptEnabled: false })
    const still = await bare.newPage()
    await still.goto(`${base}/trip/${encodeURIComponent(`${trip.id}_1_${n}`)}?locale=en_GB`)
    expect(await still.locator(".route-fallback svg circle").count()).toBe(trip.waypoints.length)
    expect(await still.locator("#map").isHidden()).toBe(true)
    await bare.close()
    await context.close()
  })

  it("keeps the map's labels apart on a phone: a stop-over's label that would cover another is hidden, the passenger's never, and no two shown overlap", async () => {
    const context = await contextWith({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    // The trips with the most waypoints, whose labels crowd a phone's map the most.
    const crowded = [...trips.values()].filter((t) => (t.status ?? "active") === "active").sort((a, b) => b.waypoints.length - a.waypoints.length || (a.id < b.id ? -1 : 1)).slice(0, 3)
    for (const trip of crowded) {
      await page.goto(`${base}/trip/${encodeURIComponent(trip.id)}?locale=ru_RU`)
      await page.locator("#map").scrollIntoViewIfNeeded()
      await page.locator(".leaflet-tooltip").nth(trip.waypoints.length - 1).waitFor()
      const boxes = await page.locator(".leaflet-tooltip").evaluateAll((els) =>
        els.map((el) => ({ mine: !el.classList.contains("label-stop"), shown: getComputedStyle(el).visibility !== "hidden", box: el.getBoundingClientRect().toJSON() as DOMRect }))
      )
      expect(boxes.filter((b) => b.mine).every((b) => b.shown), trip.id).toBe(true)
      const shown = boxes.filter((b) => b.shown)
      for (const [k, a] of shown.entries())
        for (const b of shown.slice(k + 1))
          expect(a.box.left < b.box.right && a.box.right > b.box.left && a.box.top < b.box.bottom && a.box.bottom > b.box.top, `${trip.id} ${JSON.stringify([a, b])}`).toBe(false)
    }
    await context.close()
  })

  it("keeps this passenger's pickup and drop-off labels apart at 375 px, where the two are close on the map too", async () => {
    const context = await contextWith({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    // Web Mercator, the map's projection, up to its scale: the map fits the whole road, so two
    // waypoints close on it relative to the trip's extent are close on the phone's map.
    const project = (w: { lat: number; lon: number }) => [w.lon / 360, Math.log(Math.tan(Math.PI / 4 + (w.lat * Math.PI) / 360)) / (2 * Math.PI)] as const
    const parts: Array<{ id: string; closeness: number; sameSide: boolean }> = []
    for (const t of [...trips.values()].filter((t) => (t.status ?? "active") === "active" && t.waypoints.length >= 3)) {
      const xy = t.waypoints.map(project)
      const extent = Math.max(...[0, 1].map((d) => Math.max(...xy.map((p) => p[d]!)) - Math.min(...xy.map((p) => p[d]!))))
      for (let i = 0; i < xy.length; i++)
        for (let j = i + 1; j < xy.length; j++)
          parts.push({ id: `${t.id}_${i}_${j}`, closeness: Math.hypot(xy[i]![0] - xy[j]![0], xy[i]![1] - xy[j]![1]) / extent, sameSide: (j - i) % 2 === 0 })
    }
    parts.sort((a, b) => a.closeness - b.closeness || (a.id < b.id ? -1 : 1))
    // The closest pairs whose labels the stops' alternation put on the same side, and on opposite
    // sides; and whole trips, their ends far apart.
    const chosen = [
      ...parts.filter((p) => p.sameSide).slice(0, 4),
      ...parts.filter((p) => !p.sameSide).slice(0, 4),
      ...[...trips.values()].filter((t) => (t.status ?? "active") === "active").slice(0, 2).map((t) => ({ id: t.id }))
    ]
    for (const { id } of chosen) {
      await page.goto(`${base}/trip/${encodeURIComponent(id)}?locale=en_GB`)
      await page.locator("#map").scrollIntoViewIfNeeded()
      const box = (role: string) => page.locator(`.leaflet-tooltip.label-${role}`).evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect)
      await page.locator(".leaflet-tooltip.label-dropoff").waitFor()
      const [a, b] = [await box("pickup"), await box("dropoff")]
      expect(a.width * b.width, id).toBeGreaterThan(0)
      // A long meeting point name wraps rather than running off a phone's screen (at most 70% of its width).
      expect(Math.max(a.width, b.width), id).toBeLessThanOrEqual(375 * 0.7 + 0.5)
      expect(a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top, `${id}: pickup ${JSON.stringify(a)}, drop-off ${JSON.stringify(b)}`).toBe(false)
    }
    await context.close()
  })

  it("draws the driver's road from the legs' encoded paths, as the store keeps them", async () => {
    const trip = [...trips.values()].find((t) => (t.status ?? "active") === "active" && t.waypoints.length === 3 && t.legs.every((l) => typeof l.path === "string"))!
    // The road as the paths go, their ends replaced by the waypoints, a point repeated once.
    const expected: Array<[number, number]> = []
    const push = (p: [number, number]) => {
      const last = expected[expected.length - 1]
      if (last === undefined || last[0] !== p[0] || last[1] !== p[1]) expected.push(p)
    }
    trip.waypoints.forEach((w, k) => {
      push([round5(w.lat), round5(w.lon)])
      if (k < trip.legs.length) for (const [lat, lon] of polyline.decode(trip.legs[k]!.path!, 5).slice(1, -1)) push([round5(lat), round5(lon)])
    })
    expect(expected.length).toBeGreaterThan(trip.waypoints.length)
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const tab = await context.newPage()
    await tab.goto(`${base}/trip/${encodeURIComponent(`${trip.id}_0_2`)}?locale=fr_FR`)
    const data = await mapDataOf(tab)
    expect(data.road).toEqual(expected)
    expect(data.part).toEqual(expected)
    // Named in the page's language, as the API does: Mumbai is Bombay in fr_FR.
    const named = (k: number) => {
      const w = trip.waypoints[k] as FeedTrip["waypoints"][number] & { readonly country: string }
      return Gazetteer.shared().localCityName(w.city, w.country, w.lat, w.lon, "fr_FR")
    }
    expect(data.stops.map((s: Json) => s.label), JSON.stringify(data.stops)).toEqual([
      expect.stringMatching(new RegExp(`^Prise en charge\u202f: ${escapeRegExp(named(0))}`)),
      named(1),
      expect.stringMatching(new RegExp(`^Dépose\u202f: ${escapeRegExp(named(2))}`))
    ])
    // The page says it as the map labels it.
    expect(await tab.locator('.ends [data-end="pickup"]').textContent()).toBe(data.stops[0].label)
    expect(await tab.locator('.ends [data-end="dropoff"]').textContent()).toBe(data.stops[2].label)
    await tab.locator("#map").scrollIntoViewIfNeeded()
    await tab.locator(".leaflet-tooltip").nth(2).waitFor()
    expect(await tab.locator(".leaflet-tooltip").count()).toBe(3)
    // The drawn road goes through the bends: more vertices than the three waypoints.
    const vertices = await tab.evaluate(() => (document.querySelector("path.road")!.getAttribute("d") ?? "").match(/[ML]/g)?.length ?? 0)
    expect(vertices).toBeGreaterThan(trip.waypoints.length)
    await context.close()
  })

  it("opens the filters from a button above the results at phone width", async () => {
    const context = await contextWith({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB&fn=${encodeURIComponent(city)}`)
    const button = page.locator(".filters-button")
    expect(await button.isVisible()).toBe(true)
    expect(await page.locator("#filters").isVisible()).toBe(false)
    const above = (await button.boundingBox())!.y < (await page.locator("ol.trips").boundingBox())!.y
    expect(above).toBe(true)
    await button.tap()
    expect(await page.locator("#filters").isVisible()).toBe(true)
    expect(await button.getAttribute("aria-expanded")).toBe("true")
    // Open above the rides, not after them.
    expect((await page.locator("#filters").boundingBox())!.y).toBeLessThan((await page.locator("ol.trips").boundingBox())!.y)
    await Promise.all([page.waitForURL(/seats=/), page.locator('#filters [data-facet="seats"] a').first().tap()])
    expect(await page.locator(".filters-button").textContent()).toContain("1 filter on")
    // The same at desktop width: no button, the filters beside the rides.
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(await page.locator(".filters-button").isVisible()).toBe(false)
    expect(await page.locator("#filters").isVisible()).toBe(true)
    await context.close()
  })

  it("answers a misspelt town in three languages with the form kept and the nearest names, no token or status code", async () => {
    const context = await contextWith()
    const page = await context.newPage()
    for (const [locale, unknown, didYouMean, marseille] of [
      ["en_GB", "We don't know a place called “Marseile”.", "Did you mean:", "Marseille, France"],
      ["fr_FR", "Nous ne connaissons pas de lieu appelé «\u202fMarseile\u202f».", "Vouliez-vous dire\u202f:", "Marseille, France"],
      // The names offered are the page's language's.
      ["pl_PL", "Nie znamy miejsca o nazwie „Marseile”.", "Czy chodziło o:", "Marsylia, Francja"]
    ] as const) {
      const res = await page.goto(`${base}/search?locale=${locale}&fn=Marseile&tn=${encodeURIComponent(city)}`)
      expect(res?.status()).toBe(404)
      expect(await page.locator("#fn").inputValue()).toBe("Marseile")
      expect(await page.locator("#tn").inputValue()).toBe(city)
      const notice = page.locator('.place-unknown[data-param="fn"]')
      expect(await notice.locator("p").first().textContent()).toBe(unknown)
      expect(await notice.locator("p").nth(1).textContent()).toBe(didYouMean)
      const main = (await page.locator("main").textContent())!
      expect(main).not.toContain("place.not_found")
      expect(main).not.toContain("404")
      const offered = await notice.locator("li a").allTextContents()
      expect(offered[0]).toBe(marseille)
    }
    // A name offered is a search that runs.
    const res = await Promise.all([page.waitForURL(/fn=Marsylia/), page.locator(".place-unknown li a").first().click()])
    expect(res).toBeDefined()
    expect(await page.locator(".place-unknown").count()).toBe(0)
    expect(await page.locator("h2.total").count()).toBe(1)
    await context.close()
  })

  it("marks a full trip in the list, in the locale's words, greyed", async () => {
    const context = await contextWith()
    const page = await context.newPage()
    // A search that lists a full ride: the departure towns of full rides of the feed, tried in turn.
    let found: { town: string; page: number; id: string } | undefined
    const towns = [...new Set([...trips.values()].filter((t) => (t as unknown as { seats_left: number }).seats_left === 0).map((t) => t.waypoints[0]!.city))]
    for (const town of towns.slice(0, 30)) {
      for (let n = 1; found === undefined; n++) {
        const { status, body } = await apiJson(`locale=fr_FR&cur=EUR&fn=${encodeURIComponent(town)}&page=${n}`)
        if (status !== 200) break
        const full = (body.trips as Array<Json>).find((t) => t.seats_left === 0)
        if (full !== undefined) found = { town, page: n, id: String(full.permanent_id) }
        if (n >= body.pager.pages) break
      }
      if (found !== undefined) break
    }
    expect(found).toBeDefined()
    await page.goto(`${base}/search?locale=fr_FR&fn=${encodeURIComponent(found!.town)}&page=${found!.page}`)
    const item = page.locator(`ol.trips > li[data-id="${found!.id}"]`)
    expect(await item.getAttribute("class")).toBe("full")
    expect(await item.locator(".badge").textContent()).toBe("Complet")
    expect(await item.textContent()).toContain("0 place libre sur")
    expect(await item.evaluate((li) => getComputedStyle(li).backgroundColor)).toBe("rgb(240, 242, 244)")
    // Exactly the full ones are.
    const { body } = await apiJson(`locale=fr_FR&cur=EUR&fn=${encodeURIComponent(found!.town)}&page=${found!.page}`)
    const fullIds = (body.trips as Array<Json>).filter((t) => t.seats_left === 0).map((t) => String(t.permanent_id))
    expect(await page.locator("ol.trips > li.full").evaluateAll((items) => items.map((li) => li.getAttribute("data-id")))).toEqual(fullIds)
    await context.close()
  })
})

// A store of a few hand-made rides whose legs carry the driver's road, and a meeting point feed:
// what the generated feed above cannot promise (a ride from München, a station along a road).
describe("the website over rides with roads and meeting points, in a real browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-website-roads-"))
  const dbPath = join(dir, "trips.db")
  let api: ApiServer
  let base: string
  let browser: Browser
  let key: string
  const PARIS = { city: "Paris", lat: 48.8566, lon: 2.3522, country: "FR" }
  const LYON = { city: "Lyon", lat: 45.764, lon: 4.8357, country: "FR" }
  const MUENCHEN = { city: "München", lat: 48.1374, lon: 11.5755, country: "DE" }
  const PRAHA = { city: "Praha", lat: 50.0755, lon: 14.4378, country: "CZ" }
  // The road Paris -> Lyon by Auxerre, Chalon-sur-Saône and Mâcon's station (300 m off it).
  const PARIS_LYON: Array<[number, number]> = [[PARIS.lat, PARIS.lon], [47.7982, 3.5673], [46.7806, 4.8535], [46.303, 4.83], [LYON.lat, LYON.lon]]
  const MUENCHEN_PRAHA: Array<[number, number]> = [[MUENCHEN.lat, MUENCHEN.lon], [49.0134, 12.1016], [49.7475, 13.3776], [PRAHA.lat, PRAHA.lon]]
  const STATION = { id: 7001, name: "Gare de Mâcon-Ville", full_name: "Gare de Mâcon-Ville, Mâcon", city: "Mâcon", lat: 46.3017, lon: 4.8265, country: "FR", tags: ["TRAIN_STATION"] }

  beforeAll(async () => {
    const template = [...feedLines({ trips: 5, seed: "website-roads", nowMs: Date.now() })].map((line) => JSON.parse(line) as Json).find((t) => (t.status ?? "active") === "active")!
    const departure = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 11) + "08:00:00+01:00"
    const ride = (id: string, from: Json, to: Json, road: Array<[number, number]>, km: number) => ({
      ...template,
      id,
      status: "active",
      departure_time: departure,
      currency: "EUR",
      seats: 4,
      seats_left: 3,
      detour: "FIFTEEN_MINUTES",
      waypoints: [
        { ...from, offset_min: 0 },
        { ...to, offset_min: Math.round(km * 0.75) }
      ],
      legs: [{ price: 30, distance_km: km, duration_s: Math.round(km * 45), path: polyline.encode(road, 5) }]
    })
    const db = openDatabase(dbPath)
    expect(await importMeetingPoints(db, [JSON.stringify(STATION)])).toMatchObject({ ok: true, imported: 1 })
    expect((await importFeed(db, [JSON.stringify(ride("roads-paris-lyon", PARIS, LYON, PARIS_LYON, 465)), JSON.stringify(ride("roads-muenchen-praha", MUENCHEN, PRAHA, MUENCHEN_PRAHA, 380))])).ok).toBe(true)
    key = createKey(db, { name: "website-roads", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    ;({ api, browser, base } = await startSiteAndBrowser(dbPath))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const apiJson = async (query: string): Promise<Json> => (await (await fetch(`${base}/api/v2/trips?${query}`, { headers: { key } })).json()) as Json

  const contextWith = async (options: Parameters<Browser["newContext"]>[0] = {}): Promise<BrowserContext> => {
    const context = await browser.newContext(options)
    await context.route("http://127.0.0.1:9/**", (route) => route.fulfill({ status: 200, contentType: "image/png", body: BLANK_PNG }))
    return context
  }

  it("cs_CZ: typing Mnich suggests Mnichov (the gazetteer's Czech names), picked, searched: the rides carry Czech city names", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=cs_CZ`)
    await page.locator("#fn").pressSequentially("Mnich", { delay: 30 })
    const options = page.locator("#fn-suggestions li[role=option]")
    await options.first().waitFor()
    const texts = await options.allTextContents()
    // Exact names first (the Polish village Mnich), then the Czech towns, then München by its Czech name.
    expect(texts[0]).toBe("Mnich, Polsko")
    expect(texts).toContain("Mnichov, Německo")
    expect(texts).not.toContain("München, Německo")
    await options.filter({ hasText: /^Mnichov, Německo$/ }).click()
    expect(await page.locator("#fn").inputValue()).toBe("Mnichov, Německo")
    await Promise.all([page.waitForURL(/\/search\?.*fn=/), page.locator("form[role=search] button[type=submit]").click()])
    expect(new URL(page.url()).searchParams.get("fn")).toBe("Mnichov, Německo")
    expect(await shownIds(page)).toEqual(["roads-muenchen-praha"])
    expect(await page.locator('ol.trips > li[data-id="roads-muenchen-praha"] strong').first().textContent()).toBe("Mnichov → Praha")
    // Said in Czech on the map too: the searched place is Mnichov, not its GeoNames name.
    expect((await mapDataOf(page)).stops.map((s: Json) => s.label)).toEqual(["Odkud: Mnichov, Německo"])
    await Promise.all([page.waitForURL(/\/trip\//), page.locator('ol.trips > li[data-id="roads-muenchen-praha"] a').click()])
    expect(await page.locator("h1").textContent()).toBe("Mnichov → Praha")
    await context.close()
  })

  it("fr_FR: a Lyons picked among its namesakes is the one searched, named with its near town, the others offered; editing the field drops the pick", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    const suggested = (await (await fetch(`${base}/places/suggest?q=Lyons&locale=fr_FR`)).json()) as { places: Array<Json> }
    const wanted = suggested.places.find((p) => p.label === "Lyons (vers Vidalia), États-Unis")!
    const biggest = suggested.places.filter((p) => p.country_code === "US").sort((a, b) => b.population - a.population)[0] ?? suggested.places[0]!
    expect(wanted).toBeDefined()
    await page.goto(`${base}/search?locale=fr_FR`)
    const from = page.locator("#fn")
    await from.pressSequentially("Lyons", { delay: 30 })
    const options = page.locator("#fn-suggestions li[role=option]")
    await options.first().waitFor()
    await options.filter({ hasText: /^Lyons \(vers Vidalia\), États-Unis$/ }).click()
    // The field shows the town and its country; the town picked rides beside it.
    expect(await from.inputValue()).toBe("Lyons, États-Unis")
    await Promise.all([page.waitForURL(/\/search\?.*fn=/), page.locator("form[role=search] button[type=submit]").click()])
    const url = new URL(page.url())
    expect(url.searchParams.get("fn")).toBe("Lyons, États-Unis")
    expect(url.searchParams.get("fid")).toBe(String(wanted.id))
    expect(url.searchParams.has("fc")).toBe(false)
    expect(await page.locator("h1").textContent()).toContain("Lyons (vers Vidalia)")
    const stop = (await mapDataOf(page)).stops[0]
    expect([stop.lat, stop.lon]).toEqual([wanted.latitude, wanted.longitude])
    expect(stop.label).toBe("Départ\u202f: Lyons (vers Vidalia), États-Unis")
    // Said which Lyons, and the others of that name offered, each a link to that very town.
    const notice = page.locator('.place-understood[data-param="fn"]')
    expect((await notice.locator("p").first().textContent())!).toContain("Lyons (vers Vidalia), États-Unis")
    const others = notice.locator("a")
    expect(await others.count()).toBeGreaterThan(0)
    const otherLabel = (await others.first().textContent())!
    expect(otherLabel).toMatch(/^Lyons \(vers [^)]+\), États-Unis$/)
    expect(otherLabel).not.toContain("Vidalia")
    await Promise.all([page.waitForURL((u) => u.searchParams.get("fid") !== String(wanted.id)), others.first().click()])
    expect(await page.locator("h1").textContent()).toContain(otherLabel.split(",")[0]!)
    expect(await page.locator("#fn").inputValue()).toBe("Lyons, États-Unis")
    // Edited after the pick: the name alone, read as the API reads it (the most populous namesake).
    await page.goto(`${base}/search?locale=fr_FR&fn=${encodeURIComponent("Lyons, États-Unis")}&fid=${wanted.id}`)
    await from.fill("")
    await from.pressSequentially("Lyons, États-Unis", { delay: 10 })
    await page.keyboard.press("Escape")
    await Promise.all([page.waitForURL((u) => !u.searchParams.has("fid")), page.locator("form[role=search] button[type=submit]").click()])
    const read = (await mapDataOf(page)).stops[0]
    expect([read.lat, read.lon]).toEqual([biggest.latitude, biggest.longitude])
    await context.close()
  })

  it("de_DE -> pl_PL: heads the page with the towns understood, and the language link carries them in Polish", async () => {
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=de_DE&fn=Munchen&tn=Praha`)
    expect(await page.locator("h1").textContent()).toBe("Mitfahrgelegenheiten von München nach Prag")
    expect(await shownIds(page)).toEqual(["roads-muenchen-praha"])
    await Promise.all([page.waitForURL(/locale=pl_PL/), page.locator('footer a[hreflang="pl-PL"]').click()])
    expect(await page.locator("h1").textContent()).toBe("Przejazdy: Monachium → Praga")
    expect(await page.locator("#fn").inputValue()).toBe("Monachium, Niemcy")
    expect(await page.locator("#tn").inputValue()).toBe("Praga, Czechy")
    expect(await shownIds(page)).toEqual(["roads-muenchen-praha"])
    await context.close()
  })

  it("draws the road of the legs' paths from the store, the pickup at the meeting point along it labelled on the map and in the page", async () => {
    const found = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent("Mâcon, FR")}&tn=Lyon`)
    expect(found.trips.map((t: Json) => [t.permanent_id, t.corridoring_type])).toEqual([["roads-paris-lyon_m7001_1", "CORRIDORING"]])
    const context = await contextWith({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/trip/roads-paris-lyon_m7001_1?locale=en_GB`)
    const data = await mapDataOf(page)
    // The road as the path goes (not the straight line Paris -> Lyon), cut where the station lies.
    const road = PARIS_LYON.map(([lat, lon]) => [round5(lat), round5(lon)])
    expect(data.road).toEqual(road)
    expect(data.part).toEqual(road.slice(3))
    expect(data.stops.map((s: Json) => s.label)).toEqual(["Paris", "Pick-up: Mâcon · Gare de Mâcon-Ville", "Drop-off: Lyon"])
    expect(data.stops[1]).toMatchObject({ role: "pickup", lat: STATION.lat, lon: STATION.lon })
    expect(await page.locator('.ends [data-end="pickup"]').textContent()).toBe("Pick-up: Mâcon · Gare de Mâcon-Ville")
    expect(await page.locator('.ends [data-end="dropoff"]').textContent()).toBe("Drop-off: Lyon")
    await page.locator("#map").scrollIntoViewIfNeeded()
    await page.locator(".leaflet-tooltip").nth(2).waitFor()
    expect((await page.locator(".leaflet-tooltip").allTextContents()).sort()).toEqual([...data.stops.map((s: Json) => s.label)].sort())
    const vertices = await page.evaluate(() => (document.querySelector("path.road")!.getAttribute("d") ?? "").match(/[ML]/g)?.length ?? 0)
    // Bent as the road goes, not the straight line's two ends (Leaflet may merge close vertices at this zoom).
    expect(vertices).toBeGreaterThan(2)
    // Dropped off there on the way from Paris: the arrival's meeting point, which the answer does
    // not name, named from the store, on the map and in the page.
    await page.goto(`${base}/trip/roads-paris-lyon_0_m7001?locale=en_GB`)
    const other = await mapDataOf(page)
    expect(other.stops.map((s: Json) => s.label)).toEqual(["Pick-up: Paris", "Drop-off: Mâcon · Gare de Mâcon-Ville", "Lyon"])
    expect(other.part).toEqual(road.slice(0, 4))
    expect(await page.locator('.ends [data-end="dropoff"]').textContent()).toBe("Drop-off: Mâcon · Gare de Mâcon-Ville")
    await context.close()
  })

  it("says on the search page where a ride along the road picks up and drops off, and how far from the town searched", async () => {
    const context = await contextWith()
    const page = await context.newPage()
    const km = (m: number, tag: string) => new Intl.NumberFormat(tag, { style: "unit", unit: "kilometer", maximumFractionDigits: 1 }).format(m / 1000)
    // In English, Macon is first the larger one in Georgia: the country said.
    const macon = encodeURIComponent("Mâcon, FR")
    for (const [locale, cur, tag, sentence] of [
      ["en_GB", "GBP", "en-GB", (d: string) => `Picked up at Gare de Mâcon-Ville, ${d} from Mâcon`],
      ["fr_FR", "EUR", "fr-FR", (d: string) => `Prise en charge\u202f: Gare de Mâcon-Ville (Mâcon à ${d})`]
    ] as const) {
      const { trips } = await apiJson(`locale=${locale}&cur=${cur}&fn=${macon}&tn=Lyon`)
      const meters = Number(trips[0].departure_passenger_routing.routes[0].distance_in_meters)
      expect(meters).toBeLessThan(1_500)
      await page.goto(`${base}/search?locale=${locale}&fn=${macon}&tn=Lyon`)
      const item = page.locator('ol.trips > li[data-id="roads-paris-lyon_m7001_1"]')
      expect(await item.locator(".along").count()).toBe(1)
      expect(await item.locator('.along[data-end="pickup"]').textContent()).toBe(sentence(km(meters, tag)))
    }
    // Dropped off there on the way from Paris: the arrival's meeting point named from the store.
    const { trips } = await apiJson(`locale=en_GB&cur=GBP&fn=Paris&tn=${macon}`)
    expect(trips.map((t: Json) => t.permanent_id)).toEqual(["roads-paris-lyon_0_m7001"])
    await page.goto(`${base}/search?locale=en_GB&fn=Paris&tn=${macon}`)
    const item = page.locator('ol.trips > li[data-id="roads-paris-lyon_0_m7001"]')
    expect(await item.locator(".along").allTextContents()).toEqual([
      `Dropped off at Gare de Mâcon-Ville, ${km(Number(trips[0].arrival_passenger_routing.routes[0].distance_in_meters), "en-GB")} from Mâcon`
    ])
    // A ride from waypoint to waypoint says nothing of the kind; its places and price are its
    // waypoints' and leg's, not the stop along the road's that the index keeps between them.
    const whole = (await apiJson("locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon")).trips[0]
    expect([whole.arrival_place.latitude, whole.arrival_place.longitude, whole.price_without_commission.value]).toEqual([LYON.lat, LYON.lon, 30])
    await page.goto(`${base}/search?locale=en_GB&fn=Paris&tn=Lyon`)
    expect(await shownIds(page)).toEqual(["roads-paris-lyon"])
    expect(await page.locator(".along").count()).toBe(0)
    await context.close()
  })
})

describe("the website's own filters over more rides than it fetches, in a real browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-website-many-"))
  const dbPath = join(dir, "trips.db")
  let api: ApiServer
  let base: string
  let browser: Browser
  let town: string

  beforeAll(async () => {
    // Every trip leaves from the same town: well over the 1,000 rides the website filters over.
    const parsed = [...feedLines({ trips: 1_400, seed: "website-many", nowMs: Date.now() })].map((line) => JSON.parse(line) as FeedTrip)
    const start = parsed[0]!.waypoints[0]!
    town = start.city
    for (const t of parsed) {
      t.waypoints[0] = { ...t.waypoints[0]!, city: start.city, lat: start.lat, lon: start.lon }
      // The first leg's road no longer starts there: drawn straight.
      delete t.legs[0]!.path
    }
    const db = openDatabase(dbPath)
    const imported = await importFeed(db, parsed.map((t) => JSON.stringify(t)))
    expect(imported.ok, JSON.stringify(imported).slice(0, 800)).toBe(true)
    db.close()
    ;({ api, browser, base } = await startSiteAndBrowser(dbPath))
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** A facet's items as the traveller reads them: the label, the count in brackets, the link. */
  const facetItems = (page: Page, facet: string) =>
    page.locator(`[data-facet="${facet}"] a[role=button]`).evaluateAll((links) =>
      links.map((a) => ({ text: a.textContent ?? "", href: a.getAttribute("href") ?? "", count: Number(/\(([\d,]+)\)$/.exec(a.textContent ?? "")?.[1]?.replace(/,/g, "") ?? NaN) }))
    )
  const totalOf = async (page: Page) => Number((/[\d,]+/.exec((await page.locator("h2.total").textContent()) ?? "")?.[0] ?? "").replace(/,/g, ""))

  it("en_GB: each experience and comfort count is the number of rides its link lists, and the page says they cover the first 1,000", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB&fn=${encodeURIComponent(town)}`)
    const total = await totalOf(page)
    expect(total).toBeGreaterThan(1_000)
    for (const facet of ["experience", "car_comfort"]) {
      const items = await facetItems(page, facet)
      expect(items.length).toBeGreaterThan(1)
      // Counted over the rides the website filters: 1,000 in all.
      expect(items.reduce((n, i) => n + i.count, 0)).toBe(1_000)
      for (const item of items.slice(0, 2)) {
        await Promise.all([page.waitForURL(/experience=|comfort=/), page.locator(`[data-facet="${facet}"] a[href="${item.href}"]`).click()])
        expect(await totalOf(page), item.text).toBe(item.count)
        expect(await page.locator(".facet-scope").textContent()).toBe(`These filters cover the first 1,000 of ${total.toLocaleString("en-GB")} rides.`)
        await page.goBack()
      }
    }
    expect(await page.locator(".facet-scope").count()).toBe(1)
    expect(await page.locator(".facet-scope").textContent()).toBe(`These filters cover the first 1,000 of ${total.toLocaleString("en-GB")} rides.`)
    // Said in the page's language.
    await page.goto(`${base}/search?locale=de_DE&fn=${encodeURIComponent(town)}`)
    expect(await page.locator(".facet-scope").textContent()).toBe(`Diese Filter erfassen nur die ersten 1.000 von ${total.toLocaleString("de-DE")} Fahrten.`)
    await context.close()
  })
})
