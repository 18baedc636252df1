import { FORMATS, oneOfRule } from "@tripsearch/core"

/** Response formats of the API. */
export type ResponseFormat = "json" | "xml"

export type FormatChoice =
  | { readonly _tag: "Format"; readonly format: ResponseFormat }
  | { readonly _tag: "InvalidFormat"; readonly message: string }

const XML_TYPES = new Set(["application/xml", "text/xml"])

/** The quality of each media range of an `Accept` header (malformed ranges are skipped). */
const acceptQualities = (accept: string): Map<string, number> => {
  const qualities = new Map<string, number>()
  for (const range of accept.split(",")) {
    const [type, ...params] = range.split(";").map((s) => s.trim())
    if (!type) continue
    let q = 1
    for (const param of params) {
      const m = /^q\s*=\s*([0-9.]+)$/i.exec(param)
      if (m) {
        const n = Number(m[1])
        q = Number.isFinite(n) ? Math.min(Math.max(n, 0), 1) : 0
      }
    }
    const key = type.toLowerCase()
    qualities.set(key, Math.max(qualities.get(key) ?? 0, q))
  }
  return qualities
}

/**
 * `_format` first (`json` or `xml`; anything else, or a repeated `_format`, is invalid), then the
 * `Accept` header (`application/xml` or `text/xml` preferred over `application/json` -> XML),
 * default JSON.
 */
export const negotiateFormat = (
  formatParam: string | ReadonlyArray<string> | undefined,
  accept: string | undefined
): FormatChoice => {
  if (formatParam !== undefined) {
    if (typeof formatParam !== "string") {
      return { _tag: "InvalidFormat", message: `_format: must be given once (one of ${FORMATS.join(", ")}), got it ${formatParam.length} times` }
    }
    if (formatParam === "json" || formatParam === "xml") return { _tag: "Format", format: formatParam }
    return { _tag: "InvalidFormat", message: `_format: ${oneOfRule(FORMATS, formatParam)}` }
  }
  if (accept) {
    const qualities = acceptQualities(accept)
    let xml = 0
    for (const type of XML_TYPES) xml = Math.max(xml, qualities.get(type) ?? 0)
    const json = qualities.get("application/json") ?? 0
    if (xml > 0 && xml > json) return { _tag: "Format", format: "xml" }
  }
  return { _tag: "Format", format: "json" }
}
