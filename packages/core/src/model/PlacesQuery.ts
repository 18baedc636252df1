import { Either, Schema } from "effect"
import type { InvalidParameter } from "../errors.js"
import { checkLocaleAndCurrency, FORMATS, oneOf } from "./allowedValues.js"
import { paramValues, toInvalidParameter } from "./paramValues.js"
import type { RawParams } from "../RequestContext.js"
import { LocaleCode } from "./Locale.js"
import { PLACES_PARAMETER_DOCS, withParameterDocs } from "./parameterDocs.js"

/** The longest `q` of `GET /api/v2/places`, in characters: longer than any city name. */
export const PLACES_Q_MAX_LENGTH = 100

/** Parameters of `GET /api/v2/places`. */
export const PlacesParams = Schema.Struct(
  withParameterDocs(PLACES_PARAMETER_DOCS, {
    // Checked first, with its own messages, by checkLocaleAndCurrency (decodePlacesQuery).
    locale: LocaleCode,
    q: Schema.String.pipe(
      Schema.filter((q) => q.trim() !== "" || "must not be empty or blank", { jsonSchema: { minLength: 1 } }),
      Schema.filter((q) => [...q].length <= PLACES_Q_MAX_LENGTH || `must be at most ${PLACES_Q_MAX_LENGTH} characters, got ${[...q].length}`, {
        jsonSchema: { maxLength: PLACES_Q_MAX_LENGTH }
      })
    ),
    _format: Schema.optional(oneOf(FORMATS))
  })
)

export type PlacesQuery = typeof PlacesParams.Type

const decode = Schema.decodeUnknownEither(PlacesParams, { errors: "first", onExcessProperty: "ignore" })

export const decodePlacesQuery = (params: RawParams): Either.Either<PlacesQuery, InvalidParameter> =>
  Either.flatMap(paramValues(params, ["locale", "q"]), (single) =>
    // No `cur` here: a `cur` sent along is ignored like any unknown parameter.
    Either.flatMap(checkLocaleAndCurrency(single["locale"] === undefined ? {} : { locale: single["locale"] }, false), () =>
      Either.mapLeft(decode(single), toInvalidParameter)
    )
  )
