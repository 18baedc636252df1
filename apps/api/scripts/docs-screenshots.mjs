// Writes the README's screenshots of the website (docs/screenshots/*.png): a search page, a
// trip page, a search with its filters open, and a misspelt town, at desktop and at phone width,
// taken in headless Chromium from a server over a small generated store. The map's tiles come
// from a local stub (a pale grid): the pictures show the road, the stops and their labels.
// `npm run docs:screenshots` (which installs Chromium first when it is missing).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { CHROMIUM, CHROMIUM_FLAGS } from "./chromium.mjs"
import { startTileStub } from "./tileStub.mjs"
import { scriptArgs } from "../../../tooling/scripts/scriptArgs.mjs"

scriptArgs("docs-screenshots", "usage: npm run docs:screenshots\n  Takes the website screenshots in docs/screenshots/ again, in headless Chromium.")
// Loaded after the command line: --help and a refusal answer at once, without them.
const { chromium } = await import("playwright-core")
const { feedLines } = await import("@tripsearch/dataset")
const { importFeed, openDatabase } = await import("@tripsearch/storage-sqlite")
const { createServer } = await import("../dist/createServer.js")
const { DEFAULT_MAP_TILES } = await import("../dist/config.js")

const here = dirname(fileURLToPath(import.meta.url))
const out = resolve(here, "../../../docs/screenshots")
const ARGS = ["--headless", ...CHROMIUM_FLAGS]
const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } }

const dir = mkdtempSync(join(tmpdir(), "tripsearch-screenshots-"))
const dbPath = join(dir, "trips.db")
const lines = [...feedLines({ trips: 2000, seed: "screenshots", nowMs: Date.now() })]
const db = openDatabase(dbPath)
const imported = await importFeed(db, lines)
db.close()
if (!imported.ok) throw new Error("the generated feed did not import")

// The commonest departure town, and a trip with stop-overs and questions to show a part of.
const trips = lines.map((line) => JSON.parse(line))
const counts = new Map()
for (const trip of trips) counts.set(trip.waypoints[0].city, (counts.get(trip.waypoints[0].city) ?? 0) + 1)
const town = [...counts].sort((a, b) => b[1] - a[1])[0][0]
const shown = trips.find(
  (t) => (t.status ?? "active") === "active" && t.waypoints.length >= 4 && (t.questions ?? []).some((q) => q.answer) && (t.messaging_status ?? "public") === "public"
)

const tiles = await startTileStub()
const server = await createServer({
  config: {
    dbPath,
    publicBaseUrl: "http://localhost:3000",
    websiteBaseUrl: "http://localhost:3000",
    queryLogPath: undefined,
    productionDailyLimit: undefined,
    matcherThreads: 1,
    metrics: false,
    mapTiles: { url: tiles.url, attribution: DEFAULT_MAP_TILES.attribution }
  },
  logger: { info: () => {}, error: () => {} }
})
const { port } = await server.listen(0, "127.0.0.1")
const base = `http://127.0.0.1:${port}`
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
try {
  mkdirSync(out, { recursive: true })
  const pages = {
    search: `/search?locale=en_GB&fn=${encodeURIComponent(town)}&limit=5`,
    trip: `/trip/${encodeURIComponent(`${shown.id}_1_${shown.waypoints.length - 1}`)}?locale=en_GB`,
    filters: `/search?locale=fr_FR&fn=${encodeURIComponent(town)}&limit=5&comfort=3`,
    misspelt: `/search?locale=de_DE&fn=${encodeURIComponent(`${town.slice(0, -1)}${town.slice(-1) === "e" ? "a" : "e"}`)}`
  }
  for (const [name, path] of Object.entries(pages)) {
    for (const [width, viewport] of Object.entries(WIDTHS)) {
      const context = await browser.newContext({ viewport, isMobile: width === "phone", deviceScaleFactor: 1 })
      const page = await context.newPage()
      const res = await page.goto(`${base}${path}`)
      if (res?.status() !== (name === "misspelt" ? 404 : 200)) throw new Error(`${path} answered ${res?.status()}`)
      if (name === "filters" && width === "phone") await page.locator(".filters-button").click()
      // The map is drawn once it nears the screen: brought into view, then the page's top again.
      if ((await page.locator("#map").count()) > 0) {
        await page.locator("#map").scrollIntoViewIfNeeded()
        await page.locator(".leaflet-tooltip").first().waitFor()
        await page.evaluate(() => window.scrollTo(0, 0))
      }
      await page.waitForLoadState("networkidle")
      const file = join(out, `${name}-${width}.png`)
      // The page from its top, cut at two screens or so: the rest repeats what is shown.
      const height = await page.evaluate(() => document.documentElement.scrollHeight)
      await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width: viewport.width, height: Math.min(height, viewport.height * 2) } })
      console.log(`wrote ${file}`)
      await context.close()
    }
  }
} finally {
  await browser.close()
  await server.close()
  await tiles.close()
  rmSync(dir, { recursive: true, force: true })
}
