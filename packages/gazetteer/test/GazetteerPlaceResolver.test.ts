import { it } from "@effect/vitest"
import { PlaceResolver } from "@tripsearch/core"
import { Effect, Option } from "effect"
import { expect } from "vitest"
import { GazetteerPlaceResolver } from "../src/GazetteerPlaceResolver.js"

it.effect("provides PlaceResolver over the GeoNames gazetteer", () =>
  Effect.gen(function* () {
    const resolver = yield* PlaceResolver
    expect(Option.getOrNull(yield* resolver.resolve("Roma", "IT"))).toMatchObject({ name: "Rome", country: "IT" })
    expect(Option.isNone(yield* resolver.resolve("Qwzxplk", "IT"))).toBe(true)
  }).pipe(Effect.provide(GazetteerPlaceResolver.layer))
)
