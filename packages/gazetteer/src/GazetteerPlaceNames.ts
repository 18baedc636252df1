import { PlaceNames } from "@tripsearch/core"
import { Layer } from "effect"
import { Gazetteer } from "./Gazetteer.js"

/** The `PlaceNames` port backed by the GeoNames gazetteer and its translations. */
export class GazetteerPlaceNames {
  /** The port over the gazetteer `get` answers at each call (it may load it on first use). */
  static readonly service = (get: () => Gazetteer): PlaceNames["Type"] => ({
    cityName: (text, country, lat, lon, locale) => get().localCityName(text, country, lat, lon, locale),
    suggest: (q, locale, limit) => get().suggest(q, locale, limit)
  })

  /** Loads the gazetteer and its suggestion index when the layer is built, not at the first request. */
  static readonly layer: Layer.Layer<PlaceNames> = Layer.sync(PlaceNames, () => {
    const gazetteer = Gazetteer.shared()
    gazetteer.prepareSuggestions()
    return GazetteerPlaceNames.service(() => gazetteer)
  })

  /** The same port over a given gazetteer (tests, small data sets). */
  static readonly layerFrom = (gazetteer: Gazetteer): Layer.Layer<PlaceNames> => Layer.succeed(PlaceNames, GazetteerPlaceNames.service(() => gazetteer))
}
