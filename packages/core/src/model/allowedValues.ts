import { Either, Schema } from "effect"
import { InvalidParameter } from "../errors.js"
import { type CurrencyCode, isLocaleCode, LOCALE_TABLE, type LocaleCode, LOCALES } from "./Locale.js"

/** Response formats, the values of `_format`. */
export const FORMATS = ["json", "xml"] as const
/** Values of `sort` (docs/API.md, Searching). */
export const SORTS = ["trip_date", "trip_price"] as const
/** Values of `order`. */
export const ORDERS = ["asc", "desc"] as const
/** Values of the 0/1 parameters `photo`, `aa` and `shortlines`. */
export const FLAG_VALUES = ["0", "1"] as const

/**
 * The rule of a parameter taking one value from a list, as one sentence after `NAME: `: every
 * allowed value, then what was given.
 */
export const oneOfRule = (values: ReadonlyArray<string>, actual: unknown): string =>
  `must be one of ${values.join(", ")}, got ${JSON.stringify(String(actual))}`

/**
 * A literal from `values` whose failure states the whole rule. `override`: without it Effect
 * reports the first literal only (`Expected "trip_date", actual "price"`).
 */
export const oneOf = <const L extends ReadonlyArray<string>>(values: L) =>
  Schema.Literal(...values).annotations({ message: (issue) => ({ message: oneOfRule(values, issue.actual), override: true }) })

/** The currencies `cur` accepts with a locale: its default, then its alternative (docs/API.md, Prices). */
export const currenciesOf = (locale: LocaleCode): ReadonlyArray<CurrencyCode> => {
  const info = LOCALE_TABLE[locale]
  return info.alternative === undefined ? [info.currency] : [info.currency, info.alternative]
}

const currencyList = (locale: LocaleCode): string => currenciesOf(locale).join(" or ")

/** The rule of `cur` with `locale`, as one sentence after `cur: `. */
export const currencyRule = (locale: LocaleCode, actual: unknown): string =>
  `must be ${currencyList(locale)} for locale ${locale}, got ${JSON.stringify(String(actual))}`

/**
 * `locale`, then `cur` against it, before any other parameter: when both are wrong the locale is
 * reported, and a wrong currency is reported with the currencies of the locale asked. Values are
 * the single strings of `paramValues`; `cur` may be optional (trip details).
 */
export const checkLocaleAndCurrency = (
  single: Readonly<Record<string, string>>,
  curRequired: boolean
): Either.Either<void, InvalidParameter> => {
  const locale = single.locale
  if (locale === undefined) {
    return Either.left(
      new InvalidParameter({ parameter: "locale", missing: true, message: `locale: is required, one of ${LOCALES.join(", ")}` })
    )
  }
  if (!isLocaleCode(locale)) {
    return Either.left(new InvalidParameter({ parameter: "locale", message: `locale: ${oneOfRule(LOCALES, locale)}` }))
  }
  const cur = single.cur
  if (cur === undefined) {
    return curRequired
      ? Either.left(
          new InvalidParameter({ parameter: "cur", missing: true, message: `cur: is required, ${currencyList(locale)} for locale ${locale}` })
        )
      : Either.void
  }
  if (!(currenciesOf(locale) as ReadonlyArray<string>).includes(cur)) {
    return Either.left(new InvalidParameter({ parameter: "cur", message: `cur: ${currencyRule(locale, cur)}` }))
  }
  return Either.void
}
