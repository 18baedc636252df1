import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { IdTable, type IdSource } from "../src/search/tripIndex/IdTable.js"

/** Ids kept as the index keeps them: the code units of every ref's id one after the other. */
class Ids implements IdSource {
  chars = new Uint16Array(1 << 16)
  private readonly starts: Array<number> = [0]
  push(id: string): number {
    const at = this.starts[this.starts.length - 1]!
    if (at + id.length > this.chars.length) {
      const more = new Uint16Array(2 * (at + id.length))
      more.set(this.chars)
      this.chars = more
    }
    for (let k = 0; k < id.length; k++) this.chars[at + k] = id.charCodeAt(k)
    this.starts.push(at + id.length)
    return this.starts.length - 2
  }
  from(ref: number): number {
    return this.starts[ref]!
  }
  to(ref: number): number {
    return this.starts[ref + 1]!
  }
}

// Few distinct ids, so that adds, deletes and re-adds of one id interleave; thousands of operations,
// so that the table grows and rehashes over its deleted cells several times.
const op = fc.tuple(fc.integer({ min: 0, max: 2500 }), fc.constantFrom("add", "delete", "get"), fc.constantFrom("", "é", "-x", "\u{1F697}"))

describe("IdTable", () => {
  it("answers like a Map of id -> ref through adds, deletes and rehashes", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 2000, maxLength: 6000 }), (ops) => {
        const source = new Ids()
        const table = new IdTable()
        // A load reserves room for what it knows is coming; other runs grow the table as they go.
        if (ops.length % 2 === 0) table.reserve(ops.length, source)
        const reference = new Map<string, number>()
        for (const [n, what, suffix] of ops) {
          const id = `trip-${n}${suffix}`
          if (what === "add") {
            // The index always removes an id before adding it again under a new ref.
            expect(table.delete(id, source)).toBe(reference.get(id) ?? -1)
            const ref = source.push(id)
            table.add(ref, source)
            reference.set(id, ref)
          } else if (what === "delete") {
            expect(table.delete(id, source)).toBe(reference.get(id) ?? -1)
            reference.delete(id)
          } else expect(table.get(id, source)).toBe(reference.get(id) ?? -1)
          expect(table.size).toBe(reference.size)
        }
        for (const [id, ref] of reference) expect(table.get(id, source)).toBe(ref)
      }),
      // A failure is reported as found: shrinking thousands of operations would take minutes.
      { numRuns: 40, endOnFailure: true }
    )
  })

  it("tells apart ids of equal hash buckets and of one another's prefix", () => {
    const source = new Ids()
    const table = new IdTable()
    const ids = ["a", "ab", "abc", "", "b", "ba"]
    ids.forEach((id) => table.add(source.push(id), source))
    ids.forEach((id, ref) => expect(table.get(id, source)).toBe(ref))
    expect(table.get("abcd", source)).toBe(-1)
    expect(table.delete("ab", source)).toBe(1)
    expect(table.get("abc", source)).toBe(2)
    expect(table.get("ab", source)).toBe(-1)
  })
})
