import { JSONSchema, Schema } from "effect"
import {
  CURRENCIES,
  DEFAULT_RATES,
  DetailsParams,
  ErrorBody,
  LOCALE_TABLE,
  LOCALES,
  MINOR_DIGITS,
  PlacesParams,
  PlacesResponse,
  SearchParams,
  SearchResponse,
  ThreadsResponse,
  TripDetail
} from "@tripsearch/core"
import { CORS_PREFLIGHT_HEADERS } from "./corsHeaders.js"
import { ERROR_TOKENS, type ErrorToken } from "./httpErrors.js"
import { ALLOWED_METHODS } from "./readApiRequest.js"
import { XML_GENERIC_ITEM, XML_SINGULARS } from "./toXml.js"

type Json = { [key: string]: unknown }

const SCHEMAS = "#/components/schemas/"
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` })

const OVERVIEW = `A read-only REST service that searches carpooling trips and reads one trip's details, in JSON or XML. Every API request but this document needs an API key.

## Searching

A search names a departure and an arrival, each by name (\`fn\`, \`tn\`) or by coordinates (\`fc\`, \`tc\`); either may be left out. A trip with waypoints \`w0..wn\` matches when some waypoint \`wi\` lies within the departure radius of the departure place and a later waypoint \`wj\` within the arrival radius of the arrival place (great-circle distances). Of all such pairs the one with the smallest sum of the two distances is kept (ties: smallest \`i\`, then \`j\`). With only a departure, the trip runs from its nearest waypoint to its end; with only an arrival, from its start to its nearest waypoint. The result is the segment \`wi -> wj\`: its departure, arrival, distance, duration and price are those of that part of the trip, and its \`permanent_id\` is the trip id for the whole trip, else \`{id}_{i}_{j}\`. The filters (dates, hours, seats, photo, \`aa\`, prices, \`shortlines\`) then apply to that segment, in the departure waypoint's local time (its time zone found from its coordinates by \`@photostructure/tz-lookup\`, whose simplified borders can give a place within a few kilometres of a border its neighbour's zone: Battonya, in Hungary by the Romanian border, reads Bucharest time); a trip appears at most once. Departed and cancelled trips never match.

Results are sorted by departure (\`sort=trip_date\`, the default) or by price (\`sort=trip_price\`), ties broken by the other key and then by \`permanent_id\` (compared as a plain string). \`top_trips\` (page 1 only, even with \`limit=0\`) holds up to three matched trips with automatic booking and at least \`max(1, seats)\` seats left, the lowest price per kilometre of the segment first (a segment of zero length last), then by departure, whatever \`sort\` says.

## Place names

Every city name a response shows (a Place's \`city_name\`, \`stop_overs\`, a \`trip_plan\`'s \`city\`, \`locations_to_display\`) is in the locale's language, from GeoNames' translations (CC BY 4.0): the city is the one of the gazetteer in the place's country that has the feed's text among its names (in any language) and lies nearest the place's coordinates, within 30 km (ties: larger population, then smaller GeoNames id); it is shown by its name in the locale. The locale's language is its first part (\`pt_BR\` reads Brazilian Portuguese names, then Portuguese ones); \`sr_Latn_RS\` shows Serbian names in the Latin alphabet (\`Беч\` -> \`Beč\`). A name counts only when all its letters are of the locale's script (Cyrillic for \`ru_RU\` and \`uk_UA\`, Latin for the others). A place with no such city, or whose city has no name in the locale, is shown as the feed wrote it. Addresses and meeting point names are never translated. \`GET /api/v2/places\` suggests cities for a typed name, named the same way.

## Along the road

A trip whose legs carry the driver's road (the feed's \`path\`) is also matched at the meeting points its road passes: stations, motorway exits, service areas, town centres within 1 km of a point of the road. These are its *stops along the road*, each at its *fraction* of the leg (the road's length up to the road point nearest the meeting point, over the leg's road length). A trip whose \`detour\` is \`ON_TIME\` has none, a meeting point that is one of the trip's waypoints' own is not one, and a meeting point passed by several legs is a stop of the first only. The trip's *stops* are its waypoints and its stops along the road, in road order; each has a position, leg plus fraction (waypoint \`k\` is at \`k\`, the last at \`n\`).

The matching above applies to the stops in place of the waypoints, with one rule first: **a trip that matches at its waypoints keeps exactly the segment it would have without a road**. Of the qualifying pairs, the one with the fewest ends along the road is kept, then the smallest sum of distances, then the earliest in road order; an end along the road must come strictly before (departure) or after (arrival) the other end's position, so a segment of no length never forms. With one place only, the stop with the fewest ends along the road, then the nearest, then the earliest, to the end or from the start.

A segment from position \`(ka, fa)\` to \`(kb, fb)\` covers a part of each leg: \`fb - fa\` of leg \`ka\` when \`ka = kb\`; else \`1 - fa\` of leg \`ka\`, \`fb\` of leg \`kb\` and the whole of the legs between. Its distance is the sum of each part times its leg's distance, its duration the same sum of durations rounded half up, and its net price the same sum of the legs' prices in minor units (in leg order), rounded half away from zero, then converted and given its commission as any price. A stop along the road is reached \`offset_min[k] + round((offset_min[k+1] - offset_min[k]) × f)\` minutes after departure, in the meeting point's own time zone.

Such a segment answers \`corridoring_type\` \`CORRIDORING\` (\`PLANNED\` between waypoints). An end along the road shows as the Place of its meeting point (its \`city\`, \`address\`, coordinates, \`country_code\` and \`meeting_point_id\`), the passenger routings measure from it, and \`departure_meeting_point\` is the departure's meeting point (along the road, or a waypoint's own). In \`permanent_id\` an end along the road is written \`m{meeting point id}\`, e.g. \`3321-lyon-paris_m20365_2\`; the details endpoint takes such an id while that meeting point is a stop of the trip (404 \`trip.not_found\` once it is not), and lists in \`stop_overs\` and \`trip_plan\` the waypoints and the segment's ends along the road. Changes to trips and to meeting points reach searches within a second.

## Facets

Each facet counts the trips that pass every filter except its own, so a client can offer the alternatives. In this order: \`seats\` (radio, values 1..4: trips with at least that many seats left), \`date\` (custom, each local departure date present as \`YYYYMMDD\`), \`hour\` (custom, each local departure hour present), \`price\` (custom, each whole \`price.value\` present), \`photo\` (radio, 0 and 1: driver without or with a picture), \`experience\` (radio, the driver's experience 0..4), \`car_comfort\` (checkbox, the car's \`comfort_nb_star\` 1..4). Facets of fixed values list every value, zero counts included; the others list only values present. \`is_selected\` marks the values the query's parameters select.

## Figures of the axis

When both places are known, \`distance\` is \`round(1.2 × great-circle km)\`, \`duration\` is \`round(distance / 75 × 3600)\` seconds, \`recommended_price\` is \`round(0.065 × distance × rate)\` and \`savings\` \`round(0.135 × distance × rate)\`, in the asked currency; with one place they are absent. \`lowest_price\` is the floor of the smallest \`price.value\` among all matched trips (absent with none), \`full_trips_count\` the matched trips with no seat left. A field that does not apply is absent, never \`null\`.

## Prices

Prices are computed exactly in the asked currency (\`cur\`) from the driver's net price, never rounded from a binary float: \`net\` is the segment's price converted at the rates below and rounded half away from zero to the currency's minor digits; \`commission\` is \`round(15 % of net)\` for online and onboard bookings, 0 without booking; \`price_with_commission\` is their sum. \`price\` is either the price with commission or the net price, by the locale's country. \`string_value\` and \`symbol\` are formatted for the locale. \`price_color\` compares \`net\` with \`ref = round(0.065 × segment km × rate)\`: GREEN up to \`ref\`, ORANGE up to \`1.3 × ref\`, else RED.

| locale | currency | alternative | \`price\` |
|---|---|---|---|
${LOCALES.map((l) => {
  const info = LOCALE_TABLE[l]
  return `| ${l} | ${info.currency} | ${info.alternative ?? ""} | ${info.priceMode === "with" ? "with commission" : "net"} |`
}).join("\n")}

| currency | units per EUR (default rate) | minor digits |
|---|---|---|
${CURRENCIES.map((c) => `| ${c} | ${DEFAULT_RATES[c]} | ${MINOR_DIGITS[c]} |`).join("\n")}

## Methods

Every path of this document answers \`GET\`, \`HEAD\` and \`OPTIONS\`. \`HEAD\` is answered as the \`GET\` (same key check, quota and status, same headers, \`Content-Length\` included), without the body. \`OPTIONS\` needs no key: it answers 204 with \`Allow: ${ALLOWED_METHODS}\`, and to a CORS preflight (\`Origin\` and \`Access-Control-Request-Method\`) also ${Object.entries(CORS_PREFLIGHT_HEADERS)
  .map(([name, value]) => `\`${name}: ${value}\``)
  .join(", ")}. Any other method is a 405 \`method.not_allowed\` with \`Allow: ${ALLOWED_METHODS}\`. Paths are matched without regard to case and with one optional trailing slash (\`/api/v2/trips/\` is the search).

## Keys, quotas and caching

The key goes in the \`key\` header or the \`key\` query parameter (the header wins); it is never echoed in links. The key is checked before the parameters: without one a request is 401, with a wrong one 403, and over its quota 429, whatever else is wrong with it (but a query string whose percent-encoding is broken is a 400 at once when no key is in the \`key\` header: the query's key cannot be read from it). A basic key has 10,000 requests per UTC day; every keyed answer carries \`X-RateLimit-Limit-day\` and \`X-RateLimit-Remaining-day\`. Answers 200 and 404 count against the quota; 400, 401, 403 and 429 do not. A 200 carries \`Cache-Control: private, max-age=600\`, an error \`no-store\`. A parameter given twice is a 400; an unknown parameter is ignored; an optional parameter sent empty counts as absent.

## XML

With \`_format=xml\` (or \`Accept: application/xml\`) the same data comes as XML: root element \`response\`, one element per field in the JSON order, an array as an element holding one child per item named by the singular (${Object.entries(XML_SINGULARS)
  .map(([array, item]) => `\`${array}\` -> \`${item}\``)
  .join(", ")}; \`${XML_GENERIC_ITEM}\` for any other array), booleans as \`true\`/\`false\`, absent fields absent.

## Errors

Every error is the Error object, in the asked format. Its \`developper-message\` is one of these tokens:

${Object.entries(ERROR_TOKENS)
  .map(([token, { status, when }]) => `- \`${token}\` (${status}): ${when}`)
  .join("\n")}`

const tokensWithStatus = (status: number): Array<ErrorToken> =>
  (Object.keys(ERROR_TOKENS) as Array<ErrorToken>).filter((token) => ERROR_TOKENS[token].status === status)

const header = (description: string, schema: Json = { type: "string" }, required = false) => ({ description, ...(required ? { required: true } : {}), schema })

/** The quota headers: on every answer to a request whose key was looked up (none before that: a 401, a 405, a search shed under load). */
const RATE_HEADERS = {
  "X-RateLimit-Limit-day": header("Requests the key may make per UTC day.", { type: "integer" }),
  "X-RateLimit-Remaining-day": header("Requests left to the key today.", { type: "integer" })
}

const CACHE_OK_HEADER = { "Cache-Control": header("`private, max-age=600`.", { const: "private, max-age=600" }, true) }
const NO_STORE_HEADER = { "Cache-Control": header("`no-store`.", { const: "no-store" }, true) }

const XML = (what: string) => ({
  schema: { type: "string", description: `${what} as XML: the same data as the JSON, root element \`response\`.` }
})

/** The Error object restricted to the tokens sent with one status: a client can switch on them. */
const errorResponse = (status: number, description: string, headers: Json = {}, tokens = tokensWithStatus(status)) => {
  const schema = {
    allOf: [
      ref("Error"),
      {
        type: "object",
        properties: {
          error: {
            type: "object",
            properties: { code: { const: String(status) }, "developper-message": { type: "string", enum: tokens } }
          }
        }
      }
    ]
  }
  return {
    description: `${description} Tokens: ${tokens.map((t) => `\`${t}\``).join(", ")}.`,
    headers: { ...NO_STORE_HEADER, ...headers },
    content: { "application/json": { schema }, "application/xml": XML("The Error object") }
  }
}

/** The header of every 503: when to try again. */
const RETRY_LATER = { "Retry-After": header("Seconds to wait before retrying.", { type: "integer" }) }

const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse(400, "A parameter is missing, malformed or outside its rule; the message names it and the rule.", RATE_HEADERS),
  Unauthorized: errorResponse(401, "No API key."),
  Forbidden: errorResponse(403, "The API key is unknown or revoked."),
  PlaceNotFound: errorResponse(404, "A place name resolves to no city; the message quotes it.", RATE_HEADERS, ["place.not_found"]),
  TripNotFound: errorResponse(404, "No such trip, or no such segment of it.", RATE_HEADERS, ["trip.not_found"]),
  ResourceNotFound: errorResponse(404, "No resource at this path (any path but those of this document).", {}, ["resource.not_found"]),
  MethodNotAllowed: errorResponse(405, `Any method but ${ALLOWED_METHODS}.`, { Allow: header(`\`${ALLOWED_METHODS}\`.`, { const: ALLOWED_METHODS }, true) }),
  RequestTimeout: errorResponse(408, "The request was not received in time."),
  BodyNotAllowed: errorResponse(413, "A request of this service carries no body."),
  UriTooLong: errorResponse(414, "The request target is longer than 8 KiB."),
  QuotaExceeded: errorResponse(429, "The key's daily quota is spent.", {
    "Retry-After": header("Seconds until the next UTC midnight.", { type: "integer" }),
    ...RATE_HEADERS
  }),
  HeadersTooLarge: errorResponse(431, "The request headers are larger than 16 KiB."),
  InternalError: errorResponse(500, "An internal error; the message quotes the request id.", RATE_HEADERS),
  Overloaded: errorResponse(
    503,
    "Every search worker is busy and the waiting line is full (`service.overloaded`), or the key is one this server has not looked up before and the trip store cannot be reached (`service.error`).",
    { ...RETRY_LATER, ...RATE_HEADERS },
    ["service.overloaded", "service.error"]
  ),
  KeysUnavailable: errorResponse(
    503,
    "The key is one this server has not looked up before, and the trip store, which holds the keys, cannot be reached at the moment.",
    { ...RETRY_LATER, ...RATE_HEADERS },
    ["service.error"]
  ),
  StoreUnavailable: errorResponse(
    503,
    "The trip store cannot be reached at the moment (searches are still answered from the server's index).",
    { ...RETRY_LATER, ...RATE_HEADERS },
    ["service.error"]
  )
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

const ok = (description: string, schemaName: string, schema: Json = ref(schemaName)) => ({
  description,
  headers: { ...CACHE_OK_HEADER, ...RATE_HEADERS },
  content: { "application/json": { schema }, "application/xml": XML(`The ${schemaName}`) }
})

/**
 * A search response trimmed by `fields`: the same fields, closed as the whole one, none of them
 * required, and its trips trimmed alike (`TripFields`).
 */
const trimmed = (definition: Json, trip: string): Json => {
  const { required: _required, description: _description, ...rest } = definition
  const properties = Object.fromEntries(
    Object.entries(definition.properties as Json).map(([name, property]) => {
      const p = property as Json
      const items = p.items as Json | undefined
      return [name, p.type === "array" && items?.$ref === `${SCHEMAS}Trip` ? { ...p, items: ref(trip) } : p]
    })
  )
  return { ...rest, properties }
}

/** Errors of the service's own routes (`/health`, this document): what any request may be refused with. */
const serviceErrors = {
  "408": responseRef("RequestTimeout"),
  "413": responseRef("BodyNotAllowed"),
  "414": responseRef("UriTooLong"),
  "431": responseRef("HeadersTooLarge")
}

/**
 * The `HEAD` and `OPTIONS` of a path whose `GET` is `get`: HEAD is the GET without a body (its
 * responses are the GET's, whose media types say the `Content-Type` it carries); OPTIONS needs no
 * key and answers 204 with `Allow`, and to a preflight the CORS headers.
 */
const headAndOptions = (get: Json): Json => ({
  head: {
    ...get,
    operationId: `${String(get.operationId)}Head`,
    summary: `${String(get.summary)}, without the body`,
    description: "Answered as the `GET`: the same key check, quota, status and headers (`Content-Length` included), without the body."
  },
  options: {
    operationId: `${String(get.operationId)}Options`,
    tags: get.tags,
    summary: "The methods of this path; a CORS preflight",
    description: "Needs no key and counts against no quota.",
    security: [],
    // The path's own parameters (`{id}`): the query's mean nothing here.
    parameters: ((get.parameters ?? []) as Array<Json>).filter((p) => p.in === "path"),
    responses: {
      "204": {
        description: "The methods answered; to a preflight (`Origin` and `Access-Control-Request-Method`), what a page may send.",
        headers: {
          Allow: header(`\`${ALLOWED_METHODS}\`.`, { const: ALLOWED_METHODS }, true),
          ...Object.fromEntries(Object.entries(CORS_PREFLIGHT_HEADERS).map(([name, value]) => [name, header(`To a preflight: \`${value}\`.`, { const: value })]))
        }
      },
      ...serviceErrors
    }
  }
})

/** Errors any keyed GET of the API may answer. */
const keyedErrors = {
  "400": responseRef("BadRequest"),
  "401": responseRef("Unauthorized"),
  "403": responseRef("Forbidden"),
  "405": responseRef("MethodNotAllowed"),
  "408": responseRef("RequestTimeout"),
  "413": responseRef("BodyNotAllowed"),
  "414": responseRef("UriTooLong"),
  "429": responseRef("QuotaExceeded"),
  "431": responseRef("HeadersTooLarge"),
  "500": responseRef("InternalError")
}

/** Every path item with the `HEAD` and `OPTIONS` of its `GET` (`headAndOptions`): the server answers both on every path. */
const withHeadAndOptions = (paths: Record<string, Json>): Record<string, Json> =>
  Object.fromEntries(Object.entries(paths).map(([path, item]) => [path, { ...item, ...headAndOptions(item.get as Json) }]))

const BUILTIN_TITLE = /^[a-zA-Z]+\(.*\)$/

/**
 * A query Schema's fields as OpenAPI parameters: type, range, allowed values and whether it is
 * required come from the encoded side (what the client sends); descriptions and examples from the
 * field annotations, which the decoded side keeps.
 */
const queryParameters = (schema: Schema.Schema<any, any, never>): Array<Json> => {
  const encoded = JSONSchema.make(schema, { target: "openApi3.1" }) as unknown as { properties: Record<string, Json>; required: Array<string> }
  const decoded = JSONSchema.make(Schema.typeSchema(schema), { target: "openApi3.1" }) as unknown as { properties: Record<string, Json> }
  return Object.entries(encoded.properties).map(([name, property]) => {
    const { description: _d, title, examples: _e, ...rest } = property
    const annotated = decoded.properties[name] ?? {}
    return {
      name,
      in: "query",
      required: encoded.required.includes(name),
      ...(typeof annotated.description === "string" ? { description: annotated.description } : {}),
      schema: { ...rest, ...(typeof title === "string" && !BUILTIN_TITLE.test(title) ? { title } : {}) },
      ...(Array.isArray(annotated.examples) && annotated.examples.length > 0 ? { example: annotated.examples[0] } : {})
    }
  })
}

const ID_PARAMETER = {
  name: "id",
  in: "path",
  required: true,
  description:
    "A trip's `permanent_id`: the trip id for the whole trip, or `{id}_{i}_{j}` for the segment from waypoint `i` to waypoint `j` (`i < j`). `{id}_0_{n}` (`n` the last waypoint) is the whole trip too, answered as `{id}` is, with `permanent_id` `{id}`. A cancelled trip, a segment outside the trip (`i >= j`, `j > n`) and numbers written with leading zeros (`{id}_01_2`) are 404 `trip.not_found`.",
  schema: { type: "string", minLength: 1 }
}

/**
 * The OpenAPI 3.1 document of the service, generated from the core's Schemas (queries and
 * resources) and the adapter's error tokens, with `apiBaseUrl` as its server.
 */
export const openApiDocument = (apiBaseUrl: string): Json => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  for (const schema of [SearchResponse, TripDetail, ThreadsResponse, PlacesResponse, ErrorBody]) {
    JSONSchema.fromAST(schema.ast, { definitions, definitionPath: SCHEMAS, target: "openApi3.1" })
  }
  const detailsParameters = [ID_PARAMETER, ...queryParameters(DetailsParams)]
  return {
    openapi: "3.1.0",
    info: { title: "tripsearch trip search API", version: "2", description: OVERVIEW },
    servers: [{ url: apiBaseUrl }],
    security: [{ keyHeader: [] }, { keyQuery: [] }],
    tags: [{ name: "trips" }, { name: "places" }, { name: "service" }],
    paths: withHeadAndOptions({
      "/api/v2/trips": {
        get: {
          operationId: "searchTrips",
          tags: ["trips"],
          summary: "Search trips",
          description: "Matched trips (or segments of trips) between two places, filtered, sorted and paged, with top trips and facets.",
          parameters: queryParameters(SearchParams),
          responses: {
            "200": ok(
              "The search response. With `fields`, only the named fields: a `SearchResponseFields`, whose trips are `TripFields` (trimmed, they may lack fields marked always present).",
              "SearchResponse",
              { anyOf: [ref("SearchResponse"), ref("SearchResponseFields")] }
            ),
            ...keyedErrors,
            "404": responseRef("PlaceNotFound"),
            "503": responseRef("Overloaded")
          }
        }
      },
      "/api/v2/trips/{id}": {
        get: {
          operationId: "tripDetails",
          tags: ["trips"],
          summary: "One trip's details",
          description: "The trip, or the segment of it, a search returned; prices in the asked locale and currency. A departed trip keeps its details.",
          parameters: detailsParameters,
          responses: { "200": ok("The trip detail.", "TripDetail"), ...keyedErrors, "404": responseRef("TripNotFound"), "503": responseRef("StoreUnavailable") }
        }
      },
      "/api/v2/trips/{id}/threads": {
        get: {
          operationId: "tripThreads",
          tags: ["trips"],
          summary: "Questions and answers of a trip",
          description: "The address of a trip's `links._threads`: the public questions asked to the driver, with their answers.",
          parameters: detailsParameters,
          responses: { "200": ok("The trip's threads.", "ThreadsResponse"), ...keyedErrors, "404": responseRef("TripNotFound"), "503": responseRef("StoreUnavailable") }
        }
      },
      "/api/v2/places": {
        get: {
          operationId: "suggestPlaces",
          tags: ["places"],
          summary: "Cities for a typed name",
          description:
            "Suggestions for a place field while the user types: up to 10 cities of the gazetteer with a name that starts with `q`, in any of the locales' languages (`Mnich`, `Мюнх` and `Minh` all offer München), each named in the locale's language. Counted against the key's quota like a search.",
          parameters: queryParameters(PlacesParams),
          responses: { "200": ok("The suggested cities, best first (none when nothing matches).", "PlacesResponse"), ...keyedErrors, "503": responseRef("KeysUnavailable") }
        }
      },
      "/api/v2/openapi.json": {
        get: {
          operationId: "openApi",
          tags: ["service"],
          summary: "This document",
          description: "Needs no key and counts against no quota.",
          security: [],
          responses: {
            "200": { description: "The OpenAPI 3.1 document.", headers: CACHE_OK_HEADER, content: { "application/json": { schema: { type: "object" } } } },
            ...serviceErrors
          }
        }
      },
      "/health": {
        get: {
          operationId: "health",
          tags: ["service"],
          summary: "Whether the service can answer",
          description:
            "Needs no key. Never cached. A server that answers at all answers searches from its index, so this is 200 even when the trip store cannot be reached: the body says which (`degraded`: searches are answered, trip details and keys not seen before are 503 until the store is back). It is 503 while the server starts (`starting`: it listens, its index is not loaded yet) and while it drains before stopping (`draining`: it finishes what it was sent): a load balancer checking it sends such a server nothing new.",
          security: [],
          responses: {
            "200": { description: "The server answers searches; the body says whether its store answers too.", headers: NO_STORE_HEADER, content: { "application/json": { schema: ref("Health") } } },
            ...serviceErrors,
            "503": { description: "The server is starting or draining: send it nothing new.", headers: NO_STORE_HEADER, content: { "application/json": { schema: ref("Health") } } }
          }
        }
      }
    }),
    components: {
      schemas: {
        ...definitions,
        ErrorToken: { type: "string", enum: Object.keys(ERROR_TOKENS), description: "Every `developper-message` the service sends." },
        Health: {
          type: "object",
          required: ["status"],
          properties: {
            status: {
              type: "string",
              enum: ["ok", "degraded", "starting", "draining"],
              description: "`ok` when the store answers, else `degraded` (both 200); `starting` or `draining` (503, without `store`)."
            },
            store: { type: "string", enum: ["reachable", "unreachable"], description: "Present with `ok` and `degraded`." },
            data_version: { type: "integer", description: "The store's change sequence number (when it answers)." }
          },
          additionalProperties: false
        },
        SearchResponseFields: {
          ...trimmed(definitions["SearchResponse"] as unknown as Json, "TripFields"),
          description: "A `SearchResponse` trimmed by `fields`: only the fields named (any of them may be absent), its trips `TripFields`."
        },
        TripFields: {
          ...trimmed(definitions["Trip"] as unknown as Json, "TripFields"),
          description: "A `Trip` trimmed by `fields`: only the trip fields named (`trips.price`, `seats`...), any of them may be absent."
        }
      },
      responses: ERROR_RESPONSES,
      securitySchemes: {
        keyHeader: { type: "apiKey", in: "header", name: "key", description: "The API key in the `key` header (wins over the query)." },
        keyQuery: { type: "apiKey", in: "query", name: "key", description: "The API key in the `key` query parameter." }
      }
    }
  }
}

const texts = new Map<string, string>()

/** The document as JSON text, built once per base URL. */
export const openApiText = (apiBaseUrl: string): string => {
  let text = texts.get(apiBaseUrl)
  if (text === undefined) {
    text = JSON.stringify(openApiDocument(apiBaseUrl))
    texts.set(apiBaseUrl, text)
  }
  return text
}
