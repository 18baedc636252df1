import { PlaceResolver } from "@tripsearch/core"
import { Effect, Layer } from "effect"
import { Gazetteer } from "./Gazetteer.js"

/** The `PlaceResolver` port backed by the GeoNames gazetteer. */
export class GazetteerPlaceResolver {
  /** The port over the gazetteer `get` answers at each lookup (it may load it on first use). */
  static readonly service = (get: () => Gazetteer): PlaceResolver["Type"] => ({
    resolve: (text, preferredCountry) => Effect.sync(() => get().resolve(text, preferredCountry))
  })

  /** Loads the gazetteer when the layer is built, so the first search does not pay for it. */
  static readonly layer: Layer.Layer<PlaceResolver> = Layer.sync(PlaceResolver, () => {
    const gazetteer = Gazetteer.shared()
    return GazetteerPlaceResolver.service(() => gazetteer)
  })

  /** The same port over a given gazetteer (tests, small data sets). */
  static readonly layerFrom = (gazetteer: Gazetteer): Layer.Layer<PlaceResolver> =>
    Layer.succeed(PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer))
}
