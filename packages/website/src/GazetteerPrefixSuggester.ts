import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { type Gazetteer, type GazetteerCity, normalizeName } from "@tripsearch/gazetteer"
import type { PlaceSuggester, PlaceSuggestion } from "./PlaceSuggester.js"

/**
 * STOP-GAP, to be replaced by `gazetteer.suggest` (localized names) when it is merged: towns whose
 * GeoNames name starts with what was typed (both normalized: case and accents aside), the
 * locale's country first, then the most populous.
 */
export class GazetteerPrefixSuggester implements PlaceSuggester {
  private readonly sorted: ReadonlyArray<{ readonly key: string; readonly city: GazetteerCity }>

  constructor(gazetteer: Gazetteer) {
    this.sorted = gazetteer.cities.map((city) => ({ key: normalizeName(city.name), city })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  }

  suggest(q: string, locale: LocaleCode, limit = 10): ReadonlyArray<PlaceSuggestion> {
    const prefix = normalizeName(q)
    if (prefix === "" || limit <= 0) return []
    let lo = 0
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.sorted[mid]!.key < prefix) lo = mid + 1
      else hi = mid
    }
    const country = LOCALE_TABLE[locale].country
    const found: Array<GazetteerCity> = []
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.key.startsWith(prefix); i++) found.push(this.sorted[i]!.city)
    found.sort((a, b) => Number(b.country === country) - Number(a.country === country) || b.population - a.population || a.id - b.id)
    return found.slice(0, limit).map((c) => ({ id: c.id, name: c.name, countryCode: c.country, lat: c.lat, lon: c.lon, population: c.population }))
  }
}
