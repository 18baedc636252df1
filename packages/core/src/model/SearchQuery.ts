import { Either, ParseResult, Schema, type SchemaAST } from "effect"
import type { InvalidParameter } from "../errors.js"
import { paramValues, toInvalidParameter } from "./paramValues.js"
import type { RawParams } from "../RequestContext.js"
import { SEARCH_FIELD_NAMES, TRIP_FIELD_NAMES } from "./fieldNames.js"
import { checkLocaleAndCurrency, currenciesOf, currencyRule, FLAG_VALUES, FORMATS, oneOf, oneOfRule, ORDERS, SORTS } from "./allowedValues.js"
import { CurrencyCode, LOCALES } from "./Locale.js"
import { SEARCH_PARAMETER_DOCS, withParameterDocs } from "./parameterDocs.js"

/** A `db`/`de` value: its calendar date, and the local time it stands for ("local epoch ms"). */
export interface LocalDateParam {
  readonly date: string
  /** Local wall-clock time read as UTC; 00:00:00 when only a date was given. */
  readonly localMs: number
  readonly hasTime: boolean
}

const fail = (ast: SchemaAST.AST, actual: unknown, message: string) =>
  ParseResult.fail(new ParseResult.Type(ast, actual, message))

/** A decimal integer within bounds, written plainly (no sign games, exponents or spaces). */
const IntParam = (min: number, max: number) =>
  Schema.transformOrFail(Schema.String, Schema.Number, {
    strict: true,
    decode: (s, _, ast) => {
      if (!/^-?\d{1,12}$/.test(s)) return fail(ast, s, `must be an integer from ${min} to ${max}, got "${s}"`)
      const n = Number(s)
      return n >= min && n <= max ? ParseResult.succeed(n) : fail(ast, s, `must be an integer from ${min} to ${max}, got ${s}`)
    },
    encode: (n) => ParseResult.succeed(String(n))
  }).annotations({ jsonSchema: { type: "integer", minimum: min, maximum: max } })

const Flag = Schema.transformOrFail(Schema.String, Schema.Boolean, {
  strict: true,
  decode: (s, _, ast) => (s === "1" ? ParseResult.succeed(true) : s === "0" ? ParseResult.succeed(false) : fail(ast, s, oneOfRule(FLAG_VALUES, s))),
  encode: (b) => ParseResult.succeed(b ? "1" : "0")
}).annotations({ jsonSchema: { type: "integer", enum: [0, 1] } })

const COORD = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*\|\s*(-?\d{1,3}(?:\.\d+)?)\s*$/
const Coordinates = Schema.transformOrFail(Schema.String, Schema.Struct({ lat: Schema.Number, lon: Schema.Number }), {
  strict: true,
  decode: (s, _, ast) => {
    const m = COORD.exec(s)
    if (m === null) return fail(ast, s, `must be "lat|lon" as two decimal numbers, got "${s}"`)
    const lat = Number(m[1])
    const lon = Number(m[2])
    if (lat < -90 || lat > 90) return fail(ast, s, `latitude must be from -90 to 90, got ${m[1]}`)
    if (lon < -180 || lon > 180) return fail(ast, s, `longitude must be from -180 to 180, got ${m[2]}`)
    return ParseResult.succeed({ lat, lon })
  },
  encode: (p) => ParseResult.succeed(`${p.lat}|${p.lon}`)
}).annotations({ jsonSchema: { type: "string", pattern: COORD.source } })

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?$/
const LocalDate = Schema.transformOrFail(
  Schema.String,
  Schema.Struct({ date: Schema.String, localMs: Schema.Number, hasTime: Schema.Boolean }),
  {
    strict: true,
    decode: (s, _, ast) => {
      const m = DATE.exec(s)
      const bad = `must be YYYY-MM-DD or YYYY-MM-DD HH:mm:ss, got "${s}"`
      if (m === null) return fail(ast, s, bad)
      const [y, mo, d, h = "0", mi = "0", se = "0"] = m.slice(1).map((x) => x ?? "0") as Array<string>
      const localMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se))
      const back = new Date(localMs)
      const valid =
        back.getUTCFullYear() === Number(y) && back.getUTCMonth() === Number(mo) - 1 && back.getUTCDate() === Number(d) &&
        Number(h) < 24 && Number(mi) < 60 && Number(se) < 60
      if (!valid) return fail(ast, s, `is not a valid date/time: "${s}"`)
      return ParseResult.succeed({ date: `${y}-${mo}-${d}`, localMs, hasTime: m[4] !== undefined })
    },
    encode: (p) => ParseResult.succeed(p.date)
  }
).annotations({ jsonSchema: { type: "string", pattern: DATE.source } })

const TRIP_LISTS = ["trips", "top_trips"]

/** The rule of `fields`, stated with every name it accepts. */
export const FIELDS_RULE =
  `each name must be a top-level field (${SEARCH_FIELD_NAMES.join(", ")}), a trip field (${TRIP_FIELD_NAMES.join(", ")}), ` +
  "or trips.NAME or top_trips.NAME with a trip field"

const isFieldName = (name: string): boolean => {
  const dot = name.indexOf(".")
  return dot === -1
    ? SEARCH_FIELD_NAMES.includes(name) || TRIP_FIELD_NAMES.includes(name)
    : TRIP_LISTS.includes(name.slice(0, dot)) && TRIP_FIELD_NAMES.includes(name.slice(dot + 1))
}

const FieldList = Schema.transformOrFail(Schema.String, Schema.Array(Schema.String), {
  strict: true,
  decode: (s, _, ast) => {
    const names = s.split(",").map((x) => x.trim()).filter((x) => x !== "")
    if (names.length === 0) return fail(ast, s, `must name at least one field, got "${s}"`)
    const unknown = names.find((name) => !isFieldName(name))
    if (unknown !== undefined) return fail(ast, s, `unknown field "${unknown}": ${FIELDS_RULE}`)
    return ParseResult.succeed(names)
  },
  encode: (a) => ParseResult.succeed(a.join(","))
}).annotations({ jsonSchema: { type: "string", minLength: 1 } })

const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))
const Radius = IntParam(1, 500)

/** Every parameter of `GET /api/v2/trips` (docs/API.md), as received. */
export const SearchParams = Schema.Struct(withParameterDocs(SEARCH_PARAMETER_DOCS, {
  // Checked first, with their own messages, by checkLocaleAndCurrency (decodeSearchQuery).
  locale: oneOf(LOCALES),
  cur: CurrencyCode,
  _format: Schema.optional(oneOf(FORMATS)),
  fn: Schema.optional(NonEmpty),
  tn: Schema.optional(NonEmpty),
  fc: Schema.optional(Coordinates),
  tc: Schema.optional(Coordinates),
  db: Schema.optional(LocalDate),
  de: Schema.optional(LocalDate),
  hb: Schema.optional(IntParam(0, 23)),
  he: Schema.optional(IntParam(1, 24)),
  page: Schema.optionalWith(IntParam(1, 1_000_000), { default: () => 1 }),
  seats: Schema.optional(IntParam(1, 8)),
  photo: Schema.optionalWith(Flag, { default: () => false }),
  fields: Schema.optional(FieldList),
  sort: Schema.optional(oneOf(SORTS)),
  order: Schema.optionalWith(oneOf(ORDERS), { default: () => "asc" as const }),
  limit: Schema.optionalWith(IntParam(0, 100), { default: () => 10 }),
  radius: Schema.optional(Radius),
  radius_from: Schema.optional(Radius),
  radius_to: Schema.optional(Radius),
  aa: Schema.optionalWith(Flag, { default: () => false }),
  shortlines: Schema.optionalWith(Flag, { default: () => false }),
  pmin: Schema.optional(IntParam(0, 1_000_000_000)),
  pmax: Schema.optional(IntParam(0, 1_000_000_000))
})).pipe(
  // Rules between parameters, each reported on the parameter a client must change.
  Schema.filter((q) => {
    if (!currenciesOf(q.locale).includes(q.cur)) return { path: ["cur"], message: currencyRule(q.locale, q.cur) }
    if (q.hb !== undefined && q.he !== undefined && q.he <= q.hb) return { path: ["he"], message: `must be greater than hb (${q.hb}), got ${q.he}` }
    if ((q.pmin === undefined) !== (q.pmax === undefined)) {
      return q.pmin === undefined
        ? { path: ["pmin"], message: "is required when pmax is set" }
        : { path: ["pmax"], message: "is required when pmin is set" }
    }
    if (q.pmin !== undefined && q.pmax !== undefined && q.pmin >= q.pmax) {
      return { path: ["pmax"], message: `must be greater than pmin (${q.pmin}), got ${q.pmax}` }
    }
    if (q.db !== undefined && q.de !== undefined) {
      const end = q.de.hasTime ? q.de.localMs : q.de.localMs + 86_399_000
      if (end < q.db.localMs) return { path: ["de"], message: `must not be before db (${q.db.date}${q.db.hasTime ? " with its time" : ""})` }
    }
    return true
  })
)

export type SearchQuery = typeof SearchParams.Type

const decodeParams = Schema.decodeUnknownEither(SearchParams, { errors: "first", onExcessProperty: "ignore" })

/**
 * Raw parameters to a typed query, or the 400 naming the parameter and its rule. Unknown
 * parameters are ignored.
 */
export const decodeSearchQuery = (params: RawParams): Either.Either<SearchQuery, InvalidParameter> =>
  Either.flatMap(paramValues(params, ["locale", "cur"]), (single) =>
    Either.flatMap(checkLocaleAndCurrency(single, true), () => Either.mapLeft(decodeParams(single), toInvalidParameter))
  )

export type Format = "json" | "xml"
