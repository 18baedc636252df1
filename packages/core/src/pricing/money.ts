import { MINOR_DIGITS, type CurrencyCode } from "../model/Locale.js"

/** An amount given in major units (at most the currency's minor digits) as integer minor units. */
export const minorUnits = (amount: number, currency: CurrencyCode): number => Math.round(amount * 10 ** MINOR_DIGITS[currency])

/** Integer minor units back to the number clients see (`24.5`, `17`). */
export const majorValue = (minor: number, currency: CurrencyCode): number => minor / 10 ** MINOR_DIGITS[currency]
