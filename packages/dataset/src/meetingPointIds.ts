/**
 * The generated meeting points' ids, a pure function of what they are, so that a waypoint can name
 * its town's meeting point without the meeting point feed at hand: one block of ten million per
 * kind, the town's FeedWorld index (or the service area's serial) within it.
 */
export const MEETING_POINT_IDS = {
  centre: (town: number): number => 10_000_000 + town,
  station: (town: number): number => 20_000_000 + town,
  exit: (town: number): number => 30_000_000 + town,
  serviceArea: (serial: number): number => 40_000_000 + serial,
  parkAndRide: (town: number): number => 50_000_000 + town
} as const

/** Towns from this size have a town centre meeting point (`CITY_CENTER`). */
export const CENTRE_MIN_POPULATION = 5_000
/** Towns from this size also have a station (`TRAIN_STATION`). */
export const STATION_MIN_POPULATION = 50_000
