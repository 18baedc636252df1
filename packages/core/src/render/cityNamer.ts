import type { LocaleInfo } from "../model/Locale.js"
import type { PlaceNames } from "../ports/PlaceNames.js"
import type { CityNamer } from "./renderParts.js"

/**
 * The waypoints' `city_name` in the locale, through the `PlaceNames` port; one namer an answer.
 * It remembers its answer for each place object it was given: an answer names a trip's waypoints
 * in its Places and again in `locations_to_display`, and a meeting point in its Place and as the
 * `departure_meeting_point`. A gazetteer lookup costs 1.5-3 µs after the matcher has walked the
 * index's columns (its maps are out of the cache by then), about 90 of them an answer on the heavy
 * mix: remembered, its whole searches were x1.02-1.04, the dense mix's x0.99 (docs/PERFORMANCE.md).
 * The gain is the meeting points that many trips of an answer share: naming each trip's waypoints
 * once instead (its Places from `locations_to_display`) measured x1.00 on the heavy mix.
 */
export const cityNamer = (names: PlaceNames["Type"], locale: LocaleInfo): CityNamer => {
  const known = new Map<object, string>()
  return (w) => {
    let name = known.get(w)
    if (name === undefined) known.set(w, (name = names.cityName(w.city, w.country, w.lat, w.lon, locale.locale)))
    return name
  }
}
