import { describe, expect, it } from "vitest"
import { nearestRank, summarizeLatencies } from "../src/percentiles.js"

describe("nearest-rank percentiles", () => {
  it("are measured values of rank ceil(p/100 * n)", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i + 1) // 1..1000 ms
    const shuffled = [...values].sort((a, b) => ((a * 7919) % 1000) - ((b * 7919) % 1000))
    const s = summarizeLatencies(shuffled)
    expect(s).toMatchObject({ count: 1000, min: 1, p50: 500, p90: 900, p99: 990, "p99.9": 999, max: 1000 })
    expect(s.mean).toBeCloseTo(500.5)
  })

  it("on a short list, p99 and p99.9 are the maximum", () => {
    const s = summarizeLatencies([5, 1, 4, 2, 3])
    expect(s).toMatchObject({ p50: 3, p90: 5, p99: 5, "p99.9": 5, max: 5, min: 1 })
  })

  it("ten values: p50 is the 5th, p90 the 9th", () => {
    const sorted = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
    expect(nearestRank(sorted, 50)).toBe(50)
    expect(nearestRank(sorted, 90)).toBe(90)
    expect(nearestRank(sorted, 91)).toBe(100)
    expect(nearestRank(sorted, 100)).toBe(100)
    expect(nearestRank(sorted, 0.1)).toBe(10)
  })

  it("an empty list has none; p outside (0, 100] is refused", () => {
    expect(summarizeLatencies([])).toMatchObject({ count: 0, p50: undefined, max: undefined })
    expect(() => nearestRank([1], 0)).toThrow(RangeError)
    expect(() => nearestRank([1], 101)).toThrow(RangeError)
  })
})
