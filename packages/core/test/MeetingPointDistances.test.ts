import { describe, expect, it } from "vitest"
import { flatBox } from "../src/search/tripIndex/GeoGrid.js"
import { MeetingPointDistances } from "../src/search/tripIndex/roadSegment.js"
import { TripColumns } from "../src/search/tripIndex/TripColumns.js"

// The distances to meeting points are worked out once per search, in the writer's thread and in a
// reader over its image alike (every pool worker searches such a reader). Moving a meeting point
// in the shared table between two reads shows whether the second read measured again.
describe("MeetingPointDistances", () => {
  const lyon = flatBox({ lat: 45.76, lon: 4.84, radiusKm: 100 })
  const columns = (): TripColumns => {
    const t = new TripColumns()
    t.mpId[0] = 7
    t.mpPlace[0] = 45.85 // about 10 km north of the place
    t.mpPlace[1] = 4.84
    t.mps = 1
    return t
  }

  for (const [name, reader] of [
    ["the writer's own columns", (t: TripColumns) => t],
    ["a reader over their image", (t: TripColumns) => TripColumns.attach(t.image())]
  ] as const) {
    it(`measures a meeting point once per search, over ${name}`, () => {
      const t = columns()
      const r = reader(t)
      const distances = new MeetingPointDistances()
      distances.begin(r, lyon)
      const first = distances.of(0)
      expect(first).toBeGreaterThan(9)
      expect(first).toBeLessThan(11)
      t.mpPlace[0] = 45.94 // 20 km: a later search sees it, this one keeps what it measured
      expect(distances.of(0)).toBe(first)
      distances.begin(r, lyon)
      expect(distances.of(0)).toBeGreaterThan(19)
    })
  }
})
