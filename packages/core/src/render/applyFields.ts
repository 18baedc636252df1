import { SEARCH_FIELD_NAMES } from "../model/fieldNames.js"
import type { JsonObject, JsonValue } from "../RequestContext.js"

/** The lists of trips that `fields` can trim. */
const TRIP_LISTS = ["trips", "top_trips"] as const
type TripList = (typeof TRIP_LISTS)[number]

/** What a decoded `fields` value keeps: top-level fields, and the trip fields of each trip list. */
export interface FieldSelection {
  readonly top: ReadonlySet<string>
  /** Per trip list, the trip fields kept; absent: its trips stay whole. */
  readonly tripFields: Readonly<Partial<Record<TripList, ReadonlySet<string>>>>
}

/**
 * Reads the names of a valid `fields` value (docs/API.md, docs/DECISIONS.md):
 * - a top-level name keeps that field (a name that is both, such as `distance`, is top-level);
 * - `trips.NAME` / `top_trips.NAME` keeps its list and trims each of its trips;
 * - a bare trip field (`seats`) trims the trips of both lists; it keeps `trips` when the value
 *   names no trip list at all, and otherwise adds no list.
 * A list's trips keep the union of the bare trip names and its own dotted names.
 */
export const fieldSelection = (fields: ReadonlyArray<string>): FieldSelection => {
  const top = new Set<string>()
  const bare = new Set<string>()
  const dotted: Record<TripList, Set<string>> = { trips: new Set(), top_trips: new Set() }
  for (const f of fields) {
    const dot = f.indexOf(".")
    if (dot !== -1) {
      const parent = f.slice(0, dot) as TripList
      top.add(parent)
      dotted[parent].add(f.slice(dot + 1))
    } else if (SEARCH_FIELD_NAMES.includes(f)) top.add(f)
    else bare.add(f)
  }
  if (bare.size > 0 && !TRIP_LISTS.some((list) => top.has(list))) top.add("trips")
  const tripFields: Partial<Record<TripList, ReadonlySet<string>>> = {}
  for (const list of TRIP_LISTS) {
    const kept = new Set([...bare, ...dotted[list]])
    if (kept.size > 0) tripFields[list] = kept
  }
  return { top, tripFields }
}

const pick = (o: JsonObject, names: ReadonlySet<string>): JsonObject =>
  Object.fromEntries(Object.entries(o).filter(([k]) => names.has(k)))

/** The `fields` parameter applied to a Search response; fields keep the response order. */
export const applyFields = (response: JsonObject, fields: ReadonlyArray<string> | undefined): JsonObject => {
  if (fields === undefined) return response
  const { top, tripFields } = fieldSelection(fields)
  const out: Record<string, JsonValue> = {}
  for (const [k, v] of Object.entries(pick(response, top))) {
    const kept = (tripFields as Record<string, ReadonlySet<string> | undefined>)[k]
    out[k] = kept !== undefined && Array.isArray(v) ? (v as ReadonlyArray<JsonObject>).map((t) => pick(t, kept)) : v
  }
  return out
}
