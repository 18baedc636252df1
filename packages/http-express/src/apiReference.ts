import { openApiDocument } from "./openApiDocument.js"

type Json = { readonly [key: string]: any } // eslint-disable-line @typescript-eslint/no-explicit-any

const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-")
const refName = (ref: string) => ref.split("/").pop()!
// A table cell holds one line, and a `|` would end it.
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n+/g, " ")
const code = (value: unknown) => `\`${String(value)}\``

/** A JSON Schema as a short phrase: `integer 0..100`, `one of a, b`, `array of [Trip](#trip)`. */
const typeOf = (schema: Json | undefined): string => {
  if (schema === undefined) return "any"
  if (typeof schema.$ref === "string") return `[${refName(schema.$ref)}](#${anchor(refName(schema.$ref))})`
  if (Array.isArray(schema.allOf)) return schema.allOf.map(typeOf).join(" and ")
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map(typeOf).join(" or ")
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map(code).join(", ")}`
  if (schema.const !== undefined) return code(schema.const)
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`
  const parts: Array<string> = [String(schema.type ?? "any")]
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? ""}..${schema.maximum ?? ""}`)
  if (typeof schema.pattern === "string") parts.push(`matching ${code(schema.pattern)}`)
  if (typeof schema.minLength === "number" && schema.minLength > 0) parts.push("non-empty")
  return parts.join(" ")
}

const resolveResponse = (doc: Json, response: Json): Json =>
  typeof response.$ref === "string" ? (doc.components.responses[refName(response.$ref)] as Json) : response

const operation = (doc: Json, path: string, op: Json): Array<string> => {
  const out = [`### GET ${path}`, "", `${op.summary}. ${op.description}`, ""]
  if (Array.isArray(op.security) && op.security.length === 0) out.push("No API key needed.", "")
  const parameters = (op.parameters ?? []) as Array<Json>
  if (parameters.length > 0) {
    out.push("| parameter | in | type | required | meaning |", "|---|---|---|---|---|")
    for (const p of parameters) {
      out.push(`| ${code(p.name)} | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? "yes" : "no"} | ${cell(p.description ?? "")} |`)
    }
    out.push("")
  }
  out.push("| status | answer | body |", "|---|---|---|")
  for (const [status, raw] of Object.entries(op.responses as Json)) {
    const response = resolveResponse(doc, raw as Json)
    const json = response.content?.["application/json"]?.schema as Json | undefined
    const body = json === undefined ? "" : Array.isArray(json.allOf) ? typeOf(json.allOf[0]) : typeOf(json)
    const formats = Object.keys(response.content ?? {}).map(code).join(", ")
    out.push(`| ${status} | ${cell(response.description)} | ${cell(body)}${formats ? ` (${cell(formats)})` : ""} |`)
  }
  out.push("")
  return out
}

const resource = (name: string, schema: Json): Array<string> => {
  const out = [`### ${name}`, ""]
  if (typeof schema.description === "string") out.push(schema.description, "")
  if (schema.type !== "object" || schema.properties === undefined) {
    out.push(`A ${typeOf(schema)}.`, "")
    return out
  }
  const required = new Set((schema.required ?? []) as Array<string>)
  out.push("| field | type | always present | meaning |", "|---|---|---|---|")
  for (const [field, raw] of Object.entries(schema.properties as Json)) {
    const property = raw as Json
    out.push(`| ${code(field)} | ${cell(typeOf(property))} | ${required.has(field) ? "yes" : "no"} | ${cell(property.description ?? "")} |`)
  }
  out.push("")
  return out
}

/** The API reference page (docs/API.md) rendered from an OpenAPI document of this service. */
export const apiMarkdown = (doc: Json): string => {
  const lines = [
    "# API reference",
    "",
    "<!-- Generated from the OpenAPI document by `npm run docs:api`: edit the Schemas and the document's sources, not this page. -->",
    "",
    `The service serves this reference as an OpenAPI ${doc.openapi} document at \`GET /api/v2/openapi.json\`.`,
    "",
    doc.info.description,
    "",
    "## Endpoints",
    ""
  ]
  for (const [path, item] of Object.entries(doc.paths as Json)) lines.push(...operation(doc, path, (item as Json).get))
  lines.push("## Resources", "")
  for (const [name, schema] of Object.entries(doc.components.schemas as Json)) lines.push(...resource(name, schema as Json))
  return lines.join("\n").replace(/\n+$/, "\n")
}

/** docs/API.md as it should read: the reference of the document served on the default local address. */
export const apiReference = (): string => apiMarkdown(openApiDocument("http://localhost:3000"))
