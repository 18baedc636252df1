import type { Schema } from "effect"
import { SEARCH_FIELD_NAMES, TRIP_FIELD_NAMES } from "./fieldNames.js"

/**
 * What each query parameter means, as the OpenAPI document and docs/API.md show it. Types, ranges
 * and allowed values are not written here: they come from the parameter's Schema. Kept apart from
 * the Schemas so that the rules and their 400 messages read on their own.
 */
export interface ParameterDoc {
  readonly description: string
  /** Examples as the Schema's decoded values (they are encoded back for the document). */
  readonly examples?: ReadonlyArray<unknown>
}

/** Applies the docs to a Struct's fields as `description` / `examples` annotations. */
export const withParameterDocs = <F extends Schema.Struct.Fields>(docs: { readonly [K in keyof F]: ParameterDoc }, fields: F): F =>
  Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const doc = docs[name as keyof F]
      const annotations = { description: doc.description, ...(doc.examples ? { examples: doc.examples } : {}) }
      // Both Schemas and property signatures (optional, with a default) take annotations.
      return [name, (field as unknown as { annotations: (a: object) => unknown }).annotations(annotations)]
    })
  ) as F

const locale: ParameterDoc = {
  description:
    "The user's locale. It sets the currencies `cur` may take, the language of formatted prices, the country preferred when a place name is ambiguous, and whether `price` includes the commission.",
  examples: ["fr_FR"]
}

const format: ParameterDoc = {
  description:
    "Response format. When absent, the `Accept` header decides (`application/xml` gives XML), and JSON is the default. An invalid value is answered in JSON."
}

const SEARCH_PARAMETERS = {
  locale,
  cur: {
    description: "Currency of every price: the locale's default currency, or its alternative one where the locale has one (en_GB: GBP or EUR; hr_HR: HRK or EUR; ru_RU: RUB or UAH; uk_UA: UAH or RUB).",
    examples: ["EUR"]
  },
  _format: format,
  fn: {
    description:
      "Departure place name, resolved to a city of at least 1,000 inhabitants (case, accents and punctuation ignored): its GeoNames name or its name in any of the locales' languages, in any script (`Mnichov`, `Monachium`, `Мюнхен` and `Minhen` all name München). Comma-separated parts naming a country restrict the country (`Paris, FR`); among equal names the locale's country comes first, then the largest population. A name that resolves to nothing is a 404 `place.not_found`. Ignored when `fc` is given.",
    examples: ["Paris"]
  },
  tn: { description: "Arrival place name, resolved like `fn`. Ignored when `tc` is given.", examples: ["Lyon"] },
  fc: {
    description:
      "Departure coordinates `lat|lon` (the `|` may be sent as `%7C`), latitude -90..90 and longitude -180..180. Preferred over `fn`. With no place at all (`fn`, `tn`, `fc`, `tc`) the search answers 200 with no trips."
  },
  tc: { description: "Arrival coordinates, like `fc`. Preferred over `tn`." },
  db: {
    description:
      "Date begin, `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss` (a `T` may separate date and time), in the departure's local time. Alone: the departure day (and with a time, at or after that time). With `de`: the start of the period (00:00:00 for a date alone)."
  },
  de: {
    description:
      "Date end of the period, same formats as `db` (23:59:59 for a date alone). Alone: departures at or before it. Must not be before `db`."
  },
  hb: { description: "Earliest departure hour, local time: departures with `hb <= hour`." },
  he: { description: "Latest departure hour, local time: departures with `hour < he`. Must be greater than `hb`." },
  page: { description: "Result page, from 1 (default 1). A page past the end answers 200 with no trips." },
  seats: { description: "Trips with at least this many seats left. Without it, full trips are included." },
  photo: { description: "`1`: only drivers with a picture; `0` (default): no filter." },
  fields: {
    description: `Trims the response to the named fields, comma-separated. A top-level name (${SEARCH_FIELD_NAMES.join(", ")}) keeps that field. \`trips.NAME\` or \`top_trips.NAME\` keeps the field NAME of each trip (and its parent). A bare trip field name (${TRIP_FIELD_NAMES.join(", ")}) that is not a top-level name trims every trip of \`trips\` and \`top_trips\` to the named trip fields, as in \`fields=trips,seats,price\`. Naming \`trips\` alone keeps trips whole; bare names with neither list named keep \`trips\` (\`fields=seats\` answers \`{"trips": [{"seats": 4}, ...]}\`). Any other name is a 400; an empty name between commas, and spaces around a name, are ignored. A trimmed response carries only the named fields.`
  },
  sort: { description: "Sort key (default `trip_date`): `trip_date` orders by departure, then price, then `permanent_id`; `trip_price` by price, then departure, then `permanent_id`." },
  order: { description: "`asc` (default) or `desc`; reverses the first sort key only. Ignored without `sort`." },
  limit: { description: "Trips per page, 0 to 100 (default 10). `limit=0` returns the counts, facets and top trips without trips." },
  radius: {
    description:
      "Search radius in km around both places. Default: 10% of the distance between the places (at least 5 km) when both are known, 20 km with one place."
  },
  radius_from: { description: "Radius around the departure place, in km. Falls back to `radius`, then to the default." },
  radius_to: { description: "Radius around the arrival place, in km. Falls back to `radius`, then to the default." },
  aa: { description: "`1`: only automatic-approval trips (`booking_mode` `auto`); `0` (default): no filter." },
  shortlines: { description: "`1`: includes trips of the short-distance service (France only); otherwise they are excluded." },
  pmin: { description: "Minimum price (`price.value`, in `cur`), inclusive. Needs `pmax`; must be lower than `pmax`." },
  pmax: { description: "Maximum price (`price.value`, in `cur`), inclusive. Needs `pmin`; must be greater than `pmin`." }
} satisfies Record<string, ParameterDoc>

/** Docs of the parameters of `GET /api/v2/trips`. */
export const SEARCH_PARAMETER_DOCS: typeof SEARCH_PARAMETERS = SEARCH_PARAMETERS

/** Docs of the parameters of `GET /api/v2/trips/{id}` and of its threads. */
export const DETAILS_PARAMETER_DOCS = {
  locale,
  cur: {
    description: "Currency of every price: the locale's default currency (the default) or its alternative one.",
    examples: ["EUR"]
  },
  _format: format
} satisfies Record<string, ParameterDoc>

/** Docs of the parameters of `GET /api/v2/places`. */
export const PLACES_PARAMETER_DOCS = {
  locale: {
    description: "The user's locale: the language of the names answered, and the country whose cities come first after exact names.",
    examples: ["cs_CZ"]
  },
  q: {
    description:
      "What the user has typed: the start of a city name, or a whole one, in any of the locales' languages or scripts (case, accents and punctuation ignored). 1 to 100 characters, not blank.",
    examples: ["Mnich"]
  },
  _format: format
} satisfies Record<string, ParameterDoc>
