import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { CURRENCIES, DEFAULT_RATES, type MatchPlace, type MatchRequest } from "@tripsearch/core"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** Cities the fixture's trips run between (and near), so that searches find many of them. */
export const CITIES = [
  { city: "Paris", lat: 48.8566, lon: 2.3522 },
  { city: "Lyon", lat: 45.764, lon: 4.8357 },
  { city: "Marseille", lat: 43.2965, lon: 5.3698 },
  { city: "Lille", lat: 50.6292, lon: 3.0573 },
  { city: "Bordeaux", lat: 44.8378, lon: -0.5792 },
  { city: "Nantes", lat: 47.2184, lon: -1.5536 },
  { city: "Dijon", lat: 47.322, lon: 5.0415 }
] as const

export const DAY_MS = 86_400_000
/** A fixed "now": trips depart over the following 8 days, some of them already gone. */
export const NOW = Date.UTC(2030, 4, 6, 9, 0, 0)

const lcg = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000)

/** One valid feed line (the feed format, `FeedTrip`) for trip `id`, drawn from `rand`. */
export const tripLine = (id: string, rand: () => number, departureMs?: number): string => {
  const a = CITIES[Math.floor(rand() * CITIES.length)]!
  let b = CITIES[Math.floor(rand() * CITIES.length)]!
  if (b === a) b = CITIES[(CITIES.indexOf(a) + 1) % CITIES.length]!
  const stops = Math.floor(rand() * 4) // 0..3 stop-overs on the way
  const n = stops + 2
  const jitter = () => (rand() - 0.5) * 0.2
  let offset = 0
  const waypoints = Array.from({ length: n }, (_, k) => {
    const f = k / (n - 1)
    if (k > 0) offset += 30 + Math.floor(rand() * 60)
    const end = k === 0 ? a : k === n - 1 ? b : undefined
    return {
      city: end?.city ?? `Stop ${k}`,
      lat: +(a.lat + (b.lat - a.lat) * f + jitter()).toFixed(5),
      lon: +(a.lon + (b.lon - a.lon) * f + jitter()).toFixed(5),
      country: "FR",
      offset_min: offset
    }
  })
  const currency = rand() < 0.8 ? "EUR" : rand() < 0.5 ? "GBP" : "PLN"
  const seats = 1 + Math.floor(rand() * 4)
  const departure = departureMs ?? NOW - DAY_MS / 2 + Math.floor(rand() * 8 * 24 * 4) * 15 * 60_000
  return JSON.stringify({
    id,
    departure_time: new Date(departure).toISOString(),
    waypoints,
    legs: Array.from({ length: n - 1 }, () => ({
      price: Math.round(200 + rand() * 3000) / 100,
      distance_km: +(20 + rand() * 200).toFixed(1),
      duration_s: 1200 + Math.floor(rand() * 7200)
    })),
    currency,
    seats,
    seats_left: Math.floor(rand() * (seats + 1)),
    booking_mode: rand() < 0.5 ? "auto" : "manual",
    booking_type: rand() < 0.7 ? "online" : rand() < 0.5 ? "onboard" : "no_booking",
    ...(rand() < 0.1 ? { service: "short" } : {}),
    car: { id: `car-${id}`, make: "Renault", model: "Clio", comfort: "Normal", comfort_nb_star: 2, category: "CATEGORY_TOURISM" },
    driver: { id: `d-${id}`, display_name: "Alex", picture: rand() < 0.6 ? "https://example.test/a.jpg" : null, experience: Math.floor(rand() * 5) }
  })
}

export const feedLines = (trips: number, seed: number, prefix = "t"): Array<string> => {
  const rand = lcg(seed)
  return Array.from({ length: trips }, (_, i) => tripLine(`${prefix}${i}`, rand))
}

/** A temporary store file holding `trips` generated trips. */
export const makeStore = async (trips: number, seed = 7): Promise<{ dir: string; dbPath: string; cleanup: () => void }> => {
  const dir = mkdtempSync(join(tmpdir(), "geo-pool-test-"))
  const dbPath = join(dir, "store.db")
  await importInto(dbPath, feedLines(trips, seed))
  return { dir, dbPath, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Imports feed lines into the store at `dbPath` through a connection of its own. */
export const importInto = async (dbPath: string, lines: ReadonlyArray<string>): Promise<void> => {
  const db = openDatabase(dbPath)
  try {
    const result = await importFeed(db, lines)
    if (!result.ok) throw new Error(result.errors.slice(0, 5).join("\n"))
  } finally {
    db.close()
  }
}

const place = (k: number, radiusKm: number, dLat = 0): MatchPlace => ({ lat: CITIES[k]!.lat + dLat, lon: CITIES[k]!.lon, radiusKm })

const base: MatchRequest = {
  nowMs: NOW,
  photoOnly: false,
  autoOnly: false,
  includeShort: false,
  currency: "EUR",
  priceMode: "with",
  rates: DEFAULT_RATES,
  sort: "trip_date",
  order: "asc",
  offset: 0,
  limit: 10,
  withTopTrips: true
}

/** Searches covering pairs, single places, windows, hours, seats, prices, both sorts, later pages. */
export const queries = (): Array<MatchRequest> => {
  const out: Array<MatchRequest> = []
  const startDay = Math.floor(NOW / DAY_MS) * DAY_MS
  for (let a = 0; a < CITIES.length; a++) {
    const b = (a + 1 + (a % 3)) % CITIES.length
    out.push({ ...base, from: place(a, 40), to: place(b, 40) })
    out.push({ ...base, from: place(a, 25, 0.05), sort: "trip_price", order: a % 2 === 0 ? "asc" : "desc", offset: 10 })
    out.push({ ...base, to: place(b, 30), seats: 2, includeShort: true, withTopTrips: false })
    out.push({
      ...base,
      from: place(b, 60),
      to: place(a, 60),
      localFromMs: startDay + (a % 4) * DAY_MS,
      localToMs: startDay + ((a % 4) + 2) * DAY_MS - 1000,
      hourFrom: 6,
      hourTo: 20,
      currency: CURRENCIES[a % CURRENCIES.length]!,
      priceMode: a % 2 === 0 ? "net" : "with"
    })
    out.push({ ...base, from: place(a, 80), priceMinMinor: 1000, priceMaxMinor: 4000, photoOnly: true, limit: 50, offset: 5 })
    out.push({ ...base, to: place(a, 10), autoOnly: true, sort: "trip_price", limit: 0 })
  }
  return out
}
