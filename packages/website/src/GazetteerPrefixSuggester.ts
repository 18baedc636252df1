import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { type Gazetteer, type GazetteerCity, normalizeName } from "@tripsearch/gazetteer"
import type { PlaceSuggester, PlaceSuggestion } from "./PlaceSuggester.js"

/**
 * GeoNames features that are not a town to travel to: city sections (`PPLX`), the arrondissements
 * of Marseille (`PPLA5`, `Marseille 13`), and historical, abandoned or destroyed places.
 */
const NOT_TOWNS = new Set(["PPLX", "PPLA5", "PPLH", "PPLQ", "PPLW"])

/** How much a town of the locale's country counts over a town of the same size elsewhere. */
export const HOME_WEIGHT = 10

/**
 * STOP-GAP, to be replaced by `gazetteer.suggest` (localized names) when it is merged: towns whose
 * GeoNames name starts with what was typed (both normalized: case and accents aside), city
 * sections and other places that are not towns left out (`NOT_TOWNS`), the most populous first, a town of the locale's
 * country counted `HOME_WEIGHT` times its size (a French reader typing `ber` gets Berlin before
 * Bergerac, and Paris before Paris, Texas).
 */
export class GazetteerPrefixSuggester implements PlaceSuggester {
  private readonly sorted: ReadonlyArray<{ readonly key: string; readonly city: GazetteerCity }>

  constructor(gazetteer: Gazetteer) {
    this.sorted = gazetteer.cities
      .filter((city) => !NOT_TOWNS.has(city.featureCode))
      .map((city) => ({ key: normalizeName(city.name), city }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
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
    const weight = (c: GazetteerCity): number => c.population * (c.country === country ? HOME_WEIGHT : 1)
    const before = (a: GazetteerCity, b: GazetteerCity): boolean => (weight(b) - weight(a) || a.id - b.id) < 0
    // The best `limit` of the range, kept in order as it is scanned: a short prefix matches
    // thousands of towns, of which a few are shown.
    const best: Array<GazetteerCity> = []
    for (let i = lo; i < this.sorted.length && this.sorted[i]!.key.startsWith(prefix); i++) {
      const city = this.sorted[i]!.city
      if (best.length === limit && !before(city, best[limit - 1]!)) continue
      let at = best.length
      while (at > 0 && before(city, best[at - 1]!)) at--
      best.splice(at, 0, city)
      if (best.length > limit) best.pop()
    }
    return best.map((c) => ({ id: c.id, name: c.name, countryCode: c.country, lat: c.lat, lon: c.lon, population: c.population }))
  }
}
