import { Context, type Effect, type Option } from "effect"

export interface ResolvedPlace {
  readonly name: string
  readonly country: string
  readonly lat: number
  readonly lon: number
}

/** The gazetteer: place names (`fn`/`tn`) to coordinates, as docs/API.md says of `fn`. */
export class PlaceResolver extends Context.Tag("@tripsearch/core/ports/PlaceResolver")<
  PlaceResolver,
  {
    /** `preferredCountry` (the locale's) breaks ties between equal names before population. */
    readonly resolve: (text: string, preferredCountry: string) => Effect.Effect<Option.Option<ResolvedPlace>>
  }
>() {}
