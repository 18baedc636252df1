import { EARTH_RADIUS_KM } from "../../geo/haversine.js"
import { chordBounds, type FlatBox } from "./GeoGrid.js"

/** The great-circle distance (km) of a chord of the unit sphere. */
const kmOfChord = (chord: number): number => 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, chord / 2))

/**
 * What a hit's rank says of its distance, for one place of one search: a hit of rank `r` (its
 * squared chord over the scan's bound, in `levels` levels, `NearHits`) lies between `lo[r]` and
 * `hi[r]` km from the place. The bounds are widened by the float32 unit vectors' error (a chord
 * within 1.05e-7 of its double's, so a squared chord within 2.1e-7 chord radii: twice that here)
 * and the rounding of the rank's own product; the haversine's own rounding (1e-14 relative) is
 * left to the comparisons (`NearHits`).
 */
export class RankBounds {
  readonly lo = new Float64Array(64)
  readonly hi = new Float64Array(64)
  /** The place and levels the bounds are for (a search sets them at its first pair decided). */
  box: FlatBox | undefined
  levels = 0

  set(box: FlatBox, levels: number): void {
    this.box = box
    this.levels = levels
    const { limit } = chordBounds(box)
    const slack = 4.2e-7 * Math.sqrt(limit) + 1e-9 * limit
    for (let r = 0; r < levels; r++) {
      this.lo[r] = kmOfChord(Math.sqrt(Math.max(0, (r / levels) * limit - slack)))
      this.hi[r] = kmOfChord(Math.sqrt(((r + 1) / levels) * limit + slack))
    }
  }
}
