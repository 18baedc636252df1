import type { LocaleCode, PlaceSuggestion } from "@tripsearch/core"

export type { PlaceSuggestion }

/**
 * What the place fields' suggestions come from: the `suggest` of core's `PlaceNames` port, which
 * `Gazetteer.suggest` of @tripsearch/gazetteer implements (names in the locale's language, exact
 * names first, then the locale's country, then population), as `GET /api/v2/places` answers.
 */
export interface PlaceSuggester {
  suggest(q: string, locale: LocaleCode, limit?: number): ReadonlyArray<PlaceSuggestion>
}
