import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"
import { mulDivRound, RATE_SCALE, scaledRate } from "./exactMath.js"
import type { RateTable } from "./rates.js"

export type PriceColor = "GREEN" | "ORANGE" | "RED"

/**
 * `ref = round(0.065 * distance_km * rate[c])` to the minor digits of `c`; GREEN up to ref,
 * ORANGE up to 1.3 ref, else RED. Distance in whole metres keeps it exact; a segment along the
 * road covers parts of legs, whose distance is taken to the millimetre.
 */
export const priceColor = (netMinor: number, distanceM: number, currency: CurrencyCode, rates: RateTable): PriceColor => {
  const ref = Number.isInteger(distanceM)
    ? mulDivRound([65, distanceM, scaledRate(rates[currency]), 10 ** MINOR_DIGITS[currency]], [1000, 1000, RATE_SCALE])
    : mulDivRound([65, Math.round(distanceM * 1000), scaledRate(rates[currency]), 10 ** MINOR_DIGITS[currency]], [1000, 1_000_000, RATE_SCALE])
  if (netMinor <= ref) return "GREEN"
  return 10 * netMinor <= 13 * ref ? "ORANGE" : "RED"
}
