import type { LocaleInfo } from "../model/Locale.js"
import type { ShownStoredTrip } from "../model/ShownTrip.js"
import { kmToMetres } from "../search/IndexRecord.js"
import { minorUnits } from "../pricing/money.js"
import { priceColor, type PriceColor } from "../pricing/priceColor.js"
import type { RateTable } from "../pricing/rates.js"
import { segmentAmounts, type SegmentAmounts } from "../pricing/segmentPrice.js"
import type { CurrencyCode } from "../model/Locale.js"

/** Segment `wi -> wj` of a stored trip with the figures both renderers show (docs/API.md, Searching and Prices). */
export interface SegmentView<S extends ShownStoredTrip = ShownStoredTrip> {
  readonly stored: S
  readonly i: number
  readonly j: number
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

export const waypointUtcMs = (stored: ShownStoredTrip, k: number): number =>
  Date.parse(stored.trip.departure_time) + stored.trip.waypoints[k]!.offset_min * 60_000

export const waypointLocalMs = (stored: ShownStoredTrip, k: number): number =>
  waypointUtcMs(stored, k) + stored.zoneOffsets[k]! * 60_000

export const segmentView = <S extends ShownStoredTrip>(
  stored: S,
  i: number,
  j: number,
  locale: LocaleInfo,
  currency: CurrencyCode,
  rates: RateTable
): SegmentView<S> => {
  const { trip } = stored
  let net = 0
  let distanceM = 0
  let durationS = 0
  for (let k = i; k < j; k++) {
    const leg = trip.legs[k]!
    net += minorUnits(leg.price, trip.currency)
    distanceM += kmToMetres(leg.distance_km)
    durationS += leg.duration_s
  }
  const amounts = segmentAmounts(net, trip.currency, trip.booking_type, currency, locale.priceMode, rates)
  const isWhole = i === 0 && j === trip.waypoints.length - 1
  const departureUtcMs = waypointUtcMs(stored, i)
  return {
    stored,
    i,
    j,
    permanentId: isWhole ? trip.id : `${trip.id}_${i}_${j}`,
    isWhole,
    departureUtcMs,
    departureLocalMs: departureUtcMs + stored.zoneOffsets[i]! * 60_000,
    distanceM,
    durationS,
    amounts,
    color: priceColor(amounts.net, distanceM, currency, rates),
    currency
  }
}
