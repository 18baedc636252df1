import { Data, Schema } from "effect"

/** A query parameter that is missing, malformed or outside its rule: HTTP 400. */
export class InvalidParameter extends Schema.TaggedError<InvalidParameter>()("InvalidParameter", {
  parameter: Schema.String,
  message: Schema.String,
  missing: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** A place name (`fn`/`tn`) that the gazetteer cannot resolve: the 404 `place.not_found`. */
export class PlaceNotFound extends Schema.TaggedError<PlaceNotFound>()("PlaceNotFound", {
  parameter: Schema.String,
  text: Schema.String
}) {
  override get message() {
    return `No place matches "${this.text}" (${this.parameter})`
  }
}

/** A trip id that is unknown, cancelled or a sub-trip outside the trip: the 404 `trip.not_found`. */
export class TripNotFound extends Schema.TaggedError<TripNotFound>()("TripNotFound", {
  id: Schema.String
}) {
  override get message() {
    return `No trip with id "${this.id}"`
  }
}

/** No key in the header or the query: 401. */
export class MissingKey extends Schema.TaggedError<MissingKey>()("MissingKey", {}) {}

/** A key that is unknown or revoked: 403. */
export class InvalidKey extends Schema.TaggedError<InvalidKey>()("InvalidKey", {}) {}

/** The key's daily quota is spent: 429 until the next UTC midnight. */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  limit: Schema.Number,
  retryAfterSeconds: Schema.Number
}) {}

/** The matcher's queue is full: 503 with Retry-After. */
export class ServiceOverloaded extends Schema.TaggedError<ServiceOverloaded>()("ServiceOverloaded", {
  retryAfterSeconds: Schema.Number
}) {}

export type SearchError = InvalidParameter | PlaceNotFound | ServiceOverloaded

/** The search's expected failures as a schema: they cross a thread boundary encoded, and decode back to their classes. */
export const SearchErrorSchema = Schema.Union(InvalidParameter, PlaceNotFound, ServiceOverloaded)
export type DetailsError = InvalidParameter | TripNotFound

/**
 * The store cannot be reached (its database is down, restarting or too slow to answer). The ports
 * have no error channel, so an adapter raises it as a defect; the HTTP adapter answers it 503
 * `service.error` with `Retry-After`, where any other defect is a 500.
 */
export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{ readonly message: string }> {}

/** Whether a defect (or a failure) is a `StoreUnavailable`, whichever copy of this module made it. */
export const isStoreUnavailable = (u: unknown): u is StoreUnavailable =>
  typeof u === "object" && u !== null && (u as { readonly _tag?: unknown })._tag === "StoreUnavailable"
