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
