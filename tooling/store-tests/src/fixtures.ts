import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { FeedTripInput } from "@tripsearch/core"

/** A valid feed trip Paris -> Lyon -> Marseille; `overrides` replace top-level fields. */
export const tripInput = (id: string, overrides: Partial<Record<keyof FeedTripInput, unknown>> & Record<string, unknown> = {}): Record<string, unknown> => ({
  id,
  departure_time: "2026-07-15T08:30:00+02:00",
  waypoints: [
    { city: "Paris", address: "Porte d'Orléans", lat: 48.8566, lon: 2.3522, country: "FR", offset_min: 0 },
    { city: "Lyon", lat: 45.764, lon: 4.8357, country: "FR", meeting_point_id: 12, offset_min: 270 },
    { city: "Marseille", lat: 43.2965, lon: 5.3698, country: "FR", offset_min: 480 }
  ],
  legs: [
    { price: 24.5, distance_km: 465.3, duration_s: 16200 },
    { price: 17, distance_km: 314.1234, duration_s: 11700 }
  ],
  currency: "EUR",
  seats: 3,
  seats_left: 2,
  booking_mode: "auto",
  booking_type: "online",
  car: { id: "car-1", make: "Peugeot", model: "308", color: "Gris", comfort: "Comfortable", comfort_nb_star: 3, category: "CATEGORY_TOURISM" },
  driver: { id: "drv-1", display_name: "Camille", picture: "https://example.test/c.jpg", experience: 3 },
  ...overrides
})

export const toLine = (trip: Record<string, unknown>): string => JSON.stringify(trip)
export const feed = (trips: ReadonlyArray<Record<string, unknown> | string>): string =>
  trips.map((t) => (typeof t === "string" ? t : toLine(t))).join("\n") + "\n"

/** Trips of every shape: 2..10 waypoints, 0- and 2-digit currencies, flags on and off. */
export const variedTrips = () =>
  Array.from({ length: 30 }, (_, i) => {
    const n = 2 + (i % 9)
    const waypoints = Array.from({ length: n }, (_, k) => ({
      city: `City ${k}`,
      lat: 40 + k * 0.7 + i * 0.01,
      lon: -3 + k * 1.3 + i * 0.02,
      country: "ES",
      offset_min: k * (35 + i)
    }))
    const currency = ["EUR", "HUF", "GBP", "RSD"][i % 4]
    const legs = Array.from({ length: n - 1 }, (_, k) => ({
      price: currency === "HUF" || currency === "RSD" ? 1000 + k * 7 + i : 1.1 + k + i / 100,
      distance_km: 12.3456 + k * 3.21 + i,
      duration_s: 600 + k * 61 + i
    }))
    return tripInput(`v${i}`, {
      departure_time: `2026-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:15:00${i % 2 ? "Z" : "-03:30"}`,
      waypoints,
      legs,
      currency,
      seats: 1 + (i % 8),
      seats_left: i % 2,
      booking_mode: i % 3 ? "auto" : "manual",
      booking_type: ["online", "onboard", "no_booking"][i % 3],
      service: i % 4 ? "standard" : "short",
      car: { id: "c", make: "M", model: "X", comfort: ["Basic", "Normal", "Comfortable", "Luxury"][i % 4], comfort_nb_star: 1 + (i % 4), category: "CATEGORY_TOURISM" },
      driver: { id: "d", display_name: "D", picture: i % 5 ? "https://x.test/p.png" : null, experience: i % 5 },
      ...(i % 7 === 3 ? { status: "cancelled" } : {})
    })
  })

/** A temp directory removed by `cleanup`. */
export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-store-"))
  return {
    dir,
    path: (name: string) => join(dir, name),
    write: (name: string, text: string) => {
      const p = join(dir, name)
      writeFileSync(p, text)
      return p
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true })
  }
}
