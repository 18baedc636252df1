import { describe, expect, it } from "vitest"
import { distanceProfile, GRAVITY, gravityWeight } from "../src/gravityWeight.js"

const KM = [10, 30, 50, 80, 120, 200, 300, 400, 500, 650, 800, 900, 1200, 1500, 2500]

describe("gravityWeight", () => {
  it("grows with either population, at any distance", () => {
    for (const km of KM) {
      for (const [small, big] of [[2_000, 20_000], [50_000, 400_000], [1e6, 9e6]] as const) {
        expect(gravityWeight(big, 500_000, km)).toBeGreaterThan(gravityWeight(small, 500_000, km))
        expect(gravityWeight(500_000, big, km)).toBeGreaterThan(gravityWeight(500_000, small, km))
      }
    }
  })

  it("is super-linear in population: two cities of a million pull more than ten of 100,000", () => {
    expect(gravityWeight(1e6, 1e6, 300)).toBeGreaterThan(10 * gravityWeight(1e5, 1e6, 300))
  })

  it("is the product of the populations' powers and the distance profile", () => {
    const w = gravityWeight(3e5, 7e5, 350)
    expect(w).toBeCloseTo(3e5 ** GRAVITY.originExponent * 7e5 ** GRAVITY.destinationExponent * distanceProfile(350), 0)
  })
})

describe("distanceProfile", () => {
  it("peaks at the peak distance, within the 150-400 km people carpool", () => {
    expect(GRAVITY.peakKm).toBeGreaterThanOrEqual(150)
    expect(GRAVITY.peakKm).toBeLessThanOrEqual(400)
    expect(distanceProfile(GRAVITY.peakKm)).toBe(1)
    for (const km of KM) expect(distanceProfile(km)).toBeLessThanOrEqual(1)
  })

  it("rises up to the peak and falls after it", () => {
    for (let k = 1; k < KM.length; k++) {
      const [a, b] = [KM[k - 1]!, KM[k]!]
      if (b <= GRAVITY.peakKm) expect(distanceProfile(b)).toBeGreaterThan(distanceProfile(a))
      if (a >= GRAVITY.peakKm) expect(distanceProfile(b)).toBeLessThan(distanceProfile(a))
    }
  })

  it("keeps the weight at 150-650 km, little from 900 km and under 50 km", () => {
    for (const km of [150, 200, 300, 500, 650]) expect(distanceProfile(km)).toBeGreaterThan(0.25)
    for (const km of [900, 1200, 2500]) expect(distanceProfile(km)).toBeLessThan(0.25)
    expect(distanceProfile(1500)).toBeLessThan(0.05)
    expect(distanceProfile(50)).toBeLessThan(0.01)
  })
})
