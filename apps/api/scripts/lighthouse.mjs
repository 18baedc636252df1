// `npm run lighthouse`: Lighthouse 12 (the npm package) on the website's home, search and trip
// pages, with its default mobile emulation and simulated throttling, driving Debian's Chromium
// (`--chrome-path`, never a downloaded browser). The server runs over a small generated store,
// its map tiles from a local stub (tests and measures never fetch OpenStreetMap's tiles). Prints
// the four scores and the JavaScript each page loads (bytes as transferred, gzip), and exits 1
// when a page misses a target: accessibility, best practices >= 95, SEO >= 90, performance >= 90,
// JavaScript <= 300 KB.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { CHROMIUM_FLAGS } from "./chromium.mjs"
import { startTileStub } from "./tileStub.mjs"
import { scriptArgs } from "../../../tooling/scripts/scriptArgs.mjs"

const args = scriptArgs("lighthouse", "usage: npm run lighthouse [-- --save DIR]\n  Lighthouse on the home, search and trip pages; --save writes each report as JSON into DIR.", { save: { type: "string" } })
// Loaded after the command line: --help and a refusal answer at once, without them.
const { feedLines } = await import("@tripsearch/dataset")
const { importFeed, openDatabase } = await import("@tripsearch/storage-sqlite")
const { createServer } = await import("../dist/createServer.js")
const { DEFAULT_MAP_TILES } = await import("../dist/config.js")

const here = dirname(fileURLToPath(import.meta.url))
const CHROMIUM = process.env.TRIPSEARCH_CHROMIUM ?? process.env.CHROME_PATH ?? "/usr/bin/chromium"
const TARGETS = { performance: 90, accessibility: 95, "best-practices": 95, seo: 90 }
const MAX_JS_BYTES = 300 * 1024

const dir = mkdtempSync(join(tmpdir(), "tripsearch-lighthouse-"))
const dbPath = join(dir, "trips.db")
const lines = [...feedLines({ trips: 2000, seed: "lighthouse", nowMs: Date.now() })]
const db = openDatabase(dbPath)
const imported = await importFeed(db, lines)
db.close()
if (!imported.ok) throw new Error("the generated feed did not import")
const trips = lines.map((line) => JSON.parse(line))
const counts = new Map()
for (const trip of trips) counts.set(trip.waypoints[0].city, (counts.get(trip.waypoints[0].city) ?? 0) + 1)
const town = [...counts].sort((a, b) => b[1] - a[1])[0][0]
const shown = trips.find((t) => (t.status ?? "active") === "active" && t.waypoints.length >= 3)

const tiles = await startTileStub()
const server = await createServer({
  config: {
    dbPath,
    publicBaseUrl: "http://127.0.0.1:0",
    websiteBaseUrl: "http://127.0.0.1:0",
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
const pages = {
  // The website's home page: the search form, which the header links to (`/` is the API's).
  home: "/search?locale=en_GB",
  search: `/search?locale=en_GB&fn=${encodeURIComponent(town)}`,
  trip: `/trip/${encodeURIComponent(`${shown.id}_0_${shown.waypoints.length - 1}`)}?locale=en_GB`
}

const require = createRequire(import.meta.url)
const cli = join(dirname(require.resolve("lighthouse/package.json")), "cli", "index.js")

/** Lighthouse's report of one page (its JSON), run as its command line does. */
const audit = (url) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        cli,
        url,
        `--chrome-path=${CHROMIUM}`,
        `--chrome-flags=${["--headless=new", ...CHROMIUM_FLAGS].join(" ")}`,
        "--only-categories=performance,accessibility,best-practices,seo",
        "--output=json",
        "--output-path=stdout",
        "--quiet"
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CHROME_PATH: CHROMIUM } }
    )
    const out = []
    const err = []
    child.stdout.on("data", (b) => out.push(b))
    child.stderr.on("data", (b) => err.push(b))
    child.on("error", reject)
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`lighthouse exited ${code}: ${Buffer.concat(err).toString().slice(-2000)}`))
      else resolve(JSON.parse(Buffer.concat(out).toString()))
    })
  })

let failed = false
const rows = []
try {
  for (const [name, path] of Object.entries(pages)) {
    const report = await audit(`${base}${path}`)
    // `--save DIR` keeps each page's whole report (`DIR/{page}.json`) for a closer look.
    if (args.save !== undefined) writeFileSync(join(args.save, `${name}.json`), JSON.stringify(report))
    const scores = Object.fromEntries(Object.keys(TARGETS).map((c) => [c, Math.round(report.categories[c].score * 100)]))
    const requests = report.audits["network-requests"]?.details?.items ?? []
    const jsBytes = requests.filter((r) => r.resourceType === "Script").reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
    const misses = [
      ...Object.entries(TARGETS).filter(([c, min]) => scores[c] < min).map(([c, min]) => `${c} ${scores[c]} < ${min}`),
      ...(jsBytes > MAX_JS_BYTES ? [`JavaScript ${jsBytes} B > ${MAX_JS_BYTES} B`] : [])
    ]
    // What lost points, so that a miss says where to look.
    const lost = Object.values(report.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual" && a.scoreDisplayMode !== "notApplicable")
      .map((a) => a.id)
    if (misses.length > 0) {
      failed = true
      for (const id of lost) console.error(`${name} ${id}: ${JSON.stringify(report.audits[id].details?.items ?? []).slice(0, 600)}`)
    }
    rows.push({ name, path, ...scores, jsKB: Math.round(jsBytes / 102.4) / 10, lost, misses })
  }
} finally {
  await server.close()
  await tiles.close()
  rmSync(dir, { recursive: true, force: true })
}

console.log(`Lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version}, mobile emulation, simulated throttling, ${CHROMIUM}`)
console.log("| page | performance | accessibility | best practices | SEO | JavaScript (gzip) |")
console.log("| --- | --- | --- | --- | --- | --- |")
for (const r of rows) console.log(`| ${r.name} | ${r.performance} | ${r.accessibility} | ${r["best-practices"]} | ${r.seo} | ${r.jsKB} KB |`)
for (const r of rows) if (r.lost.length > 0) console.log(`${r.name}: audits under 0.9: ${r.lost.join(", ")}`)
for (const r of rows) if (r.misses.length > 0) console.log(`${r.name} misses: ${r.misses.join("; ")}`)
process.exit(failed ? 1 : 0)
