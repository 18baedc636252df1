/**
 * Parameters that shape the API's answer rather than the search: a website address has no use
 * for them, and `key` must never leave the service (docs/API.md, Keys, quotas and caching).
 */
const NOT_ON_THE_WEBSITE = new Set(["_format", "fields", "key"])

const nameOf = (part: string): string | undefined => {
  const eq = part.indexOf("=")
  try {
    return decodeURIComponent((eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, " "))
  } catch {
    return undefined
  }
}

/**
 * The query of a search's `_front` link: the query as asked, without `_format`, `fields` and
 * `key` (however their names are encoded); the other parameters keep their encoding and order.
 */
export const frontQuery = (query: string): string =>
  query
    .split("&")
    .filter((part) => {
      if (part === "") return false
      const name = nameOf(part)
      return name === undefined || !NOT_ON_THE_WEBSITE.has(name)
    })
    .join("&")
