import { Context } from "effect"
import type { LocaleCode } from "../model/Locale.js"

/** One city of a `suggest` answer (`GET /api/v2/places`). */
export interface PlaceSuggestion {
  /** GeoNames id. */
  readonly id: number
  /** The locale's name of the city, else its GeoNames name. */
  readonly name: string
  readonly countryCode: string
  readonly lat: number
  readonly lon: number
  readonly population: number
  /**
   * When another city of the same answer has the same name and country: the nearest larger town
   * of that country, named in the locale, so that the two read differently.
   */
  readonly near?: string | undefined
}

/**
 * City names in the traveller's language (docs/API.md, Place names), and suggestions for what a
 * traveller types. Both are synchronous: a search renders every shown place through `cityName`.
 * Without a gazetteer the default shows every place as the feed wrote it and suggests nothing.
 */
export class PlaceNames extends Context.Reference<PlaceNames>()("@tripsearch/core/ports/PlaceNames", {
  defaultValue: (): {
    /** The `city_name` of a place of a trip: its city's name in `locale`, else `text` as written. */
    readonly cityName: (text: string, country: string, lat: number, lon: number, locale: LocaleCode) => string
    /** The best `limit` cities for a prefix or a whole name in any language, best first. */
    readonly suggest: (q: string, locale: LocaleCode, limit: number) => ReadonlyArray<PlaceSuggestion>
  } => ({
    cityName: (text) => text,
    suggest: () => []
  })
}) {}
