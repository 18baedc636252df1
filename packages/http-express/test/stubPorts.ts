import { DEFAULT_RATES, PlaceResolver, TripMatcher, TripStore } from "@tripsearch/core"
import { Effect, Layer, Option } from "effect"

/**
 * The ports an app's runtime needs but these tests' fake use-cases never call: an empty store at
 * change sequence `seq`, a resolver that knows no place, a matcher that must not run.
 */
export const stubPorts = (seq: number) =>
  Layer.mergeAll(
    Layer.succeed(TripStore, {
      getTrip: () => Effect.succeed(Option.none()),
      getTrips: () => Effect.succeed(new Map()),
      scanIndex: () => Effect.succeed(0),
      identity: Effect.succeed("test"),
      changesSince: () => Effect.succeed({ seq, upserts: [], removed: [] }),
      rates: Effect.succeed(DEFAULT_RATES),
      meetingPoints: () => Effect.succeed(new Map()),
      meetingPointsVersion: Effect.succeed("0"),
      meetingPointsSince: () => Effect.succeed([])
    }),
    Layer.succeed(PlaceResolver, { resolve: () => Effect.succeed(Option.none()) }),
    Layer.succeed(TripMatcher, { match: () => Effect.dieMessage("no matcher in this test") })
  )
