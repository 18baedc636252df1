import { XMLBuilder } from "fast-xml-parser"
import type { JsonValue } from "@tripsearch/core"

/** Element name of each item of an array, by the array's name (docs/API.md, XML). */
export const XML_SINGULARS: Readonly<Record<string, string>> = {
  trips: "trip",
  top_trips: "trip",
  facets: "facet",
  items: "item",
  stop_overs: "stop_over",
  trip_plan: "step",
  routes: "route",
  tags: "tag",
  locations_to_display: "location",
  passengers: "passenger",
  vehicle_pictures: "picture",
  threads: "thread",
  places: "place"
}

/** Item element of an array whose name is not in the table. */
export const XML_GENERIC_ITEM = "item"

// Keys that the builder would read as attributes, text or processing instructions: never ours,
// but the encoder must not change meaning if one ever appears.
const TEXT_NODE = "\u0000text"
const ATTRIBUTE_PREFIX = "\u0000attr"

const builder = new XMLBuilder({
  ignoreAttributes: true,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  textNodeName: TEXT_NODE,
  processEntities: true,
  suppressEmptyNode: false,
  format: false,
  maxNestedTags: 1000
})

/** An XML 1.0 element name for a JSON key (invalid characters become `_`). */
export const xmlName = (key: string): string => {
  let name = key.replace(/[^A-Za-z0-9._-]/g, "_")
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`
  return name
}

// Characters XML 1.0 cannot carry at all (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F).
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const scalar = (value: string | number | boolean): string => {
  if (typeof value === "string") return value.replace(NOT_XML_CHAR, "\uFFFD")
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : ""
  return value ? "true" : "false"
}

type BuilderNode = string | { [name: string]: BuilderNode | ReadonlyArray<BuilderNode> }

const arrayNode = (name: string, items: ReadonlyArray<JsonValue>): BuilderNode => {
  if (items.length === 0) return ""
  const singular = XML_SINGULARS[name] ?? XML_GENERIC_ITEM
  return { [singular]: items.map((item) => toNode(singular, item)) }
}

const toNode = (name: string, value: JsonValue): BuilderNode => {
  if (Array.isArray(value)) return arrayNode(name, value as ReadonlyArray<JsonValue>)
  if (typeof value === "object" && value !== null) {
    const out: { [name: string]: BuilderNode } = {}
    for (const [key, child] of Object.entries(value as { readonly [key: string]: JsonValue })) {
      if (child === undefined || child === null) continue // absent means absent
      const element = xmlName(key)
      const node = toNode(key, child)
      // Two JSON keys mapping to one element name cannot happen with our keys; keep the first.
      if (!(element in out)) out[element] = node
    }
    return out
  }
  return scalar(value as string | number | boolean)
}

/**
 * The XML form of a response (docs/API.md, XML): root `response`, one element per field in JSON
 * order, arrays as an element holding one child per item (named by `XML_SINGULARS`), booleans
 * `true`/`false`, text XML-escaped.
 */
export const toXml = (root: JsonValue): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ response: toNode("response", root) }) as string}`
