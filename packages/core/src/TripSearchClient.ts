import { Cause, type Effect, Exit, type Layer, ManagedRuntime } from "effect"
import type { PlaceResolver } from "./ports/PlaceResolver.js"
import type { TripMatcher } from "./ports/TripMatcher.js"
import type { TripStore } from "./ports/TripStore.js"
import type { JsonObject, RawParams } from "./RequestContext.js"
import { suggestPlaces } from "./Places.js"
import { tripDetails, tripThreads } from "./TripDetails.js"
import { searchTrips } from "./TripSearch.js"

export interface TripSearchClientOptions {
  /** Base URL written into `_self` links (default `http://localhost`). */
  readonly apiBaseUrl?: string
  /** Base URL written into `_front` links (default `https://www.tripsearch.example`). */
  readonly websiteBaseUrl?: string
}

// The core has no URLSearchParams (no DOM or node types): encode by hand, keys never included.
const queryString = (params: RawParams): string =>
  Object.entries(params)
    .filter(([k, v]) => v !== undefined && k !== "key")
    .flatMap(([k, v]) => (typeof v === "string" ? [v] : v!).map((one) => `${encodeURIComponent(k)}=${encodeURIComponent(one)}`))
    .join("&")

/**
 * The search as a Promise API, for code that does not use Effect. Calls resolve with the same
 * JSON the HTTP API returns and reject with the core's tagged errors (`InvalidParameter`,
 * `PlaceNotFound`, `TripNotFound`, `ServiceOverloaded`), which are `Error`s with a `_tag`.
 */
export class TripSearchClient {
  private constructor(
    private readonly runtime: ManagedRuntime.ManagedRuntime<TripStore | PlaceResolver | TripMatcher, unknown>,
    private readonly options: Required<TripSearchClientOptions>
  ) {}

  /** Builds the layers once (loading the index); call `close()` to release them. */
  static async make(
    layer: Layer.Layer<TripStore | PlaceResolver | TripMatcher, unknown>,
    options: TripSearchClientOptions = {}
  ): Promise<TripSearchClient> {
    const runtime = ManagedRuntime.make(layer)
    await runtime.runtime()
    return new TripSearchClient(runtime, {
      apiBaseUrl: options.apiBaseUrl ?? "http://localhost",
      websiteBaseUrl: options.websiteBaseUrl ?? "https://www.tripsearch.example"
    })
  }

  /** Rejects with the failure itself (the tagged error), not Effect's FiberFailure wrapper. */
  private async run<A, E>(effect: Effect.Effect<A, E, TripStore | PlaceResolver | TripMatcher>): Promise<A> {
    const exit = await this.runtime.runPromiseExit(effect)
    if (Exit.isSuccess(exit)) return exit.value
    throw Cause.squash(exit.cause)
  }

  private context(path: string, params: RawParams) {
    return { ...this.options, path, query: queryString(params) }
  }

  /** `GET /api/v2/trips` with these parameters. */
  search(params: RawParams = {}): Promise<JsonObject> {
    return this.run(searchTrips(params, this.context("/api/v2/trips", params)))
  }

  /** `GET /api/v2/trips/{id}`. Without parameters, rejects as the API answers one without `locale`. */
  details(id: string, params: RawParams = {}): Promise<JsonObject> {
    return this.run(tripDetails(id, params, this.context(`/api/v2/trips/${encodeURIComponent(id)}`, params)))
  }

  /** `GET /api/v2/trips/{id}/threads`. */
  threads(id: string, params: RawParams = {}): Promise<JsonObject> {
    return this.run(tripThreads(id, params, this.context(`/api/v2/trips/${encodeURIComponent(id)}/threads`, params)))
  }

  /** `GET /api/v2/places`: cities for a typed name, from the layer's `PlaceNames` (none without one). */
  places(params: RawParams = {}): Promise<JsonObject> {
    return this.run(suggestPlaces(params, this.context("/api/v2/places", params)))
  }

  close(): Promise<void> {
    return this.runtime.dispose()
  }
}
