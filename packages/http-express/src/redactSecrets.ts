import { stripKey } from "./parseQuery.js"

/** What replaces the value of a parameter that looks like a secret, in logs and links. */
export const REDACTED = "REDACTED"

// Matched inside the name once it is reduced to lower-case letters and digits, so that `api_key`,
// `X-Api-Key`, `apiKey`, `key%20`, `ＫＥＹ` and `access_token` all hit; up to two stray characters
// may sit between the letters (`kéey`, `secr-et`). Over-redacting an unknown parameter costs
// nothing (the search ignores it); a missed one leaks a partner's key into a file that is shipped
// around for replays. No parameter of the API matches (a test checks it).
const SECRET_WORDS = new RegExp(
  ["key", "token", "secret", "passw", "pwd", "auth", "credential", "signature", "session", "bearer", "jwt"]
    .map((word) => word.split("").join(".{0,2}"))
    .join("|")
)

/**
 * Percent-decodes what can be decoded, as many times as it changes (a doubly encoded `k%2565y` is
 * still `key` to a careless client), keeping malformed sequences and invalid UTF-8 as their bytes
 * in Latin-1: a name the query parser refuses must still be recognised.
 */
const lenientDecode = (raw: string): string => {
  let text = raw.replace(/\+/g, " ")
  for (let round = 0; round < 3 && text.includes("%"); round++) {
    let next: string
    try {
      next = decodeURIComponent(text)
    } catch {
      next = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    }
    if (next === text) break
    text = next
  }
  return text
}

/**
 * Whether a parameter name, decoded, trimmed and lower-cased, looks like it carries a key or a
 * token. Compatibility forms (full-width letters, the Kelvin sign) and accents fold to ASCII, and
 * everything but letters and digits is ignored (`k e-y`, `key\u0000`).
 */
export const isSecretName = (rawName: string): boolean => {
  const folded = lenientDecode(rawName)
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "")
  return SECRET_WORDS.test(folded)
}

/**
 * Whether a name or value has the shape of the keys the store issues (32 base64url characters,
 * `createKey`): a key pasted under a wrong name, or with none (`?3E6kaOtW…&locale=…`), is
 * redacted as well. An API value of that exact shape (a 32-letter city name with no space) is
 * redacted too: the lesser harm.
 */
const KEY_SHAPE = /^[A-Za-z0-9_-]{32}$/
const hasKeyShape = (raw: string): boolean => raw.length >= 32 && KEY_SHAPE.test(lenientDecode(raw).trim())

/**
 * Replaces the value of every `name=value` (or `name:value`) pair whose name looks like a secret,
 * the pairs being separated by any character of `separators`; with `byShape`, also every name and
 * value shaped like a key. The rest keeps its bytes and order.
 */
const redactPairs = (text: string, separators: RegExp, byShape: boolean): string => {
  const parts = text.split(separators)
  // `split` with a capturing group keeps the separators at the odd indexes.
  for (let i = 0; i < parts.length; i += 2) {
    const part = parts[i]!
    const eq = part.indexOf("=")
    const at = eq !== -1 ? eq : part.indexOf(":")
    if (at === -1) {
      if (byShape && hasKeyShape(part)) parts[i] = REDACTED
      continue
    }
    const name = byShape && hasKeyShape(part.slice(0, at)) ? REDACTED : part.slice(0, at)
    const value = part.slice(at + 1)
    const secret = value !== "" && value !== REDACTED && (isSecretName(name) || (byShape && hasKeyShape(value)))
    parts[i] = `${name}${part[at]}${secret ? REDACTED : value}`
  }
  return parts.join("")
}

/**
 * The query string as logs and links may hold it: without the `key` parameter (the replay tool and
 * links need none; `stripKey`), and with the value of every other parameter whose name looks like a
 * key or a token (`Key`, `api_key`, `key%20`, `access_token`, `secret`...) replaced by `REDACTED`,
 * `;` counting as a separator as well as `&` (`locale=fr_FR;key=...`); any name or value shaped
 * like a key is replaced too. Names stay, so a repeated parameter is still repeated and a replay
 * gets the same answer.
 */
export const redactQuery = (queryString: string | null | undefined): string => redactPairs(stripKey(queryString), /([&;])/, true)

/**
 * The path as logs may hold it: a `name=value` pair inside it (`/api/v2/trips&key=...`, a `?`
 * typed as `&`; `/api/v2/trips;api_key=...`) has its value redacted as in a query string. A
 * segment shaped like a key is kept: a trip id may have that shape.
 */
export const redactPath = (path: string): string => (path.includes("=") || path.includes(":") ? redactPairs(path, /([/&;])/, false) : path)
