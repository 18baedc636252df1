import { Either, ParseResult } from "effect"
import { InvalidParameter } from "../errors.js"
import type { RawParams } from "../RequestContext.js"

/**
 * One string per parameter: a repeated parameter is a 400; an empty value of an optional
 * parameter counts as absent (`fn=&tn=Lyon`), except for the names in `keepEmpty`.
 */
export const paramValues = (params: RawParams, keepEmpty: ReadonlyArray<string>): Either.Either<Record<string, string>, InvalidParameter> => {
  const single: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue
    if (typeof value !== "string" && value.length > 1) {
      return Either.left(new InvalidParameter({ parameter: name, message: `${name}: must be given once, got it ${value.length} times` }))
    }
    const v = typeof value === "string" ? value : value[0]
    if (v === undefined || (v === "" && !keepEmpty.includes(name))) continue
    single[name] = v
  }
  return Either.right(single)
}

/** The first decoding issue as the 400 naming its parameter and rule. */
export const toInvalidParameter = (error: ParseResult.ParseError): InvalidParameter => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]!
  const parameter = String(issue.path[0] ?? "query")
  const missing = issue._tag === "Missing"
  return new InvalidParameter({ parameter, missing, message: missing ? `${parameter}: is required` : `${parameter}: ${issue.message}` })
}
