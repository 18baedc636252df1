/** The search page's own filters, which the API has no parameter for: applied over its answer. */
export const WEBSITE_FILTERS: ReadonlySet<string> = new Set(["experience", "comfort"])

/** The API's answers the website filters over, at most: 10 pages of 100 rides. */
export const WEBSITE_FILTER_PAGES = 10

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** The stored trip's id of a permanent id (`{id}`, `{id}_{a}_{b}`, `{id}_m{mp}_{b}`). */
export const tripIdOf = (permanentId: string): string => /^(.+?)_m?\d+_m?\d+$/.exec(permanentId)?.[1] ?? permanentId

/** The website's filters of a query: the driver's experience (0..4), the car's comfort stars (1..4). */
export interface WebsiteFilterValues {
  readonly experience?: number | undefined
  readonly comfort?: number | undefined
}

/** Whether the query's website filters are all readable (`experience` 0..4, `comfort` 1..4). */
export const websiteFiltersValid = (params: ReadonlyMap<string, string>): boolean =>
  (!params.has("experience") || /^[0-4]$/.test(params.get("experience")!)) && (!params.has("comfort") || /^[1-4]$/.test(params.get("comfort")!))

export const websiteFilterValues = (params: ReadonlyMap<string, string>): WebsiteFilterValues => {
  const e = params.get("experience")
  const c = params.get("comfort")
  return { experience: e !== undefined && /^[0-4]$/.test(e) ? Number(e) : undefined, comfort: c !== undefined && /^[1-4]$/.test(c) ? Number(c) : undefined }
}

/**
 * The API's Search response as if it could filter on the driver's experience and the car's
 * comfort: `answers` are its pages of the same search (100 rides each, in its order); the rides
 * kept are paged again (`page`, `limit`); the `experience` and `car_comfort` facets are counted over
 * the rides fetched, each without its own filter, and say which value is selected. The other
 * facets are the API's, counted without these two filters. When the API found more rides than
 * were fetched, `filter_scope` says how many the two were counted over, of how many.
 */
export const websiteFiltered = (
  answers: ReadonlyArray<Json>,
  experienceOf: ReadonlyMap<string, number>,
  filters: WebsiteFilterValues,
  page: number,
  limit: number
): Json => {
  const first = answers[0]!
  const trips = answers.flatMap((a) => (a.trips as ReadonlyArray<Json>) ?? [])
  const experience = (trip: Json): number | undefined => experienceOf.get(tripIdOf(String(trip.permanent_id)))
  const stars = (trip: Json): number => Number(trip.car?.comfort_nb_star)
  const passE = (trip: Json) => filters.experience === undefined || experience(trip) === filters.experience
  const passC = (trip: Json) => filters.comfort === undefined || stars(trip) === filters.comfort
  const kept = trips.filter((trip) => passE(trip) && passC(trip))
  const count = (list: ReadonlyArray<Json>, values: ReadonlyArray<number>, of: (trip: Json) => number | undefined, selected: number | undefined) =>
    values.map((value) => ({ value, count: list.filter((trip) => of(trip) === value).length, is_selected: value === selected }))
  const facets = (first.facets as ReadonlyArray<Json>).map((facet) =>
    facet.name === "experience"
      ? { ...facet, items: count(trips.filter(passC), [0, 1, 2, 3, 4], experience, filters.experience) }
      : facet.name === "car_comfort"
        ? { ...facet, items: count(trips.filter(passE), [1, 2, 3, 4], stars, filters.comfort) }
        : facet
  )
  const pages = Math.max(1, Math.ceil(kept.length / limit))
  const found = Number(first.pager?.total)
  return {
    ...first,
    ...(found > trips.length ? { filter_scope: { counted: trips.length, total: found } } : {}),
    trips: kept.slice((page - 1) * limit, page * limit),
    pager: { ...first.pager, page, pages, total: kept.length, limit },
    facets
  }
}
