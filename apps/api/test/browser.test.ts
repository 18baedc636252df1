/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import axe from "axe-core"
import type { Browser, Page } from "playwright-core"
import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { feedLines } from "@tripsearch/dataset"
import { createKey, importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ApiServer } from "../src/createServer.js"
import { startSiteAndBrowser } from "./siteInBrowser.js"

// The website in headless Chromium (Debian's package, which `npm test` installs when missing),
// against a real listening server over a small store.

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any



/** The permanent ids the page lists, in order. */
const shownIds = (page: Page): Promise<Array<string>> => page.locator("ol.trips > li").evaluateAll((items) => items.map((li) => li.getAttribute("data-id") ?? ""))

/** axe-core's serious and critical violations on the page, as `rule: target` lines. */
const seriousViolations = async (page: Page): Promise<Array<string>> => {
  // Evaluated through the DevTools protocol, which the pages' CSP (no script at all) does not govern.
  await page.evaluate(axe.source)
  // Only violations in full: the reference page has thousands of nodes that pass.
  const result = (await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ["violations"] }))) as axe.AxeResults
  // The rules ran: some passed.
  expect(result.passes.length).toBeGreaterThan(10)
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")}`))
}

describe("the website in a real browser", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-browser-"))
  const dbPath = join(dir, "trips.db")
  const nowMs = Date.now()
  let key: string
  let api: ApiServer
  let base: string
  let browser: Browser
  let city: string

  beforeAll(async () => {
    // The generated towns and their trips change with the clock (departures are drawn from now
    // on): 1,000 trips so that some town has two pages of rides at any hour, every town tried.
    const lines = [...feedLines({ trips: 1000, seed: "browser", nowMs })]
    const db = openDatabase(dbPath)
    expect((await importFeed(db, lines)).ok).toBe(true)
    key = createKey(db, { name: "browser-test", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    ;({ api, browser, base } = await startSiteAndBrowser(dbPath))
    // The commonest departure town with more than one page of rides.
    const counts = new Map<string, number>()
    for (const line of lines) {
      const trip = JSON.parse(line) as { waypoints: Array<{ city: string }> }
      counts.set(trip.waypoints[0]!.city, (counts.get(trip.waypoints[0]!.city) ?? 0) + 1)
    }
    const tried: Array<string> = []
    for (const [name] of [...counts].sort((a, b) => b[1] - a[1])) {
      const { status, body } = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent(name)}`)
      if (status === 200 && body.pager?.pages >= 2) {
        city = name
        break
      }
      tried.push(`${name}: ${status} ${status === 200 ? `${body.pager?.pages} page(s)` : JSON.stringify(body).slice(0, 200)}`)
    }
    // What the API answered for each town tried, should none have two pages of rides.
    expect(city, tried.slice(0, 20).join("; ")).toBeDefined()
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

  /** The API's ids for the page's own parameters (its blank fields left out, the locale's currency added as the page does). */
  const apiIdsFor = async (pageUrl: string): Promise<Array<string>> => {
    const params = new URLSearchParams([...new URL(pageUrl).searchParams].filter(([, v]) => v !== ""))
    if (!params.has("locale")) params.set("locale", "en_GB")
    if (!params.has("cur")) params.set("cur", LOCALE_TABLE[params.get("locale") as LocaleCode].currency)
    const { status, body } = await apiJson(params.toString())
    expect(status, pageUrl).toBe(200)
    return (body.trips as Array<Json>).map((t) => String(t.permanent_id))
  }

  it("searches from the form, applies a facet, changes page and opens a trip: the API's trips at each step", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB`)
    await page.getByLabel("From", { exact: true }).fill(city)
    // The town's suggestions open under the field (over the button below it): closed as a
    // keyboard user would, to search for the text as typed.
    await page.locator("#fn-suggestions li").first().waitFor()
    await page.keyboard.press("Escape")
    expect(await page.locator("#fn-suggestions").isHidden()).toBe(true)
    await Promise.all([page.waitForURL(/\/search\?.*fn=/), page.getByRole("button", { name: "Search" }).click()])
    const found = await shownIds(page)
    expect(found.length).toBe(10)
    expect(found).toEqual(await apiIdsFor(page.url()))

    // A facet: the first seats value offered, which narrows the search.
    const facet = page.locator('[data-facet="seats"] a').last()
    const facetText = (await facet.textContent())!
    await Promise.all([page.waitForURL(/seats=/), facet.click()])
    expect(new URL(page.url()).searchParams.get("seats")).toBe(/^(\d+)/.exec(facetText)![1])
    const narrowed = await shownIds(page)
    expect(narrowed).toEqual(await apiIdsFor(page.url()))
    expect(await page.locator('[data-facet="seats"] li.selected').count()).toBe(1)

    // Back to the whole search, then its next page.
    await page.goBack()
    await Promise.all([page.waitForURL(/page=2/), page.locator('a[rel="next"]').click()])
    const second = await shownIds(page)
    expect(second.length).toBeGreaterThan(0)
    expect(second).toEqual(await apiIdsFor(page.url()))
    expect(second.some((id) => found.includes(id))).toBe(false)
    expect(await page.locator('nav.pages [aria-current="page"]').textContent()).toBe("2")

    // A trip of that page: its own page, with every stop-over and the route.
    const first = page.locator("ol.trips > li").first()
    const id = (await first.getAttribute("data-id"))!
    await Promise.all([page.waitForURL(/\/trip\//), first.locator("a").click()])
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/trip/${id}`)
    const detail = (await (await fetch(`${base}/api/v2/trips/${encodeURIComponent(id)}?locale=en_GB&cur=GBP`, { headers: { key } })).json()) as Json
    expect(await page.locator("ol.stop-overs > li").count()).toBe(detail.stop_overs.length)
    expect(await page.locator("strong.price").textContent()).toBe(detail.price.string_value)
    expect(await page.locator("svg.route circle").count()).toBe(detail.stop_overs.length)
    await context.close()
  })

  it("opens the page of a _front link taken from the API's answers", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const { body } = await apiJson(`locale=fr_FR&cur=EUR&fn=${encodeURIComponent(city)}&limit=5&page=2`)
    const front = String(body.links._front)
    expect(front.startsWith(`${base}/search?`)).toBe(true)
    const res = await page.goto(front)
    expect(res?.status()).toBe(200)
    expect(await shownIds(page)).toEqual((body.trips as Array<Json>).map((t) => String(t.permanent_id)))
    expect(await page.locator("html").getAttribute("lang")).toBe("fr")

    const trip = (body.trips as Array<Json>)[0]!
    const tripFront = String(trip.links._front)
    expect((await page.goto(tripFront))?.status()).toBe(200)
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/trip/${String(trip.permanent_id)}`)
    expect(await page.locator("h1").textContent()).toContain(String(trip.departure_place.city_name))
    await context.close()
  })

  it("has no serious or critical axe-core violation on the search, trip, developers and error pages", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const { body } = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent(city)}`)
    const tripId = String((body.trips as Array<Json>)[0]!.permanent_id)
    const paths = [
      `/search?locale=en_GB&fn=${encodeURIComponent(city)}`,
      `/trip/${encodeURIComponent(tripId)}?locale=en_GB`,
      "/developers",
      "/developers/errors",
      "/search?fn=Paris&seats=99",
      "/search?locale=fr_FR",
      "/search?locale=de_DE&fn=Marseile",
      `/search?locale=en_GB&fn=${encodeURIComponent(city)}&comfort=2&experience=1`
    ]
    for (const path of paths) {
      await page.goto(`${base}${path}`)
      expect(await seriousViolations(page), path).toEqual([])
    }
    await context.close()
  })

  it("works with the keyboard alone: skip link, the form, a result", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(`${base}/search?locale=en_GB`)
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to the content")
    await page.keyboard.press("Enter")
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName ?? "")
    for (let k = 0; k < 10 && (await focusedName()) !== "fn"; k++) await page.keyboard.press("Tab")
    expect(await focusedName()).toBe("fn")
    await page.keyboard.type(city)
    await Promise.all([page.waitForURL(/fn=/), page.keyboard.press("Enter")])
    expect(await shownIds(page)).toEqual(await apiIdsFor(page.url()))
    // Tab to the first trip's link (its focus ring visible), and open it.
    const onTripLink = () => page.evaluate(() => document.activeElement?.closest("ol.trips") !== null && document.activeElement?.tagName === "A")
    for (let k = 0; k < 80 && !(await onTripLink()); k++) await page.keyboard.press("Tab")
    expect(await onTripLink()).toBe(true)
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid")
    await Promise.all([page.waitForURL(/\/trip\//), page.keyboard.press("Enter")])
    expect(await page.locator("h1").count()).toBe(1)
    await context.close()
  })

  it("labels a page in three other languages", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    for (const [locale, lang, button, from] of [
      ["fr_FR", "fr", "Rechercher", "Départ"],
      ["de_DE", "de", "Suchen", "Von"],
      ["pl_PL", "pl", "Szukaj", "Skąd"]
    ] as const) {
      await page.goto(`${base}/search?locale=${locale}&fn=${encodeURIComponent(city)}`)
      expect(await page.locator("html").getAttribute("lang")).toBe(lang)
      expect(await page.locator('form button[type="submit"]').textContent()).toBe(button)
      expect(await page.getByLabel(from, { exact: true }).count()).toBe(1)
      expect(await shownIds(page)).toEqual(await apiIdsFor(page.url()))
    }
    await context.close()
  })

  it("reads at phone width: nothing wider than the screen, text of a readable size", async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true })
    const page = await context.newPage()
    const { body } = await apiJson(`locale=en_GB&cur=GBP&fn=${encodeURIComponent(city)}`)
    for (const path of [`/search?locale=en_GB&fn=${encodeURIComponent(city)}`, `/trip/${encodeURIComponent(String(body.trips[0].permanent_id))}`, "/developers"]) {
      await page.goto(`${base}${path}`)
      const layout = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        width: window.innerWidth,
        smallestFont: Math.min(
          ...[...document.querySelectorAll("main p, main li, main label, main dd")].map((e) => parseFloat(getComputedStyle(e).fontSize))
        )
      }))
      expect(layout.width, path).toBe(360)
      expect(layout.scrollWidth, path).toBeLessThanOrEqual(360)
      expect(layout.smallestFont, path).toBeGreaterThanOrEqual(13)
    }
    await context.close()
  })
})
