import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { feedLines } from "@tripsearch/dataset"
import { createKey, importFeed, openDatabase } from "@tripsearch/storage-sqlite"
// The real API server (built: `npm run build` builds apps/api before the tests run).
import { type ApiServer, createServer } from "../../api/dist/createServer.js"

export const SEED = 4242
export const API_BASE = "https://api.replay.test"
export const WEBSITE_BASE = "https://www.replay.test"

export interface FeedTripLine {
  readonly id: string
  readonly departure_time: string
  readonly waypoints: ReadonlyArray<{ readonly city: string; readonly lat: number; readonly lon: number }>
}

/** A temp SQLite store of `trips` generated trips (optionally edited line by line) and a key. */
export const makeStore = async (
  dir: string,
  name: string,
  trips: number,
  nowMs: number,
  edit?: (line: string, index: number) => string
): Promise<{ dbPath: string; key: string; lines: Array<string> }> => {
  const dbPath = join(dir, `${name}.db`)
  const lines = [...feedLines({ trips, seed: SEED, nowMs })].map((l, i) => (edit ? edit(l, i) : l))
  const db = openDatabase(dbPath)
  try {
    const result = await importFeed(db, lines)
    if (!result.ok) throw new Error(`import refused: ${result.errors.slice(0, 3).join("; ")}`)
    const { key } = createKey(db, { name: "replay-test", tier: "production", dailyLimit: 1_000_000 })
    return { dbPath, key, lines }
  } finally {
    db.close()
  }
}

export const tempDir = (): { dir: string; remove: () => void } => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-replay-"))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A real API server listening on an ephemeral port over the store. */
export const startServer = async (dbPath: string, queryLogPath?: string): Promise<{ api: ApiServer; baseUrl: string }> => {
  // The in-thread matcher (`matcherThreads: 0`), as the core target uses: same index, same answers.
  const config = {
    dbPath,
    publicBaseUrl: API_BASE,
    websiteBaseUrl: WEBSITE_BASE,
    queryLogPath,
    productionDailyLimit: undefined,
    matcherThreads: 0,
    matcherMaxQueue: 1_000
  }
  const api = await createServer({ config, logger: { info: () => {}, error: () => {} } })
  const address = await api.listen(0, "127.0.0.1")
  return { api, baseUrl: `http://127.0.0.1:${address.port}` }
}

/** A small query log exercising searches, details, threads and the errors, from the feed's trips. */
export const sampleQueries = (lines: ReadonlyArray<string>): Array<string> => {
  const trips = lines.slice(0, 40).map((l) => JSON.parse(l) as FeedTripLine)
  const out: Array<string> = []
  const locales = [["fr_FR", "EUR"], ["en_GB", "GBP"], ["de_DE", "EUR"], ["pl_PL", "PLN"], ["ru_RU", "UAH"], ["cs_CZ", "CZK"]] as const
  for (const [k, t] of trips.slice(0, 12).entries()) {
    const a = t.waypoints[0]!
    const b = t.waypoints[t.waypoints.length - 1]!
    const [locale, cur] = locales[k % locales.length]!
    const lc = `locale=${locale}&cur=${cur}`
    out.push(`/api/v2/trips?${lc}&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}`)
    out.push(`/api/v2/trips?${lc}&fn=${encodeURIComponent(a.city)}&tn=${encodeURIComponent(b.city)}&sort=trip_price&order=desc`)
    out.push(`/api/v2/trips?${lc}&fn=${encodeURIComponent(a.city)}&limit=5&page=2&_format=json`)
    out.push(`/api/v2/trips?${lc}&tc=${b.lat}%7C${b.lon}&seats=2&sort=trip_date`)
    out.push(`/api/v2/trips/${encodeURIComponent(t.id)}?${lc}&_format=json`)
    out.push(`/api/v2/trips/${encodeURIComponent(t.id)}/threads?${lc}&_format=json`)
    if (k % 3 === 0) {
      out.push(`/api/v2/trips?${lc}&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}&_format=xml`)
      out.push(`/api/v2/trips/${encodeURIComponent(t.id)}?${lc}&_format=xml`)
      out.push(`/api/v2/trips/${encodeURIComponent(t.id)}/threads?${lc}&_format=xml`)
    }
  }
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Nowhereville-sur-Rien&tn=Paris")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fc=95%7C2&tc=48.8%7C2.3")
  out.push("/api/v2/trips?locale=xx_XX&cur=EUR&fn=Paris")
  out.push("/api/v2/trips?locale=fr_FR&cur=GBP&fn=Paris")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&fn=Lyon")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fn=%E0%A4%A&tn=Lyon")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&_format=yaml&fn=Paris")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&pmin=20")
  out.push("/api/v2/trips/no-such-trip?locale=fr_FR&_format=json")
  out.push("/api/v2/trips/no-such-trip?locale=fr_FR&_format=xml")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fn=Nowhereville-sur-Rien&_format=xml")
  out.push("/api/v2/trips?locale=fr_FR&cur=EUR&fn=%E0%A4%A&_format=xml")
  out.push("/api/v2/trips/%E0%A4%A?locale=fr_FR")
  out.push("/api/v2/elsewhere?locale=fr_FR")
  out.push("/API/V2/TRIPS/?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon")
  return out
}
