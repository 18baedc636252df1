import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { decodeShown, isCompact, ShownEncoder, type ShownTuple } from "../src/search/tripIndex/shownCodec.js"
import { TripColumns } from "../src/search/tripIndex/TripColumns.js"

// Texts of every kind: ASCII, Latin-1, beyond (accents, Cyrillic, CJK, emoji as surrogate pairs), empty.
// A text of 300,000 characters too: more than one String.fromCharCode call can take at once.
const text = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("", "Zürich", "Łódź", "Москва", "東京", "🚗 car", "Ł".repeat(300_000), "a".repeat(300_001)))
const small = fc.integer({ min: 0, max: 2 ** 31 - 1 })
const tuple: fc.Arbitrary<ShownTuple> = fc.tuple(
  text,
  text,
  text,
  fc.constantFrom("Basic", "Normal", "Comfortable", "Luxury"),
  fc.integer({ min: 1, max: 4 }),
  text,
  fc.constantFrom("auto", "manual"),
  fc.boolean(),
  fc.boolean(),
  small,
  fc.option(fc.array(text, { maxLength: 4 }), { nil: null }),
  fc.array(fc.tuple(text, text, fc.option(text, { nil: null }), fc.option(small, { nil: null })), { minLength: 2, maxLength: 12 }),
  fc.array(small, { maxLength: 11 })
) as fc.Arbitrary<ShownTuple>

describe("shownCodec", () => {
  it("gives back every tuple it encodes, word by word, with one word table for many tuples", () => {
    fc.assert(
      fc.property(fc.array(tuple, { minLength: 1, maxLength: 8 }), (tuples) => {
        const words: Array<string> = []
        const ids = new Map<string, number>()
        const wordId = (w: string): number => ids.get(w) ?? (ids.set(w, words.length), words.push(w) - 1)
        const encoder = new ShownEncoder()
        const kept = tuples.map((t) => Uint8Array.from(encoder.encode(t, wordId)!))
        kept.forEach((bytes, k) => {
          expect(isCompact(bytes, 0)).toBe(true)
          expect(decodeShown(bytes, 0, (n) => words[n]!)).toEqual(tuples[k])
        })
      }),
      { numRuns: 500 }
    )
  })

  it("refuses what it has no room for, and the index then keeps the JSON as it came", () => {
    const base: ShownTuple = ["car", "AUDI", "Q5", "Comfortable", 3, "CATEGORY_4X4", "auto", false, true, 0, null, [["A", "FR", null, null], ["B", "FR", "x", 7]], [60]]
    const odd: ReadonlyArray<(t: Array<unknown>) => void> = [
      (t) => (t[9] = 2 ** 31),
      (t) => (t[9] = 1.5),
      (t) => (t[4] = -1),
      (t) => (t[12] = [60.5]),
      (t) => (t[1] = null),
      (t) => (t[7] = 0),
      (t) => (t[11] = [["A", "FR", null, 2 ** 40], ["B", "FR", null, null]])
    ]
    const encoder = new ShownEncoder()
    for (const change of odd) {
      const t = structuredClone(base) as unknown as Array<unknown>
      change(t)
      expect(encoder.encode(t as unknown as ShownTuple, () => 0)).toBeUndefined()
      const columns = new TripColumns()
      const json = new TextEncoder().encode(JSON.stringify(t))
      const slot = columns.append({
        id: "T1", departureMs: 0, lat: [1, 2], lon: [1, 2], offsetMin: [0, 60], zoneOffsetMin: [0, 0], legPriceMinor: [100], legDistanceM: [1000], legDurationS: [60],
        currency: "EUR", seats: 3, seatsLeft: 2, autoBooking: true, bookingType: "online", short: false, hasPhoto: false, experience: 1, comfortStars: 3, shown: json
      })
      expect(columns.shownTuple(slot)).toEqual(t)
      expect(new TextDecoder().decode(columns.recordOf(slot).shown)).toBe(JSON.stringify(t))
    }
  })
})
