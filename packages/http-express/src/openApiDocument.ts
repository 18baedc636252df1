import { JSONSchema, Schema } from "effect"
import {
  CURRENCIES,
  DEFAULT_RATES,
  DetailsParams,
  ErrorBody,
  LOCALE_TABLE,
  LOCALES,
  MINOR_DIGITS,
  SearchParams,
  SearchResponse,
  ThreadsResponse,
  TripDetail
} from "@tripsearch/core"
import { ERROR_TOKENS, type ErrorToken } from "./httpErrors.js"
import { XML_GENERIC_ITEM, XML_SINGULARS } from "./toXml.js"

type Json = { [key: string]: unknown }

const SCHEMAS = "#/components/schemas/"
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` })

const OVERVIEW = `A read-only REST service that searches carpooling trips and reads one trip's details, in JSON or XML. Every API request but this document needs an API key.

## Searching

A search names a departure and an arrival, each by name (\`fn\`, \`tn\`) or by coordinates (\`fc\`, \`tc\`); either may be left out. A trip with waypoints \`w0..wn\` matches when some waypoint \`wi\` lies within the departure radius of the departure place and a later waypoint \`wj\` within the arrival radius of the arrival place (great-circle distances). Of all such pairs the one with the smallest sum of the two distances is kept (ties: smallest \`i\`, then \`j\`). With only a departure, the trip runs from its nearest waypoint to its end; with only an arrival, from its start to its nearest waypoint. The result is the segment \`wi -> wj\`: its departure, arrival, distance, duration and price are those of that part of the trip, and its \`permanent_id\` is the trip id for the whole trip, else \`{id}_{i}_{j}\`. The filters (dates, hours, seats, photo, \`aa\`, prices, \`shortlines\`) then apply to that segment, in the departure waypoint's local time; a trip appears at most once. Departed and cancelled trips never match.

Results are sorted by departure (\`sort=trip_date\`, the default) or by price (\`sort=trip_price\`), ties broken by the other key and then by \`permanent_id\` (compared as a plain string). \`top_trips\` (page 1 only, even with \`limit=0\`) holds up to three matched trips with automatic booking and at least \`max(1, seats)\` seats left, the lowest price per kilometre of the segment first (a segment of zero length last), then by departure, whatever \`sort\` says.

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

## Keys, quotas and caching

The key goes in the \`key\` header or the \`key\` query parameter (the header wins); it is never echoed in links. A basic key has 10,000 requests per UTC day; every keyed answer carries \`X-RateLimit-Limit-day\` and \`X-RateLimit-Remaining-day\`. Answers 200 and 404 count against the quota; 400, 401, 403 and 429 do not. A 200 carries \`Cache-Control: private, max-age=600\`, an error \`no-store\`. A parameter given twice is a 400; an unknown parameter is ignored; an optional parameter sent empty counts as absent.

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

const header = (description: string, schema: Json = { type: "string" }) => ({ description, schema })

const RATE_HEADERS = {
  "X-RateLimit-Limit-day": header("Requests the key may make per UTC day.", { type: "integer" }),
  "X-RateLimit-Remaining-day": header("Requests left to the key today.", { type: "integer" })
}

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
    headers: { "Cache-Control": header("`no-store`."), ...headers },
    content: { "application/json": { schema }, "application/xml": XML("The Error object") }
  }
}

const ERROR_RESPONSES: Record<string, Json> = {
  BadRequest: errorResponse(400, "A parameter is missing, malformed or outside its rule; the message names it and the rule."),
  Unauthorized: errorResponse(401, "No API key."),
  Forbidden: errorResponse(403, "The API key is unknown or revoked."),
  PlaceNotFound: errorResponse(404, "A place name resolves to no city; the message quotes it.", {}, ["place.not_found"]),
  TripNotFound: errorResponse(404, "No such trip, or no such segment of it.", {}, ["trip.not_found"]),
  ResourceNotFound: errorResponse(404, "No resource at this path (any path but those of this document).", {}, ["resource.not_found"]),
  MethodNotAllowed: errorResponse(405, "Only GET is answered.", { Allow: header("`GET`.") }),
  RequestTimeout: errorResponse(408, "The request was not received in time."),
  BodyNotAllowed: errorResponse(413, "A GET of this service carries no body."),
  UriTooLong: errorResponse(414, "The request target is longer than 8 KiB."),
  QuotaExceeded: errorResponse(429, "The key's daily quota is spent.", {
    "Retry-After": header("Seconds until the next UTC midnight.", { type: "integer" }),
    ...RATE_HEADERS
  }),
  HeadersTooLarge: errorResponse(431, "The request headers are larger than 16 KiB."),
  InternalError: errorResponse(500, "An internal error; the message quotes the request id."),
  Overloaded: errorResponse(
    503,
    "Every search worker is busy and the waiting line is full (`service.overloaded`), or the key is one this server has not looked up before and the trip store cannot be reached (`service.error`).",
    { "Retry-After": header("Seconds to wait before retrying.", { type: "integer" }) },
    ["service.overloaded", "service.error"]
  ),
  StoreUnavailable: errorResponse(
    503,
    "The trip store cannot be reached at the moment (searches are still answered from the server's index).",
    { "Retry-After": header("Seconds to wait before retrying.", { type: "integer" }) },
    ["service.error"]
  )
}

const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })

const ok = (description: string, schemaName: string) => ({
  description,
  headers: { "Cache-Control": header("`private, max-age=600`."), ...RATE_HEADERS },
  content: { "application/json": { schema: ref(schemaName) }, "application/xml": XML(`The ${schemaName}`) }
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
    "A trip's `permanent_id`: the trip id for the whole trip, or `{id}_{i}_{j}` for the segment from waypoint `i` to waypoint `j` (`i < j`). A cancelled trip, a segment outside the trip, and `{id}_0_{n}` (the whole trip, whose id is `{id}`) are 404 `trip.not_found`.",
  schema: { type: "string", minLength: 1 }
}

/**
 * The OpenAPI 3.1 document of the service, generated from the core's Schemas (queries and
 * resources) and the adapter's error tokens, with `apiBaseUrl` as its server.
 */
export const openApiDocument = (apiBaseUrl: string): Json => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  for (const schema of [SearchResponse, TripDetail, ThreadsResponse, ErrorBody]) {
    JSONSchema.fromAST(schema.ast, { definitions, definitionPath: SCHEMAS, target: "openApi3.1" })
  }
  const detailsParameters = [ID_PARAMETER, ...queryParameters(DetailsParams)]
  return {
    openapi: "3.1.0",
    info: { title: "tripsearch trip search API", version: "2", description: OVERVIEW },
    servers: [{ url: apiBaseUrl }],
    security: [{ keyHeader: [] }, { keyQuery: [] }],
    tags: [{ name: "trips" }, { name: "service" }],
    paths: {
      "/api/v2/trips": {
        get: {
          operationId: "searchTrips",
          tags: ["trips"],
          summary: "Search trips",
          description: "Matched trips (or segments of trips) between two places, filtered, sorted and paged, with top trips and facets.",
          parameters: queryParameters(SearchParams),
          responses: {
            "200": ok("The search response. With `fields`, only the named fields (trimmed trips may lack fields marked always present).", "SearchResponse"),
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
      "/api/v2/openapi.json": {
        get: {
          operationId: "openApi",
          tags: ["service"],
          summary: "This document",
          description: "Needs no key and counts against no quota.",
          security: [],
          responses: {
            "200": { description: "The OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } }
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
            "200": { description: "The server answers searches; the body says whether its store answers too.", content: { "application/json": { schema: ref("Health") } } },
            "503": { description: "The server is starting or draining: send it nothing new.", content: { "application/json": { schema: ref("Health") } } }
          }
        }
      }
    },
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
