import type { LocaleInfo } from "../model/Locale.js"
import type { ShownStoredTrip } from "../model/ShownTrip.js"
import { kmToMetres } from "../search/IndexRecord.js"
import { minorUnits } from "../pricing/money.js"
import { priceColor, type PriceColor } from "../pricing/priceColor.js"
import type { RateTable } from "../pricing/rates.js"
import { segmentAmounts, type SegmentAmounts } from "../pricing/segmentPrice.js"
import type { CurrencyCode } from "../model/Locale.js"
import type { RoadStop } from "../road/roadStops.js"
import type { StoredMeetingPoint } from "../model/FeedMeetingPoint.js"

/** The ends of a segment that lie along the road (docs/API.md, Along the road), when any. */
export interface RoadEnds {
  readonly fromStop?: RoadStop | undefined
  readonly toStop?: RoadStop | undefined
}

/** Segment `wi -> wj` of a stored trip with the figures both renderers show (docs/API.md, Searching and Prices). */
export interface SegmentView<S extends ShownStoredTrip = ShownStoredTrip> {
  readonly stored: S
  readonly i: number
  readonly j: number
  /** The departure's stop along the road, when it lies there (`i` is then the waypoint before it). */
  readonly fromStop?: RoadStop | undefined
  readonly toStop?: RoadStop | undefined
  readonly permanentId: string
  readonly isWhole: boolean
  readonly departureUtcMs: number
  readonly departureLocalMs: number
  readonly distanceM: number
  readonly durationS: number
  readonly amounts: SegmentAmounts
  readonly color: PriceColor
  readonly currency: CurrencyCode
}

/** The meeting points a rendered segment may name, by id (`TripStore.meetingPoints`). */
export type MeetingPointsById = ReadonlyMap<number, StoredMeetingPoint>

/** The meeting point ids a segment's rendering looks up: its ends along the road, and its departure waypoint's. */
export const meetingPointIdsOf = (trip: ShownStoredTrip["trip"], i: number, ends: RoadEnds): Array<number> => {
  const ids: Array<number> = []
  if (ends.fromStop !== undefined) ids.push(ends.fromStop.mp)
  else if (trip.waypoints[i]?.meeting_point_id !== undefined) ids.push(trip.waypoints[i]!.meeting_point_id!)
  if (ends.toStop !== undefined) ids.push(ends.toStop.mp)
  return ids
}

/** Whether every meeting point of a segment's ends along the road is known (else it is no longer shown). */
export const endsKnown = (view: Pick<SegmentView, "fromStop" | "toStop">, meetingPoints: MeetingPointsById): boolean =>
  (view.fromStop === undefined || meetingPoints.has(view.fromStop.mp)) && (view.toStop === undefined || meetingPoints.has(view.toStop.mp))

export const waypointUtcMs = (stored: ShownStoredTrip, k: number): number =>
  Date.parse(stored.trip.departure_time) + stored.trip.waypoints[k]!.offset_min * 60_000

export const waypointLocalMs = (stored: ShownStoredTrip, k: number): number =>
  waypointUtcMs(stored, k) + stored.zoneOffsets[k]! * 60_000

/** A segment end's position, leg and fraction: waypoint k < n at (k, 0), the last at (n - 1, 1). */
const endAt = (k: number, n: number, stop: RoadStop | undefined): readonly [number, number] =>
  stop !== undefined ? [stop.leg, stop.fraction] : k < n ? [k, 0] : [n - 1, 1]

/** `Σ c_k · figure(k)` over the parts of each leg the segment covers, in leg order. */
const legParts = (a: readonly [number, number], b: readonly [number, number], figure: (k: number) => number): number => {
  const [ka, fa] = a
  const [kb, fb] = b
  let x = 0
  for (let k = ka; k <= kb; k++) {
    const c = ka === kb ? fb - fa : k === ka ? 1 - fa : k === kb ? fb : 1
    x = k === ka ? c * figure(k) : x + c * figure(k)
  }
  return x
}

/** The permanent id of a segment: the trip's id when whole, else its ends, `m{id}` along the road. */
export const segmentId = (tripId: string, i: number, j: number, last: number, ends: RoadEnds = {}): string =>
  ends.fromStop === undefined && ends.toStop === undefined && i === 0 && j === last
    ? tripId
    : `${tripId}_${ends.fromStop !== undefined ? `m${ends.fromStop.mp}` : i}_${ends.toStop !== undefined ? `m${ends.toStop.mp}` : j}`

export const segmentView = <S extends ShownStoredTrip>(
  stored: S,
  i: number,
  j: number,
  locale: LocaleInfo,
  currency: CurrencyCode,
  rates: RateTable,
  ends: RoadEnds = {}
): SegmentView<S> => {
  const { trip } = stored
  const { fromStop, toStop } = ends
  let net = 0
  let distanceM = 0
  let durationS = 0
  if (fromStop === undefined && toStop === undefined) {
    for (let k = i; k < j; k++) {
      const leg = trip.legs[k]!
      net += minorUnits(leg.price, trip.currency)
      distanceM += kmToMetres(leg.distance_km)
      durationS += leg.duration_s
    }
  } else {
    // The legs' parts (docs/API.md, Along the road): the same sums as the index's, in leg order.
    const n = trip.waypoints.length - 1
    const a = endAt(i, n, fromStop)
    const b = endAt(j, n, toStop)
    net = Math.round(legParts(a, b, (k) => minorUnits(trip.legs[k]!.price, trip.currency)))
    distanceM = legParts(a, b, (k) => kmToMetres(trip.legs[k]!.distance_km))
    durationS = Math.round(legParts(a, b, (k) => trip.legs[k]!.duration_s))
  }
  const amounts = segmentAmounts(net, trip.currency, trip.booking_type, currency, locale.priceMode, rates)
  const last = trip.waypoints.length - 1
  const isWhole = fromStop === undefined && toStop === undefined && i === 0 && j === last
  const departureUtcMs = fromStop !== undefined ? Date.parse(trip.departure_time) + fromStop.offsetMin * 60_000 : waypointUtcMs(stored, i)
  const departureZone = fromStop !== undefined ? fromStop.zoneOffsetMin : stored.zoneOffsets[i]!
  return {
    stored,
    i,
    j,
    ...(fromStop !== undefined ? { fromStop } : {}),
    ...(toStop !== undefined ? { toStop } : {}),
    permanentId: segmentId(trip.id, i, j, last, ends),
    isWhole,
    departureUtcMs,
    departureLocalMs: departureUtcMs + departureZone * 60_000,
    distanceM,
    durationS,
    amounts,
    color: priceColor(amounts.net, distanceM, currency, rates),
    currency
  }
}
