import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { SlotSort } from "../src/search/tripIndex/SlotSort.js"

describe("SlotSort (radix sort of slots, a value carried with each)", () => {
  it("orders slots as a stable sort does, each value beside its slot, for slots of 1 to 31 bits", () => {
    const sorter = new SlotSort()
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 31 }), fc.array(fc.nat(), { maxLength: 3000 }), (bits, raw) => {
        const slots = raw.map((x) => x % 2 ** bits)
        const keys = Int32Array.from(slots)
        // The value is the hit's place in the list: stability shows as values rising within a slot.
        const vals = Int32Array.from(slots, (_, i) => i)
        sorter.sort(keys, keys.length, bits, vals)
        const want = slots.map((slot, i) => [slot, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
        expect([...keys]).toEqual(want.map(([slot]) => slot))
        expect([...vals]).toEqual(want.map(([, i]) => i))
        const alone = Int32Array.from(slots)
        sorter.sort(alone, alone.length, bits)
        expect([...alone]).toEqual(want.map(([slot]) => slot))
      }),
      { numRuns: 300 }
    )
  })
})
