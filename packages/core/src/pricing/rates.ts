import type { CurrencyCode } from "../model/Locale.js"

/** Units of each currency per EUR. */
export type RateTable = Readonly<Record<CurrencyCode, number>>

/** Default rates (docs/API.md, Prices); the store may override them. */
export const DEFAULT_RATES: RateTable = {
  EUR: 1, GBP: 0.85, CZK: 25, HRK: 7.5345, HUF: 400, INR: 90, MXN: 20, PLN: 4.3, RON: 5, RSD: 117, RUB: 100, TRY: 35, UAH: 45
}
