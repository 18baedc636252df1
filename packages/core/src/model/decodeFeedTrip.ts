import { Either, ParseResult, Schema } from "effect"
import { FeedTrip } from "./FeedTrip.js"

/** One problem of a feed line: the field path (`waypoints[2].lat`, or `(line)`) and the reason. */
export interface FeedIssue {
  readonly field: string
  readonly reason: string
}

const decode = Schema.decodeUnknownEither(FeedTrip, { errors: "all", onExcessProperty: "error" })

export const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`), "") ||
  "(line)"

/** Parses and validates one NDJSON line of the trip feed. */
export const decodeFeedLine = (line: string): Either.Either<FeedTrip, ReadonlyArray<FeedIssue>> => {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (e) {
    return Either.left([{ field: "(line)", reason: `not valid JSON: ${(e as Error).message}` }])
  }
  return decode(json).pipe(
    Either.mapLeft((error) =>
      ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
        field: formatPath(issue.path),
        reason: issue._tag === "Unexpected" ? "unknown field" : issue.message
      }))
    )
  )
}

export const encodeFeedTrip = Schema.encodeSync(FeedTrip)
