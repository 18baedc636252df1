import { Either, ParseResult, Schema } from "effect"
import { loneSurrogateAt } from "./feedRules.js"
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

// An optional field given a bad value also fails the `undefined` member of its union; that issue
// says nothing the field's own rule does not.
const OPTIONAL_MEMBER = /^Expected undefined, actual /

const isWithin = (path: string, field: string): boolean =>
  path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`)

const reasonOf = (issue: ParseResult.ArrayFormatterIssue, feed: string): string =>
  issue._tag === "Missing" ? "is required" : issue._tag === "Unexpected" ? `is not a field of the ${feed}` : issue.message

/**
 * Effect's issues as one sentence per field: every field of `FeedTrip` (and `FeedMeetingPoint`)
 * states its rule (`must be ..., got ...`); this drops the optional members' echo and keeps one
 * reason per field.
 */
export const toFeedIssues = (error: ParseResult.ParseError, feed = "trip feed"): ReadonlyArray<FeedIssue> => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const byField = new Map<string, string>()
  for (const issue of issues) {
    const field = formatPath(issue.path)
    const covered = issues.some((other) => other !== issue && isWithin(formatPath(other.path), field))
    if (OPTIONAL_MEMBER.test(issue.message) && covered) continue
    if (!byField.has(field)) byField.set(field, reasonOf(issue, feed))
  }
  return [...byField].map(([field, reason]) => ({ field, reason }))
}

/**
 * `text` with control and invisible characters written as `\uXXXX`: a message quotes what it was
 * given, and a NUL (a UTF-16 file) or a byte order mark in the middle of a file quoted raw reads as
 * nothing, or worse, on a terminal.
 */
const visible = (text: string): string =>
  text.replace(/[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028\u2029\u2060\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`)

/** One NDJSON line of a feed as a JSON object, or the issue of the whole line (`what` one line holds). */
export const parseFeedObject = (line: string, what: string): Either.Either<object, ReadonlyArray<FeedIssue>> => {
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch (e) {
    // The parser's own words say where the text breaks; the text they quote is made visible.
    const detail = visible((e as Error).message)
    // A file whose lines end in CR alone reads as one line of several objects.
    const hint = /\r(?!\n|$)/.test(line) ? "; the line holds a carriage return: lines end in LF or CRLF, not CR alone" : ""
    return Either.left([{ field: "(line)", reason: `must be valid JSON (${detail.charAt(0).toLowerCase()}${detail.slice(1)}${hint})` }])
  }
  // Checked here: Effect's issue for the whole line names the struct's encoded side, not a rule.
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    const got = Array.isArray(json) ? "an array" : JSON.stringify(json)
    return Either.left([{ field: "(line)", reason: `must be a JSON object (${what}), got ${got}` }])
  }
  // Only an escape (\uD800) can write half of a UTF-16 pair in UTF-8 text.
  const lone = line.includes("\\u") ? loneSurrogateAt(json) : undefined
  if (lone !== undefined) return Either.left([{ field: formatPath(lone), reason: "must be Unicode text, got half of a UTF-16 surrogate pair (a \\uD800-\\uDFFF escape alone)" }])
  return Either.right(json)
}

/** Parses and validates one NDJSON line of the trip feed. */
export const decodeFeedLine = (line: string): Either.Either<FeedTrip, ReadonlyArray<FeedIssue>> =>
  Either.flatMap(parseFeedObject(line, "one trip"), (json) => Either.mapLeft(decode(json), (error) => toFeedIssues(error)))

export const encodeFeedTrip = Schema.encodeSync(FeedTrip)
