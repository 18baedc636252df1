import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { selectSorted } from "../src/search/tripIndex/ranking.js"

// Many ties (values 0-9) so that the order among equal keys is what is tested: the comparator
// breaks them by the item itself, as the page's does by permanent id, so the order is total.
const byKeyThenItem =
  (keys: ReadonlyArray<number>) =>
  (a: number, b: number): number =>
    keys[a]! - keys[b]! || a - b

describe("selectSorted", () => {
  it("gives the first k of the first n items in compare order, as a full sort does, from an array or a typed array", () => {
    // Both ways are taken: a full sort where k is a large part of the n items, the bounded
    // insertion where it is small (a page of 10 among thousands of matches).
    const input = fc
      .array(fc.integer({ min: 0, max: 9 }), { maxLength: 300, size: "max" })
      .chain((keys) =>
        fc.tuple(
          fc.constant(keys),
          fc.integer({ min: 0, max: keys.length }),
          fc.oneof(fc.integer({ min: -1, max: 12 }), fc.integer({ min: -1, max: keys.length + 2 }))
        )
      )
    fc.assert(
      fc.property(input, ([keys, n, k]) => {
        const compare = byKeyThenItem(keys)
        // Items are indexes into `keys`, in a scrambled order; a typed array longer than `n`, as
        // the matches' scratch is, must be read up to `n` only.
        const items = keys.map((_, i) => (i * 7919) % keys.length)
        const scratch = Int32Array.from([...items, 0, 0, 0])
        const expected = items.slice(0, n).sort(compare).slice(0, Math.max(0, k))
        expect(selectSorted(items.slice(0, n), k, compare)).toEqual(expected)
        expect(selectSorted(scratch, k, compare, n)).toEqual(expected)
      }),
      { numRuns: 2_000 }
    )
  })
})
