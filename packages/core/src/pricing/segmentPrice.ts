import { MINOR_DIGITS, type CurrencyCode, type PriceMode } from "../model/Locale.js"
import type { BookingType } from "../model/FeedTrip.js"
import { mulDivRound2, scaledRate } from "./exactMath.js"
import type { RateTable } from "./rates.js"

/** The four amounts of a segment, integer minor units of the requested currency. */
export interface SegmentAmounts {
  readonly net: number
  readonly commission: number
  readonly withCommission: number
  /** `with` or `net`, by the locale's country. */
  readonly price: number
}

/** `net = round(p * rate[c] / rate[t])` in the minor units of `c` (docs/API.md, Prices). */
export const convertMinor = (minor: number, from: CurrencyCode, to: CurrencyCode, rates: RateTable): number =>
  from === to
    ? minor
    : mulDivRound2(minor, scaledRate(rates[to]) * 10 ** MINOR_DIGITS[to], scaledRate(rates[from]) * 10 ** MINOR_DIGITS[from])

/** 15% on `online` and `onboard`, nothing on `no_booking`. */
export const commissionMinor = (net: number, bookingType: BookingType): number =>
  bookingType === "no_booking" ? 0 : mulDivRound2(net, 15, 100)

export const segmentAmounts = (
  netInTripCurrency: number,
  tripCurrency: CurrencyCode,
  bookingType: BookingType,
  currency: CurrencyCode,
  priceMode: PriceMode,
  rates: RateTable
): SegmentAmounts => {
  const net = convertMinor(netInTripCurrency, tripCurrency, currency, rates)
  const commission = commissionMinor(net, bookingType)
  const withCommission = net + commission
  return { net, commission, withCommission, price: priceMode === "with" ? withCommission : net }
}
