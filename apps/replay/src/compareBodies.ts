/**
 * Body comparison for `--compare`. Two targets may legitimately differ only in the base URLs they
 * were configured with, so before comparing:
 * - the scheme and host (`http://host:port`) of every `_self`, `_front` and `_threads` link, and of
 *   an error's `support-link`, are removed (the path and query stay compared);
 * - the request id quoted by a 500 message (`quote request id …`) is replaced by `<request-id>`.
 * Everything else must be equal: same keys in the same order, same values and types.
 */

/** Link fields whose scheme and host are the target's configuration, not the answer. */
export const LINK_FIELDS: ReadonlySet<string> = new Set(["_self", "_front", "_threads", "support-link"])

const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i
const REQUEST_ID = /(quote request id )\S+( to the support)/

/** A JSON value with link hosts and request ids normalised (a new value; the input is not changed). */
export const normalizeJson = (value: unknown, key?: string): unknown => {
  if (Array.isArray(value)) return value.map((v) => normalizeJson(v))
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = normalizeJson(v, k)
    return out
  }
  if (typeof value === "string" && key !== undefined) {
    if (LINK_FIELDS.has(key)) return value.replace(ORIGIN, "")
    if (key === "message") return value.replace(REQUEST_ID, "$1<request-id>$2")
  }
  return value
}

/** The same normalisation on an XML body (element text of the link elements). */
export const normalizeXml = (xml: string): string =>
  xml
    .replace(/<(_self|_front|_threads|support-link)>[a-z][a-z0-9+.-]*:\/\/[^/?#<]*/gi, "<$1>")
    .replace(/(quote request id )[^<\s]+( to the support)/g, "$1<request-id>$2")

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `trips[3].price.value`; keys that are not identifiers are quoted: `error["support-link"]`. */
export const joinPath = (base: string, segment: string | number): string => {
  if (typeof segment === "number") return `${base}[${segment}]`
  if (IDENTIFIER.test(segment)) return base === "" ? segment : `${base}.${segment}`
  return `${base}[${JSON.stringify(segment)}]`
}

export interface BodyDifference {
  /** The first differing JSON path (`""`: the whole body). */
  readonly path: string
  /** What differs there, e.g. `12.5 != 13` or `key "savings" only in B`. */
  readonly detail: string
}

const typeName = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v)

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/**
 * The first difference between two JSON values, depth first in document order, or `undefined`
 * when they are equal. Key order counts (the response order is part of the contract).
 */
export const firstJsonDifference = (a: unknown, b: unknown, path = ""): BodyDifference | undefined => {
  if (typeName(a) !== typeName(b)) return { path, detail: `${typeName(a)} ${show(a)} != ${typeName(b)} ${show(b)}` }
  if (Array.isArray(a)) {
    const bb = b as ReadonlyArray<unknown>
    const n = Math.min(a.length, bb.length)
    for (let i = 0; i < n; i++) {
      const d = firstJsonDifference(a[i], bb[i], joinPath(path, i))
      if (d !== undefined) return d
    }
    if (a.length !== bb.length) {
      return { path: joinPath(path, n), detail: `array length ${a.length} != ${bb.length}` }
    }
    return undefined
  }
  if (typeof a === "object" && a !== null) {
    const ao = a as Record<string, unknown>
    const bo = b as Record<string, unknown>
    const ak = Object.keys(ao)
    const bk = Object.keys(bo)
    const bSet = new Set(bk)
    const aSet = new Set(ak)
    for (const k of ak) if (!bSet.has(k)) return { path: joinPath(path, k), detail: `only in A (${show(ao[k])})` }
    for (const k of bk) if (!aSet.has(k)) return { path: joinPath(path, k), detail: `only in B (${show(bo[k])})` }
    for (const k of ak) {
      const d = firstJsonDifference(ao[k], bo[k], joinPath(path, k))
      if (d !== undefined) return d
    }
    for (let i = 0; i < ak.length; i++) {
      if (ak[i] !== bk[i]) return { path, detail: `key order differs: ${ak.join(",")} != ${bk.join(",")}` }
    }
    return undefined
  }
  if (Object.is(a, b) || a === b) return undefined
  return { path, detail: `${show(a)} != ${show(b)}` }
}

/**
 * Element path (`response.trips.trip[2].price.value`) of the element open at `offset` of an XML
 * text; `name[k]` is the (k+1)-th sibling of that name, the first one is plain `name`.
 */
export const xmlPathAt = (xml: string, offset: number): string => {
  const stack: Array<{ name: string; counts: Map<string, number> }> = [{ name: "", counts: new Map() }]
  const path: Array<string> = []
  const tag = /<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>|<\?[^>]*\?>/g
  let m: RegExpExecArray | null
  while ((m = tag.exec(xml)) !== null && m.index < offset) {
    if (m[2] === undefined) continue
    if (m[1] === "/") {
      stack.pop()
      path.pop()
    } else {
      const parent = stack[stack.length - 1]!
      const seen = parent.counts.get(m[2]) ?? 0
      parent.counts.set(m[2], seen + 1)
      if (m[3] === "/") continue
      stack.push({ name: m[2], counts: new Map() })
      // The first `trip` sibling is `trip`, the next ones `trip[1]`, `trip[2]`...
      path.push(seen > 0 ? `${m[2]}[${seen}]` : m[2])
    }
  }
  return path.join(".")
}

/** The first difference of two XML bodies (after normalisation), named by its element path. */
export const firstXmlDifference = (a: string, b: string): BodyDifference | undefined => {
  if (a === b) return undefined
  let i = 0
  const n = Math.min(a.length, b.length)
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++
  const context = (s: string) => show(s.slice(i, i + 40))
  return { path: xmlPathAt(a, i), detail: `text differs at offset ${i}: ${context(a)} != ${context(b)}` }
}

/** An answer as the comparison sees it. */
export interface ComparableAnswer {
  readonly status: number
  readonly format: "json" | "xml" | "other"
  readonly body: string
}

export type AnswerComparison =
  | { readonly _tag: "Same" }
  | { readonly _tag: "Different"; readonly status: readonly [number, number] | undefined; readonly body: BodyDifference | undefined }
  /** One side answered XML and the other JSON (targets of different versions): status compared only. */
  | { readonly _tag: "FormatsDiffer"; readonly status: readonly [number, number] | undefined }

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** Compares two answers to one query: status, then body (JSON paths, or XML element paths). */
export const compareAnswers = (a: ComparableAnswer, b: ComparableAnswer): AnswerComparison => {
  const status = a.status === b.status ? undefined : ([a.status, b.status] as const)
  if (a.format !== b.format && (a.format === "xml" || b.format === "xml")) {
    return status === undefined ? { _tag: "FormatsDiffer", status } : { _tag: "Different", status, body: undefined }
  }
  let body: BodyDifference | undefined
  if (a.format === "xml") {
    body = firstXmlDifference(normalizeXml(a.body), normalizeXml(b.body))
  } else {
    const pa = parse(a.body)
    const pb = parse(b.body)
    if (pa.ok && pb.ok) body = firstJsonDifference(normalizeJson(pa.value), normalizeJson(pb.value))
    else if (a.body !== b.body) body = { path: "", detail: `bodies differ and ${pa.ok ? "B" : "A"} is not JSON` }
  }
  return status === undefined && body === undefined ? { _tag: "Same" } : { _tag: "Different", status, body }
}
