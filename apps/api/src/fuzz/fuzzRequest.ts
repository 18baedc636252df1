/**
 * The requests of the fuzzer (`npm run fuzz`): request `i` of seed `s` is always the same, so a
 * violation is reproduced with the same seed. Garbage in every parameter, broken percent-encodings,
 * URLs of 10 to 100 KB, big headers, odd methods and paths, and keys in many shapes.
 */

/** One request, as it goes on the wire. */
export interface FuzzRequest {
  readonly method: string
  /** The request target, bytes as they are sent (Latin-1 string: one char per byte). */
  readonly target: string
  /** Header lines in order; a name may repeat. Values are Latin-1 strings. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  /** A body (rare: a 413 or 405 is expected). */
  readonly body?: string
  /**
   * Sent on a raw socket, closed after one request: what Node's HTTP client refuses to send (bytes
   * outside `!`..`ÿ` in the target, CONNECT, header bytes it rejects, HTTP/1.0, odd framing).
   */
  readonly raw: boolean
  /** `HTTP/1.1` or `HTTP/1.0` (raw only). */
  readonly version: string
}

/** The keys a run uses: accepted ones and some the server never issued (a 403 as `key`). */
export interface FuzzKeys {
  readonly valid: ReadonlyArray<string>
  readonly invalid: ReadonlyArray<string>
}

/** A small, fast PRNG (mulberry32): deterministic per seed, good enough to pick cases. */
const mulberry32 = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

class Dice {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n)
  }
  chance(p: number): boolean {
    return this.next() < p
  }
  pick<T>(items: ReadonlyArray<T>): T {
    return items[this.int(items.length)]!
  }
  /** A random string of `length` chars drawn from `alphabet`. */
  string(alphabet: string, length: number): string {
    let s = ""
    for (let i = 0; i < length; i++) s += alphabet[this.int(alphabet.length)]
    return s
  }
}

const PARAMS = [
  "locale", "cur", "fn", "tn", "fc", "tc", "db", "de", "hb", "he", "page", "seats", "photo", "fields", "sort", "order", "limit",
  "radius", "radius_from", "radius_to", "aa", "shortlines", "pmin", "pmax", "_format", "utm_source", "callback"
]
const GOOD_VALUES = [
  "fr_FR", "EUR", "en_GB", "GBP", "de_DE", "hu_HU", "HUF", "Paris", "Lyon", "paris, fr", "München", "Berlin", "48.8566|2.3522", "45.76|4.83",
  "2026-11-23", "2026-11-23 10:00:00", "2026-11-23T10:00:00", "0", "1", "8", "23", "24", "10", "100", "500", "trip_price", "trip_date",
  "asc", "desc", "json", "xml", "trips.price,pager", "trips,seats,price", "facets"
]
const NASTY_VALUES = [
  "", " ", "-1", "1e309", "99999999999999999999999", "NaN", "Infinity", "0x10", "1.5", "+5", "|", "||", "1|", "|2", "91|0", "0|181",
  "null", "undefined", "true", "[]", "{}", "<b>&amp;</b>", "]]>", "<![CDATA[x]]>", "' OR 1=1 --", "\"", "\\", "${7*7}", "{{7*7}}",
  "..%2F..%2Fetc%2Fpasswd", "trips.", ".price", "trips.nope", "__proto__", "constructor", "toString", "2026-02-30", "2026-13-01",
  "0000-00-00", "9999-12-31 23:59:60", "de_DE\u0000", "fr_fr", "FR_FR", "eur"
]
/** Raw percent sequences, valid or not: `%`, `%z`, overlong UTF-8, a lone surrogate, a NUL. */
const PERCENT_GARBAGE = [
  "%", "%%", "%z", "%zz", "%4", "%C3", "%C3%28", "%E2%82", "%ED%A0%80", "%F4%90%80%80", "%C0%AF", "%FF", "%FE%FF", "%00", "%0A", "%0D%0A",
  "%25", "%2525", "%7C", "%26", "%3D", "%23", "%3F", "%u0041", "%%41", "%C3%A9", "%F0%9F%98%80", "+", "%2B"
]
const API_PATHS = ["/api/v2/trips", "/api/v2/trips/", "/API/V2/TRIPS", "/api/v2/Trips"]
const ODD_PATHS = [
  "/", "/api", "/api/v2", "/api/v3/trips", "//api//v2//trips", "/api/v2/trips//", "/api/v2/trips/%", "/api/v2/trips/a%2Fb", "/health",
  "/health/", "/metrics", "/api/v2/openapi.json", "/api/v2/trips/x/threads/", "/api/v2/trips//threads", "/favicon.ico", "/.env",
  "/..%2f..%2fetc/passwd", "/api/v2/trips/%00", "/api/v2/trips/%ED%A0%80", "/api/v2/trips/..", "/api/v2/trips/.%2e/.%2e", "*",
  "http://localhost/api/v2/trips", "https://evil.example/api/v2/trips", "/api/v2/trips#frag", "/api/v2/trips?", "/api/v2/trips??",
  "/api/v2/trips?&&&", "/api/v2/trips?=", "/api/v2/trips?==="
]
const METHODS = ["POST", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "PROPFIND", "QUERY", "PURGE", "BREW", "get", "Get", "M-SEARCH", "DESCRIBE"]
/** Names a partner may put a key under instead of `key`, as typed on the wire. */
export const KEY_NAMES = [
  "Key", "KEY", "kEy", "api_key", "apikey", "apiKey", "API_KEY", "api-key", "x-api-key", "key%20", "%20key", "key+", "k%65y%20", "%4B%45%59",
  "k%2565y", "%EF%BC%AB%EF%BC%A5%EF%BC%B9", "key%00", "key%", "key%zz", "access_token", "accessToken", "token", "auth_token", "secret",
  "client_secret", "password", "authorization", "?key", "key[]", "keys", "apiKey[0]"
]
const ACCEPTS = [
  "application/json", "application/xml", "text/xml", "*/*", "text/html", "application/json;q=0, application/xml", "xml", "\u00ff", ";;;", "application/*"
]
const ENCODINGS = ["gzip, br", "br", "gzip", "br;q=0.5, gzip;q=0.9", "identity", "*;q=0", "nonsense;q=x", "deflate", "gzip;q=0, br;q=0"]
const TEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~!$'()*,;:@/?"
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** A key the store never issued, in the shape of a real one (32 base64url chars). */
export const fakeKey = (seed: number, n: number): string => new Dice(mulberry32((seed * 7919 + n * 104729) ^ 0x5eed)).string(BASE64URL, 32)

/** Random text of any bytes, Latin-1: what a raw request may carry. */
const randomBytes = (d: Dice, n: number): string => {
  let s = ""
  for (let i = 0; i < n; i++) s += String.fromCharCode(d.int(256))
  return s
}

/** Percent-encodes a text's UTF-8, leaving unreserved characters (and, when `loose`, most printable ASCII) as they are. */
const encode = (text: string, loose: boolean): string => {
  if (!loose) return encodeURIComponent(text)
  let out = ""
  for (const ch of text) out += /^[\x21-\x7e]$/.test(ch) && ch !== "#" && ch !== "?" && ch !== "&" ? ch : encodeURIComponent(ch)
  return out
}

const randomValue = (d: Dice): string => {
  const r = d.next()
  if (r < 0.3) return encode(d.pick(GOOD_VALUES), d.chance(0.3))
  if (r < 0.55) return encode(d.pick(NASTY_VALUES), d.chance(0.5))
  if (r < 0.7) return d.pick(PERCENT_GARBAGE)
  if (r < 0.8) return encode(d.pick(GOOD_VALUES), false) + d.pick(PERCENT_GARBAGE)
  if (r < 0.9) return encode(d.string(TEXT, d.int(40)), d.chance(0.5))
  if (r < 0.95) return encode(String.fromCodePoint(...Array.from({ length: 1 + d.int(8) }, () => d.int(0x10ffff))).replace(/[\ud800-\udfff]/g, "x"), false)
  return encode("a".repeat(100 + d.int(4000)), false)
}

const randomName = (d: Dice): string => {
  const r = d.next()
  if (r < 0.8) return d.pick(PARAMS)
  if (r < 0.9) return encode(d.string(TEXT, 1 + d.int(12)), d.chance(0.5))
  return d.pick(PERCENT_GARBAGE) + d.pick(PARAMS)
}

/** Half valid searches (so that the fuzz reaches matching, facets and rendering), half garbage. */
const randomQuery = (d: Dice): Array<string> => {
  const parts: Array<string> = []
  if (d.chance(0.5)) {
    parts.push(d.pick(["locale=fr_FR&cur=EUR", "locale=en_GB&cur=GBP", "locale=de_DE&cur=EUR", "locale=uk_UA&cur=UAH", "locale=hu_HU&cur=HUF"]))
    parts.push(d.pick(["fn=Paris", "fn=Lyon&tn=Paris", "fc=48.8566%7C2.3522", "tc=45.76%7C4.83&radius=500", "fn=M%C3%BCnchen", "fn=Berlin", "fc=48.85|2.35&tc=45.76|4.83"]))
    for (let i = d.chance(0.5) ? 0 : 1 + d.int(3); i > 0; i--) parts.push(`${d.pick(PARAMS.slice(4))}=${encode(d.pick(GOOD_VALUES), false)}`)
    if (d.chance(0.3)) parts.push(`${randomName(d)}=${randomValue(d)}`)
  } else {
    for (let i = d.int(12); i > 0; i--) parts.push(d.chance(0.05) ? randomName(d) : `${randomName(d)}=${randomValue(d)}`)
  }
  return parts
}

const randomPath = (d: Dice): string => {
  const r = d.next()
  if (r < 0.6) return d.chance(0.9) ? "/api/v2/trips" : d.pick(API_PATHS)
  if (r < 0.72) return `/api/v2/trips/${d.chance(0.5) ? encode(d.string(TEXT, 1 + d.int(30)), false) : randomValue(d)}`
  if (r < 0.78) return `/api/v2/trips/${encode(d.string(TEXT, 1 + d.int(20)), d.chance(0.5))}/threads`
  if (r < 0.95) return d.pick(ODD_PATHS)
  return `/${encode(d.string(TEXT, d.int(60)), true)}`
}

/**
 * Request `index` of the run of `seed`. Keys go in the `key` header or parameter, under misspelled
 * names (`KEY`, `api_key`, `key%20`...), in `Authorization` and `X-Api-Key`, and typed into the path.
 */
export const fuzzRequest = (seed: number, index: number, keys: FuzzKeys): FuzzRequest => {
  const d = new Dice(mulberry32(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)))
  const anyKey = (): string => (keys.valid.length > 0 && d.chance(0.6) ? d.pick(keys.valid) : d.pick(keys.invalid))

  const m = d.next()
  let method = m < 0.8 ? "GET" : m < 0.86 ? "HEAD" : m < 0.89 ? "OPTIONS" : d.pick(METHODS)
  let path = randomPath(d)
  const query = path.includes("?") ? [] : randomQuery(d)
  const headers: Array<[string, string]> = [["Host", d.chance(0.97) ? "127.0.0.1" : d.pick(["", "evil.example", "a".repeat(300), "[::1]:99999"])]]

  // The key, in one shape or another.
  const k = d.next()
  if (k < 0.35) headers.push(["key", d.chance(0.9) && keys.valid.length > 0 ? d.pick(keys.valid) : d.pick(keys.invalid)])
  else if (k < 0.55) query.splice(d.int(query.length + 1), 0, `key=${anyKey()}`)
  else if (k < 0.7) {
    // A misspelled name, sometimes with a valid key in the header too (a 200 whose `_self` must not echo it).
    const name = d.pick(KEY_NAMES)
    query.splice(d.int(query.length + 1), 0, `${name}=${anyKey()}`)
    if (d.chance(0.3)) query.push(`${name}=${anyKey()}`)
    if (keys.valid.length > 0 && d.chance(0.5)) headers.push(["key", d.pick(keys.valid)])
  } else if (k < 0.75) {
    headers.push([d.pick(["Authorization", "X-Api-Key", "X-Auth-Token", "Cookie"]), `${d.pick(["Bearer ", "", "key="])}${anyKey()}`])
  } else if (k < 0.78) {
    path = `${path.split("?")[0]}${d.pick(["&key=", ";api_key=", "/key=", "/token:", "&Key="])}${anyKey()}`
  } else if (k < 0.8) {
    headers.push(["key", anyKey()], ["key", anyKey()])
  } else if (k < 0.82) query.push(`key=${anyKey()}`, `key=${anyKey()}`)
  else if (k < 0.84) headers.push(["key", ""])

  if (d.chance(0.3)) headers.push(["Accept", d.pick(ACCEPTS)])
  if (d.chance(0.4)) headers.push(["Accept-Encoding", d.pick(ENCODINGS)])
  if (d.chance(0.05)) headers.push(["Origin", d.pick(["https://partner.example", "null", "http://localhost:8080"])])
  if (d.chance(0.03)) headers.push(["Access-Control-Request-Method", "GET"])
  if (d.chance(0.02)) headers.push(["X-Request-Id", d.pick(["abc", "", "../../etc", "a".repeat(200), "ok-id_1"])])
  // Big headers: under and over the server's 16 KiB.
  if (d.chance(0.02)) headers.push(["X-Padding", "p".repeat(2_000 + d.int(20_000))])
  if (d.chance(0.01)) for (let i = 0; i < 50 + d.int(150); i++) headers.push([`X-H${i}`, d.string(TEXT, 50)])

  let target = query.length > 0 ? `${path}${path.includes("?") ? "&" : "?"}${query.join("&")}` : path
  // Long URLs, 10 to 100 KB.
  if (d.chance(0.03)) target += `${target.includes("?") ? "&" : "?"}pad=${"x".repeat(10_000 + d.int(90_000))}`

  let body: string | undefined
  let raw = false
  let version = "HTTP/1.1"
  if (d.chance(0.01)) {
    body = "x=1"
    headers.push(["Content-Type", "application/x-www-form-urlencoded"], ["Content-Length", "3"])
  }
  const r = d.next()
  if (r < 0.04) {
    // Bytes Node's client would refuse: spaces, controls, raw UTF-8 or any byte in the target.
    raw = true
    const at = d.int(target.length + 1)
    target = target.slice(0, at) + d.pick([" ", "\t", "\u0001", "\u007f", "Ã©", "\u00ff", randomBytes(d, 1 + d.int(6)).replace(/[\r\n]/g, "")]) + target.slice(at)
  } else if (r < 0.06) {
    raw = true
    headers.push([d.pick(["X-Bad", "key", "Accept"]), randomBytes(d, 1 + d.int(20)).replace(/[\r\n]/g, "")])
  } else if (r < 0.07) {
    raw = true
    headers.push([d.pick(["Bad Header", "X:Y", "", "(x)"]), "v"])
  } else if (r < 0.08) {
    raw = true
    version = "HTTP/1.0"
  } else if (r < 0.085) {
    raw = true
    headers.push(["Content-Length", "1"], ["Content-Length", "2"])
  } else if (r < 0.09) {
    raw = true
    headers.push(["Transfer-Encoding", "chunked"])
    body = "3\r\nx=1\r\n0\r\n\r\n"
  }
  if (method === "CONNECT" || /[^\x21-\xff]/.test(target) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method)) raw = true
  if (method === "CONNECT" && d.chance(0.5)) target = d.pick(["example.com:443", "127.0.0.1:22", "[::1]:80", ":0", "a:b:c"])
  if (raw && d.chance(0.05)) method = d.pick(["GET\u0000", "G ET", "\u0016\u0003\u0001", ""])
  return { method, target, headers, ...(body !== undefined ? { body } : {}), raw, version }
}
