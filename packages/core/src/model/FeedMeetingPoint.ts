import { Either, type ParseResult, Schema } from "effect"
import { type FeedIssue, parseFeedObject, toFeedIssues } from "./decodeFeedTrip.js"
import { CountryCode, rule, shown, TextOfLength } from "./FeedTrip.js"

const TextOf = (min: number, max: number) => TextOfLength(min, max, `must be a string of ${min} to ${max} characters`)

export const MEETING_POINT_TAG = /^[A-Z][A-Z_]{0,39}$/
const TAGS = { message: (issue: ParseResult.ParseIssue) => `must be an array of at most 10 tags, got ${shown(issue.actual)}` }

/** One line of the meeting point feed (NDJSON): a place where drivers pick passengers up. */
export const FeedMeetingPoint = Schema.Struct({
  id: Schema.Number.pipe(Schema.int(), Schema.between(1, 2147483647)).annotations(rule("must be an integer from 1 to 2147483647")),
  status: Schema.optionalWith(Schema.Literal("active", "removed").annotations(rule("must be one of active, removed")), { default: () => "active" as const }),
  name: TextOf(1, 200),
  full_name: TextOf(1, 300),
  city: Schema.String.pipe(Schema.minLength(1)).annotations(rule("must be a non-empty string")),
  address: Schema.optional(Schema.String.annotations(rule("must be a string"))),
  lat: Schema.Number.pipe(Schema.between(-90, 90)).annotations(rule("must be a number from -90 to 90")),
  lon: Schema.Number.pipe(Schema.between(-180, 180)).annotations(rule("must be a number from -180 to 180")),
  country: CountryCode,
  tags: Schema.optionalWith(
    Schema.Array(Schema.String.pipe(Schema.pattern(MEETING_POINT_TAG)).annotations(rule("must be a word of A-Z and _, starting with a letter, at most 40 characters")))
      // On the array too, for a value that is no array at all: the rule's sentence, not Effect's words.
      .annotations(TAGS)
      .pipe(Schema.maxItems(10))
      .annotations(TAGS),
    { default: () => [] }
  )
})
export type StoredMeetingPoint = typeof FeedMeetingPoint.Type

/**
 * Brings a map of the active meeting points by id up to date with rows changed since it was read
 * (`TripStore.meetingPointsSince`): an active one is added or replaced, any other removed. A row
 * applied twice leaves the same map, so rows read again after a concurrent import do no harm.
 */
export const applyMeetingPointChanges = (byId: Map<number, StoredMeetingPoint>, changed: Iterable<StoredMeetingPoint>): void => {
  for (const mp of changed) {
    if (mp.status === "active") byId.set(mp.id, mp)
    else byId.delete(mp.id)
  }
}

const decode = Schema.decodeUnknownEither(FeedMeetingPoint, { errors: "all", onExcessProperty: "error" })

/** Parses and validates one NDJSON line of the meeting point feed. */
export const decodeMeetingPointLine = (line: string): Either.Either<StoredMeetingPoint, ReadonlyArray<FeedIssue>> =>
  Either.flatMap(parseFeedObject(line, "one meeting point"), (json) => Either.mapLeft(decode(json), (error) => toFeedIssues(error, "meeting point feed")))
