import { describe, expect, it } from "vitest"
import { Random } from "../src/Random.js"

describe("Random", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const draw = (seed: string | number) => {
      const r = new Random(seed)
      return Array.from({ length: 8 }, () => r.next())
    }
    expect(draw("a")).toEqual(draw("a"))
    expect(draw("a")).not.toEqual(draw("b"))
    expect(draw(1)).toEqual(draw("1"))
  })

  it("stays in range and spreads over it", () => {
    const r = new Random(7)
    const counts = [0, 0, 0, 0, 0, 0]
    for (let i = 0; i < 60_000; i++) {
      const x = r.next()
      expect(x >= 0 && x < 1).toBe(true)
      counts[r.int(0, 5)]!++
    }
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500)
  })

  it("draws by weight, never a zero weight", () => {
    const r = new Random(9)
    const counts = [0, 0, 0]
    for (let i = 0; i < 30_000; i++) counts[r.weighted([1, 0, 3])]!++
    expect(counts[1]).toBe(0)
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.7)
    expect(counts[2]! / counts[0]!).toBeLessThan(3.3)
    const cumulative = Float64Array.from([1, 1, 4])
    for (let i = 0; i < 1000; i++) expect(r.cumulative(cumulative)).not.toBe(1)
  })
})
