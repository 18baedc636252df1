import { Either, Schema } from "effect"
import type { InvalidParameter } from "../errors.js"
import { checkLocaleAndCurrency, currenciesOf, currencyRule, FORMATS, oneOf } from "./allowedValues.js"
import { paramValues, toInvalidParameter } from "./paramValues.js"
import type { RawParams } from "../RequestContext.js"
import { CurrencyCode, LocaleCode } from "./Locale.js"
import { DETAILS_PARAMETER_DOCS, withParameterDocs } from "./parameterDocs.js"

/** Parameters of `GET /api/v2/trips/{id}`: `cur` is optional there and defaults to the locale's currency. */
export const DetailsParams = Schema.Struct(withParameterDocs(DETAILS_PARAMETER_DOCS, {
  // Checked first, with their own messages, by checkLocaleAndCurrency (decodeDetailsQuery).
  locale: LocaleCode,
  cur: Schema.optional(CurrencyCode),
  _format: Schema.optional(oneOf(FORMATS))
})).pipe(
  Schema.filter((q) =>
    q.cur === undefined || currenciesOf(q.locale).includes(q.cur) ? true : { path: ["cur"], message: currencyRule(q.locale, q.cur) }
  )
)

export type DetailsQuery = typeof DetailsParams.Type

const decode = Schema.decodeUnknownEither(DetailsParams, { errors: "first", onExcessProperty: "ignore" })

export const decodeDetailsQuery = (params: RawParams): Either.Either<DetailsQuery, InvalidParameter> =>
  Either.flatMap(paramValues(params, ["locale"]), (single) =>
    Either.flatMap(checkLocaleAndCurrency(single, false), () => Either.mapLeft(decode(single), toInvalidParameter))
  )
