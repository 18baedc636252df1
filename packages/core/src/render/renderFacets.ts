import type { SearchQuery } from "../model/SearchQuery.js"
import type { JsonObject } from "../RequestContext.js"
import type { FacetCounts } from "../search/MatchRequest.js"

const ymd = (date: string): number => Number(date.replace(/-/g, ""))

/** The seven facets in the order of docs/API.md, Facets, with `is_selected` from the query. */
export const renderFacets = (f: FacetCounts, q: SearchQuery): ReadonlyArray<JsonObject> => {
  const items = (pairs: ReadonlyArray<readonly [number, number]>, selected: (v: number) => boolean) =>
    pairs.map(([value, count]) => ({ value, count, is_selected: selected(value) }))
  const fixed = (counts: ReadonlyArray<number>, first: number, selected: (v: number) => boolean) =>
    items(counts.map((c, k) => [first + k, c] as const), selected)
  const dbDay = q.db !== undefined ? ymd(q.db.date) : undefined
  const deDay = q.de !== undefined ? ymd(q.de.date) : undefined
  const dateSelected = (v: number) =>
    (dbDay !== undefined || deDay !== undefined) &&
    (deDay === undefined ? v === dbDay : (dbDay === undefined || v >= dbDay) && v <= deDay)
  const hourSelected = (v: number) =>
    (q.hb !== undefined || q.he !== undefined) && (q.hb === undefined || v >= q.hb) && (q.he === undefined || v < q.he)
  const priceSelected = (v: number) => q.pmin !== undefined && q.pmax !== undefined && v >= q.pmin && v <= q.pmax
  return [
    { name: "seats", type: "radio", items: fixed(f.seats, 1, (v) => v === q.seats) },
    { name: "date", type: "custom", items: items(f.dates, dateSelected) },
    { name: "hour", type: "custom", items: items(f.hours, hourSelected) },
    { name: "price", type: "custom", items: items(f.prices, priceSelected) },
    { name: "photo", type: "radio", items: fixed(f.photo, 0, (v) => v === 1 && q.photo) },
    { name: "experience", type: "radio", items: fixed(f.experience, 0, () => false) },
    { name: "car_comfort", type: "checkbox", items: fixed(f.comfort, 1, () => false) }
  ]
}
