import { type CurrencyCode, DEFAULT_RATES, MINOR_DIGITS } from "@tripsearch/core"

/** The steps drivers round their price to, in each currency: 0.5 EUR, 5 CZK, 10 HUF, ... */
const PRICE_STEPS: Readonly<Record<CurrencyCode, number>> = {
  EUR: 0.5, GBP: 0.5, PLN: 0.5, RON: 0.5, HRK: 0.5,
  CZK: 5, HUF: 10, INR: 5, MXN: 1, RSD: 10, RUB: 10, TRY: 5, UAH: 5
}

/**
 * A leg's price in `currency` for `km` at `eurPerKm`, rounded to the drivers' usual step or, with
 * `exact`, to the currency's minor digits; never below one step (a leg price is > 0).
 */
export const legPrice = (km: number, eurPerKm: number, currency: CurrencyCode, exact: boolean): number => {
  const raw = km * eurPerKm * DEFAULT_RATES[currency]
  const step = exact ? 10 ** -MINOR_DIGITS[currency] : PRICE_STEPS[currency]
  const steps = Math.max(1, Math.round(raw / step))
  // Divide by the inverse step so that 0.5-steps and cents come out as short decimals (24.5, 12.35).
  const inverse = Math.round(1 / step)
  return inverse >= 1 ? steps / inverse : steps * step
}
