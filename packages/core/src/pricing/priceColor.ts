import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"
import { mulDivRound, RATE_SCALE, scaledRate } from "./exactMath.js"
import type { RateTable } from "./rates.js"

export type PriceColor = "GREEN" | "ORANGE" | "RED"

/**
 * `ref = round(0.065 * distance_km * rate[c])` to the minor digits of `c`; GREEN up to ref,
 * ORANGE up to 1.3 ref, else RED. Distance in whole metres keeps it exact.
 */
export const priceColor = (netMinor: number, distanceM: number, currency: CurrencyCode, rates: RateTable): PriceColor => {
  const ref = mulDivRound([65, distanceM, scaledRate(rates[currency]), 10 ** MINOR_DIGITS[currency]], [1000, 1000, RATE_SCALE])
  if (netMinor <= ref) return "GREEN"
  return 10 * netMinor <= 13 * ref ? "ORANGE" : "RED"
}
