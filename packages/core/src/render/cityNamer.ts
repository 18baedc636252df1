import type { LocaleInfo } from "../model/Locale.js"
import type { PlaceNames } from "../ports/PlaceNames.js"
import type { CityNamer } from "./renderParts.js"

/** The waypoints' `city_name` in the locale, through the `PlaceNames` port. */
export const cityNamer =
  (names: PlaceNames["Type"], locale: LocaleInfo): CityNamer =>
  (w) =>
    names.cityName(w.city, w.country, w.lat, w.lon, locale.locale)
