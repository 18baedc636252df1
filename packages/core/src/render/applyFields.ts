import type { JsonObject, JsonValue } from "../RequestContext.js"

const pick = (o: JsonObject, names: ReadonlySet<string>): JsonObject =>
  Object.fromEntries(Object.entries(o).filter(([k]) => names.has(k)))

/**
 * The `fields` parameter: top-level names, and `trips.NAME` / `top_trips.NAME` to trim each trip.
 * A dotted name keeps its parent; a parent named alone keeps its trips whole.
 */
export const applyFields = (response: JsonObject, fields: ReadonlyArray<string> | undefined): JsonObject => {
  if (fields === undefined) return response
  const top = new Set<string>()
  const nested = new Map<string, Set<string>>()
  for (const f of fields) {
    const dot = f.indexOf(".")
    if (dot === -1) top.add(f)
    else {
      const parent = f.slice(0, dot)
      top.add(parent)
      const set = nested.get(parent) ?? new Set<string>()
      set.add(f.slice(dot + 1))
      nested.set(parent, set)
    }
  }
  const out: Record<string, JsonValue> = {}
  for (const [k, v] of Object.entries(pick(response, top))) {
    const sub = nested.get(k)
    out[k] = sub !== undefined && !fields.includes(k) && Array.isArray(v) ? (v as ReadonlyArray<JsonObject>).map((t) => pick(t, sub)) : v
  }
  return out
}
