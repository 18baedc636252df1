import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"

type Json = { [key: string]: any } // eslint-disable-line @typescript-eslint/no-explicit-any

/** One answer as a client received it: what the contract checks. */
export interface Exchange {
  /** The request's method, upper case. */
  readonly method: string
  /** The request's URL (absolute) or path. */
  readonly url: string
  readonly status: number
  /** The response's headers (a fetch `Headers`, or anything with a case-insensitive `get`). */
  readonly headers: { get(name: string): string | null }
  /** The body as text, decoded (`fetch` undoes `Content-Encoding`); empty for HEAD and 204. */
  readonly body: string
  /** The body is a test's placeholder (`stubbedUseCases`): everything but the body is checked. */
  readonly bodyUnchecked?: boolean
}

/**
 * The API's own paths: those of the document live under `/api/` (and `/health`). The server
 * answers others beside the API, outside the document: the website's pages, scripts and
 * well-known files, and Prometheus' `/metrics` (docs/METRICS.md). An Error object in JSON from one
 * of them (a method they do not answer, an unknown path) is still the API's, and is checked.
 */
const THE_APIS = /^\/(?:api(?:\/|$)|health\/?$)/i

/**
 * What any other path, or a method a path's item does not list, may answer: the Error objects
 * the document gives for them (its `ResourceNotFound` says "any path but those of this document").
 */
const ANY_REQUEST: Readonly<Record<string, string>> = {
  "404": "ResourceNotFound",
  "405": "MethodNotAllowed",
  "408": "RequestTimeout",
  "413": "BodyNotAllowed",
  "414": "UriTooLong",
  "431": "HeadersTooLarge",
  "500": "InternalError"
}

const METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "POST", "DELETE", "PATCH", "TRACE"])

const templateRegExp = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\/]/g, "\\$&")))
      .join("")}\\/?$`,
    // As the server routes: case-insensitive, one optional trailing slash.
    "i"
  )

const pathOf = (url: string): string => {
  if (url.startsWith("/") || url === "*") return url.split("?")[0]!.split("#")[0]!
  return new URL(url).pathname
}

export interface OpenApiContract {
  /** What is wrong with an answer by the document: an empty list when the document describes it. */
  readonly check: (exchange: Exchange) => ReadonlyArray<string>
}

/**
 * The contract an OpenAPI 3.1 document states, checked on real answers: the status must be listed
 * for the path and method, the `Content-Type` must be one of that response's media types (none for
 * a response without content), the headers it lists as required must be there, the ones it
 * lists must match their schemas, the service's own it does not list (`DECLARED_WHEN_SENT`) must
 * not be sent, and a JSON body must validate against the media type's schema
 * (JSON Schema draft 2020-12, with ajv): an unknown field fails where the schema is closed.
 * XML bodies are checked for their status, type, headers and root element only.
 */
/** Headers of the service's own that the document must declare on every answer that sends them. */
const DECLARED_WHEN_SENT = ["cache-control", "retry-after", "allow", "x-ratelimit-limit-day", "x-ratelimit-remaining-day"]

export const openApiContract = (document: Json): OpenApiContract => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
  const validators = new WeakMap<object, ValidateFunction>()
  const compiled = (schema: Json): ValidateFunction => {
    let validate = validators.get(schema)
    if (validate === undefined) {
      // The schema's `#/components/...` references resolve inside the document it came from.
      validate = ajv.compile({ ...schema, components: { schemas: document.components?.schemas ?? {} } })
      validators.set(schema, validate)
    }
    return validate
  }
  const paths = Object.entries((document.paths ?? {}) as Json).map(([template, item]) => ({ template, item: item as Json, pattern: templateRegExp(template) }))
  const resolve = (response: Json): Json =>
    typeof response.$ref === "string" ? (document.components.responses[String(response.$ref).split("/").pop()!] as Json) : response
  const anyRequest: Json = Object.fromEntries(Object.entries(ANY_REQUEST).map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]))

  const check = ({ method, url, status, headers, body, bodyUnchecked = false }: Exchange): ReadonlyArray<string> => {
    const path = pathOf(url)
    const what = `${method} ${path} -> ${status}`
    const mediaType = headers.get("content-type")?.split(";")[0]!.trim().toLowerCase()
    // `OPTIONS *` asks about the server as a whole: any path's OPTIONS describes it.
    const described = path === "*" && method === "OPTIONS" ? paths[0] : paths.find((p) => p.pattern.test(path))
    let responses: Json
    let where: string
    if (described !== undefined) {
      const operation = METHODS.has(method) ? (described.item[method.toLowerCase()] as Json | undefined) : undefined
      responses = operation?.responses ?? anyRequest
      where = operation === undefined ? `${method} (not an operation of ${described.template})` : `${method} ${described.template}`
    } else {
      const theApis = mediaType === "application/json" && status >= 400
      if (!THE_APIS.test(path) && !theApis) return []
      // The website's own JSON routes (place suggestions) refuse a bad query with the API's
      // BadRequest Error object; the document lists no such path, so it is checked as that.
      responses = THE_APIS.test(path) ? anyRequest : { ...anyRequest, "400": { $ref: "#/components/responses/BadRequest" } }
      where = `${method} on a path the document does not list`
    }
    const listed = (responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default) as Json | undefined
    if (listed === undefined) return [`${what}: status ${status} is not documented for ${where} (documented: ${Object.keys(responses).join(", ")})`]
    const response = resolve(listed)
    const problems: Array<string> = []

    for (const [name, raw] of Object.entries((response.headers ?? {}) as Json)) {
      const header = resolve(raw as Json)
      const value = headers.get(name)
      if (value === null) {
        if (header.required === true) problems.push(`${what}: header ${name} is required and missing`)
        continue
      }
      if (header.schema === undefined) continue
      const typed = header.schema.type === "integer" || header.schema.type === "number" ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : value
      const validate = compiled(header.schema as Json)
      if (!validate(typed)) problems.push(`${what}: header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors, { dataVar: name })}`)
    }

    // The service's own headers must be declared where they are sent: a client generated from the
    // document knows only those (a keyed 400 without its quota headers declared, for one).
    const declared = new Set(Object.keys((response.headers ?? {}) as Json).map((name) => name.toLowerCase()))
    for (const name of DECLARED_WHEN_SENT) {
      if (headers.get(name) !== null && !declared.has(name)) problems.push(`${what}: header ${name} is sent but not declared by the document`)
    }

    const content = (response.content ?? {}) as Json
    const types = Object.keys(content)
    if (types.length === 0) {
      if (body !== "") problems.push(`${what}: the document gives this answer no content, and it has a body of ${body.length} characters`)
      return problems
    }
    if (mediaType === undefined) {
      problems.push(`${what}: no Content-Type (documented: ${types.join(", ")})`)
      return problems
    }
    const media = content[mediaType] as Json | undefined
    if (media === undefined) {
      problems.push(`${what}: Content-Type ${mediaType} is not documented (documented: ${types.join(", ")})`)
      return problems
    }
    // A HEAD is answered as the GET without its body: its status, type and headers are checked.
    if (method === "HEAD") {
      if (body !== "") problems.push(`${what}: a HEAD answer with a body`)
      return problems
    }
    // The document describes an XML body as the JSON's data under a root element `response`.
    if (mediaType === "application/xml" && !/^<\?xml[^>]*\?>\s*<response[\s/>]/.test(body)) {
      problems.push(`${what}: the XML body is not a document with the root element response: ${JSON.stringify(body.slice(0, 80))}`)
    }
    if (mediaType !== "application/json" || media.schema === undefined || bodyUnchecked) return problems
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      problems.push(`${what}: the body is not JSON: ${JSON.stringify(body.slice(0, 200))}`)
      return problems
    }
    const validate = compiled(media.schema as Json)
    if (!validate(parsed)) {
      const errors = (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}${e.params && "unevaluatedProperty" in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ""}`)
      problems.push(`${what}: the body does not match the document: ${errors.join("; ")}`)
    }
    return problems
  }

  return { check }
}
