import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { haversineKm, MeetingPointGrid, PASS_KM } from "@tripsearch/core"

// passesOf reads the grid's cells (and its bitmap of occupied ones) for every road point: it must
// find what measuring every meeting point from every road point finds, each meeting point at the
// first of its nearest road points, near the poles and across the antimeridian too.
const brute = (mps: ReadonlyArray<{ id: number; lat: number; lon: number }>, lat: Float64Array, lon: Float64Array) => {
  const out = new Map<number, { t: number; d: number }>()
  for (let t = 0; t < lat.length; t++) {
    for (const mp of mps) {
      const d = haversineKm(lat[t]!, lon[t]!, mp.lat, mp.lon)
      if (!(d <= PASS_KM)) continue
      const best = out.get(mp.id)
      if (best === undefined || d < best.d) out.set(mp.id, { t, d })
    }
  }
  return [...out].map(([id, { t }]) => [id, t]).sort((a, b) => a[0]! - b[0]!)
}

const place = fc.oneof(
  fc.tuple(fc.double({ min: -90, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
  fc.tuple(fc.double({ min: 88, max: 90, noNaN: true }), fc.double({ min: -180, max: 180, noNaN: true })),
  fc.tuple(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: 179.9, max: 180, noNaN: true })),
  fc.tuple(fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -180, max: -179.9, noNaN: true }))
)
const clamp = (x: number, max: number) => Math.max(-max, Math.min(max, x))

describe("MeetingPointGrid.passesOf", () => {
  it("finds what measuring every meeting point finds, each at the first of its nearest road points", () => {
    fc.assert(
      fc.property(
        place,
        fc.array(fc.tuple(fc.double({ min: -0.03, max: 0.03, noNaN: true }), fc.double({ min: -0.03, max: 0.03, noNaN: true })), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(11), fc.double({ min: -0.02, max: 0.02, noNaN: true }), fc.double({ min: -0.03, max: 0.03, noNaN: true })), { maxLength: 30 }),
        fc.array(place, { maxLength: 5 }),
        ([lat0, lon0], steps, near, far) => {
          const lat = new Float64Array(steps.length)
          const lon = new Float64Array(steps.length)
          let a = lat0
          let b = lon0
          steps.forEach(([dLat, dLon], t) => {
            a = clamp(a + dLat, 90)
            b = clamp(b + dLon, 180)
            lat[t] = a
            lon[t] = b
          })
          const mps = [
            ...near.map(([t, dLat, dLon], k) => ({ id: k + 1, lat: clamp(lat[t % steps.length]! + dLat, 90), lon: clamp(lon[t % steps.length]! + dLon, 180) })),
            ...far.map(([pLat, pLon], k) => ({ id: 1000 + k, lat: pLat, lon: pLon }))
          ]
          const grid = new MeetingPointGrid(mps)
          const ids: Array<number> = []
          const pointOf: Array<number> = []
          const lats: Array<number> = []
          const lons: Array<number> = []
          grid.passesOf(lat, lon, ids, pointOf, lats, lons)
          const found = ids.map((id, j) => [id, pointOf[j]]).sort((x, y) => x[0]! - y[0]!)
          expect(found).toStrictEqual(brute(mps, lat, lon))
          ids.forEach((id, j) => {
            expect(lats[j]).toBe(grid.latOf(id))
            expect(lons[j]).toBe(grid.lonOf(id))
          })
        }
      ),
      { numRuns: 3_000 }
    )
  })
})
