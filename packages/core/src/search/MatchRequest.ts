import type { CurrencyCode, PriceMode } from "../model/Locale.js"
import type { RateTable } from "../pricing/rates.js"
import type { ShownStoredTrip } from "../model/ShownTrip.js"
import type { RoadStop } from "../road/roadStops.js"

/** A search place with its radius, both resolved: what the matcher compares waypoints with. */
export interface MatchPlace {
  readonly lat: number
  readonly lon: number
  readonly radiusKm: number
}

export type SortKey = "trip_date" | "trip_price"
export type SortOrder = "asc" | "desc"

/**
 * Everything the matcher needs for one search, as plain data (structured-clone friendly, so it
 * crosses to a worker thread as is). Local times are "local epoch ms": the wall-clock time of the
 * departure waypoint read as if it were UTC, so date and hour rules are plain arithmetic.
 */
export interface MatchRequest {
  readonly from?: MatchPlace
  readonly to?: MatchPlace
  readonly nowMs: number
  /** Inclusive bounds on the local departure time (local epoch ms). */
  readonly localFromMs?: number
  readonly localToMs?: number
  readonly hourFrom?: number
  readonly hourTo?: number
  readonly seats?: number
  readonly photoOnly: boolean
  readonly autoOnly: boolean
  readonly includeShort: boolean
  /** Inclusive bounds on `price.value`, in minor units of `currency`. */
  readonly priceMinMinor?: number
  readonly priceMaxMinor?: number
  readonly currency: CurrencyCode
  readonly priceMode: PriceMode
  readonly rates: RateTable
  readonly sort: SortKey
  readonly order: SortOrder
  readonly offset: number
  readonly limit: number
  /** Whether to pick `top_trips` (page 1 only). */
  readonly withTopTrips: boolean
  /** Whether to answer the shown trips too (`MatchResult.trips`), where the matcher keeps them. */
  readonly withTrips?: boolean
}

/**
 * A matched segment of a trip, with the distances from the searched places: from waypoint `i` to
 * waypoint `j`, or, where an end lies along the road, from or to that stop (`fromStop`, `toStop`;
 * `i` or `j` is then the waypoint before it).
 */
export interface SegmentHit {
  readonly id: string
  readonly i: number
  readonly j: number
  readonly fromStop?: RoadStop
  readonly toStop?: RoadStop
  /** Great-circle km from the searched departure to `wi` (absent without `from`). */
  readonly fromKm?: number
  readonly toKm?: number
}

/** Facet counts, each over the trips matching every filter but the facet's own (docs/API.md, Facets). */
export interface FacetCounts {
  /** index v-1 for v in 1..4 */
  readonly seats: ReadonlyArray<number>
  /** [YYYYMMDD, count] ascending */
  readonly dates: ReadonlyArray<readonly [number, number]>
  readonly hours: ReadonlyArray<readonly [number, number]>
  /** [floor(price.value), count] ascending */
  readonly prices: ReadonlyArray<readonly [number, number]>
  /** [no picture, picture] */
  readonly photo: ReadonlyArray<number>
  /** index = experience 0..4 */
  readonly experience: ReadonlyArray<number>
  /** index v-1 for comfort stars 1..4 */
  readonly comfort: ReadonlyArray<number>
}

export interface MatchResult {
  readonly total: number
  readonly fullTripsCount: number
  /** Smallest `price.value` among matched trips, minor units; absent with no trips. */
  readonly lowestPriceMinor?: number
  readonly page: ReadonlyArray<SegmentHit>
  readonly top: ReadonlyArray<SegmentHit>
  readonly facets: FacetCounts
  /**
   * With `withTrips`, the trips of `page` and `top` by id, when the matcher holds what a search
   * shows of every one of them; absent otherwise (they are then read from the store).
   */
  readonly trips?: ReadonlyMap<string, ShownStoredTrip>
}
