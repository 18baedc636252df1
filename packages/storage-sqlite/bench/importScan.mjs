// Import and scan speed on N synthetic trips (default 100,000).
// Build first, then: node packages/storage-sqlite/bench/importScan.mjs [N] [DB_PATH]
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs"
import { constants, tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { importFeed, makeSqliteTripStore, openDatabase } from "../dist/index.js"

const N = Number(process.argv[2] ?? 100_000)
const dir = mkdtempSync(join(tmpdir(), "tripsearch-bench-"))
const dbPath = process.argv[3] ?? join(dir, "bench.db")
const feedPath = join(dir, "feed.ndjson")
// Ctrl-C or SIGTERM: the feed and the store written so far go with the folder (once the feed's
// writing, which does not yield, is done), and the exit says which signal stopped it.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    rmSync(dir, { recursive: true, force: true })
    process.exit(128 + constants.signals[signal])
  })
}

let seed = 42
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
const CURRENCIES = ["EUR", "EUR", "EUR", "GBP", "PLN", "CZK", "HUF", "RON"]
const fd = openSync(feedPath, "w")
let lines = []
for (let i = 0; i < N; i++) {
  const n = 2 + Math.floor(rand() * 4)
  const lat0 = 36 + rand() * 20
  const lon0 = -8 + rand() * 30
  const currency = CURRENCIES[i % CURRENCIES.length]
  const zeroDigits = currency === "CZK" || currency === "HUF"
  lines.push(JSON.stringify({
    id: `t${i}`,
    departure_time: new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 365 * 24 * 60) * 60_000).toISOString(),
    waypoints: Array.from({ length: n }, (_, k) => ({ city: `City ${k}`, lat: +(lat0 + k * 0.4).toFixed(5), lon: +(lon0 + k * 0.5).toFixed(5), country: "FR", offset_min: k * 45 })),
    legs: Array.from({ length: n - 1 }, () => ({ price: zeroDigits ? 100 + Math.floor(rand() * 5000) : Math.round(rand() * 4000 + 100) / 100, distance_km: +(rand() * 300).toFixed(1), duration_s: Math.floor(rand() * 10000) })),
    currency, seats: 4, seats_left: Math.floor(rand() * 5), booking_mode: rand() < 0.5 ? "auto" : "manual", booking_type: "online",
    comment: "Bonjour, je pars de la gare, bagages moyens acceptés. ".repeat(1 + Math.floor(rand() * 4)),
    car: { id: `car${i}`, make: "Renault", model: "Clio", color: "Bleu", comfort: "Normal", comfort_nb_star: 2, category: "CATEGORY_TOURISM" },
    driver: { id: `d${i}`, display_name: "Alex", picture: rand() < 0.7 ? "https://example.test/a.jpg" : null, experience: Math.floor(rand() * 5) }
  }))
  if (lines.length === 10_000 || i === N - 1) {
    writeSync(fd, lines.join("\n") + "\n")
    lines = []
  }
}
closeSync(fd)

const db = openDatabase(dbPath)
let t = performance.now()
const result = await importFeed(db, feedPath)
const importMs = performance.now() - t
if (!result.ok) throw new Error(result.errors.slice(0, 5).join("\n"))
db.pragma("wal_checkpoint(TRUNCATE)")
const store = makeSqliteTripStore(db)
let count = 0
let checksum = 0
t = performance.now()
Effect.runSync(store.scanIndex((r) => { count++; checksum += r.lat.length }))
const scanMs = performance.now() - t
const mb = statSync(dbPath).size / 1e6
console.log(`${N} trips: import ${(importMs / 1000).toFixed(1)} s (${Math.round(N / (importMs / 1000))} lines/s), ` +
  `scan ${(scanMs / 1000).toFixed(2)} s (${Math.round(count / (scanMs / 1000))} records/s, ${checksum} waypoints), db ${mb.toFixed(0)} MB`)
db.close()
rmSync(dir, { recursive: true, force: true })
