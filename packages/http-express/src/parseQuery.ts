/** Parsed query parameters: a repeated parameter becomes an array, so the core can reject it. */
export type ParsedQuery = Record<string, string | Array<string>>

/** A query string whose percent-encoding (or UTF-8) is broken: answered 400, never 500. */
export class MalformedQuery extends Error {
  constructor(readonly parameter: string) {
    super(`${parameter}: malformed percent-encoding in the query string`)
    this.name = "MalformedQuery"
  }
}

const decodeComponent = (raw: string): string => decodeURIComponent(raw.replace(/\+/g, " "))

/** The parameter's name as far as it can be read, for error messages (never a value). */
const readableName = (rawName: string): string => {
  try {
    return decodeComponent(rawName)
  } catch {
    return rawName.replace(/[^A-Za-z0-9_.-]/g, "?")
  }
}

/**
 * `application/x-www-form-urlencoded` parsing with `URLSearchParams` semantics (`+` is a space,
 * `&`-separated, first `=` splits name and value, empty pairs skipped), except that a malformed
 * `%` sequence or invalid UTF-8 throws `MalformedQuery` instead of being replaced silently.
 */
export const parseQuery = (queryString: string | null | undefined): ParsedQuery => {
  const result: ParsedQuery = Object.create(null) as ParsedQuery
  if (!queryString) return result
  for (const part of queryString.split("&")) {
    if (part === "") continue
    const eq = part.indexOf("=")
    const rawName = eq === -1 ? part : part.slice(0, eq)
    const rawValue = eq === -1 ? "" : part.slice(eq + 1)
    let name: string
    let value: string
    try {
      name = decodeComponent(rawName)
      value = decodeComponent(rawValue)
    } catch {
      throw new MalformedQuery(readableName(rawName))
    }
    const previous = result[name]
    if (previous === undefined) result[name] = value
    else if (Array.isArray(previous)) previous.push(value)
    else result[name] = [previous, value]
  }
  return result
}

/**
 * The query string as asked, without its `key` parameter(s): what links (`_self`), logs and the
 * query log see. Other parameters keep their original encoding and order.
 */
export const stripKey = (queryString: string | null | undefined): string => {
  if (!queryString) return ""
  return queryString
    .split("&")
    .filter((part) => {
      if (part === "") return false
      const eq = part.indexOf("=")
      const rawName = eq === -1 ? part : part.slice(0, eq)
      try {
        return decodeComponent(rawName) !== "key"
      } catch {
        return true
      }
    })
    .join("&")
}
