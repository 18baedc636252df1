// A trip's waypoints near one place, as one 32-bit word (`NearHits`): bit k for waypoint k (k <
// 15), bit 16 + k when it is surely within the radius, OVERFLOW when a later waypoint was near
// (rare: its distances are then measured for every waypoint).
export const POSITIONS = 15
export const NEAR = 0x7fff
export const OVERFLOW = 0x8000

export const bitOf = (k: number, sure: number): number => (k < POSITIONS ? (1 << k) | (sure << (16 + k)) : OVERFLOW)

/** The place in its trip of the lowest waypoint of `word`. */
export const firstPlace = (word: number): number => 31 - Math.clz32(word & NEAR & -(word & NEAR))

/** True when `word` has exactly one waypoint, surely within the radius. */
export const onlyOneSure = (word: number): boolean => {
  const near = word & (NEAR | OVERFLOW)
  return near !== 0 && (near & (near - 1)) === 0 && near !== OVERFLOW && ((word >>> 16) & near) !== 0
}

/** True when `word` has no waypoint past the 15th and every waypoint in it is surely within the radius. */
export const allSure = (word: number): boolean => (word & OVERFLOW) === 0 && ((word >>> 16) & word & NEAR) === (word & NEAR)
