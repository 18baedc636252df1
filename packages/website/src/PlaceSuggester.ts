import type { LocaleCode } from "@tripsearch/core"

/** A town offered as one types: its name, its country, where it is, and how large it is. */
export interface PlaceSuggestion {
  readonly id: number
  readonly name: string
  readonly countryCode: string
  readonly lat: number
  readonly lon: number
  readonly population: number
}

/**
 * What the place fields' suggestions come from: `Gazetteer.suggest` of @tripsearch/gazetteer
 * (names in the locale's language) has this signature; until it is there, `GazetteerPrefixSuggester`.
 */
export interface PlaceSuggester {
  suggest(q: string, locale: LocaleCode, limit?: number): ReadonlyArray<PlaceSuggestion>
}
