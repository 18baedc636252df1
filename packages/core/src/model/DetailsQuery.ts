import { Either, Schema } from "effect"
import type { InvalidParameter } from "../errors.js"
import { paramValues, toInvalidParameter } from "./paramValues.js"
import type { RawParams } from "../RequestContext.js"
import { CurrencyCode, LOCALE_TABLE, LocaleCode, LOCALES } from "./Locale.js"
import { DETAILS_PARAMETER_DOCS, withParameterDocs } from "./parameterDocs.js"

/** Parameters of `GET /api/v2/trips/{id}`: `cur` is optional there and defaults to the locale's currency. */
export const DetailsParams = Schema.Struct(withParameterDocs(DETAILS_PARAMETER_DOCS, {
  locale: LocaleCode.annotations({ message: (i) => `must be one of ${LOCALES.join(", ")}, got "${String(i.actual)}"` }),
  cur: Schema.optional(CurrencyCode.annotations({ message: (i) => `must be the locale's currency, got "${String(i.actual)}"` })),
  _format: Schema.optional(
    Schema.Literal("json", "xml").annotations({ message: (i) => `must be one of json, xml, got "${String(i.actual)}"` })
  )
})).pipe(
  Schema.filter((q) => {
    const info = LOCALE_TABLE[q.locale]
    if (q.cur !== undefined && q.cur !== info.currency && q.cur !== info.alternative) {
      const allowed = info.alternative ? `${info.currency} or ${info.alternative}` : info.currency
      return { path: ["cur"], message: `must be ${allowed} for locale ${q.locale}, got "${q.cur}"` }
    }
    return true
  })
)

export type DetailsQuery = typeof DetailsParams.Type

const decode = Schema.decodeUnknownEither(DetailsParams, { errors: "first", onExcessProperty: "ignore" })

export const decodeDetailsQuery = (params: RawParams): Either.Either<DetailsQuery, InvalidParameter> =>
  Either.flatMap(paramValues(params, ["locale"]), (single) => Either.mapLeft(decode(single), toInvalidParameter))
