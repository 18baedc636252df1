import { LOCALE_TABLE, type LocaleCode, type PlaceSuggestion } from "@tripsearch/core"
import type { Translate } from "./messages/catalogue.js"
import { countryName } from "./placeReading.js"

/**
 * How a place field lists its suggestions: `Town, Country` in the page's language, a town with a
 * namesake in the list told apart by the larger town near it (`Lyons (near Geneva), United States`),
 * and by its coordinates where even that reads the same; so that no two entries read alike.
 */
export const suggestionLabels = (places: ReadonlyArray<PlaceSuggestion>, locale: LocaleCode, t: Translate): ReadonlyArray<string> => {
  const labels = places.map((p) => `${p.near !== undefined ? t("near_town", { name: p.name, town: p.near }) : p.name}, ${countryName(p.countryCode, locale)}`)
  const count = new Map<string, number>()
  for (const label of labels) count.set(label, (count.get(label) ?? 0) + 1)
  const degrees = new Intl.NumberFormat(LOCALE_TABLE[locale].bcp47, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  return labels.map((label, k) => {
    if (count.get(label)! === 1) return label
    const p = places[k]!
    return `${label} (${degrees.format(p.lat)}°, ${degrees.format(p.lon)}°)`
  })
}
