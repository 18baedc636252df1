/**
 * Which web pages may read the API's answers: `"*"` (any origin: the API holds no cookies and a
 * browser must send the key itself), or a list of origins (`https://app.example.com`).
 */
export type CorsOrigins = "*" | ReadonlyArray<string>

/** Response headers a page's script may read besides the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = "X-RateLimit-Limit-day, X-RateLimit-Remaining-day, X-Request-Id, Retry-After"

/**
 * What a preflight is told: the methods, the request headers a page may send (`key` is why a
 * browser preflights at all), and how long it may cache that (7,200 s, Chromium's upper bound;
 * the answer is the same for every resource).
 */
export const CORS_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Methods": "GET, HEAD",
  "Access-Control-Allow-Headers": "Key, Accept, X-Request-Id",
  "Access-Control-Max-Age": "7200"
}

/**
 * The CORS headers of any answer to a request carrying `origin`: with `"*"`, `*` for everyone;
 * with a list, the origin echoed when it is listed, nothing otherwise (the browser then keeps the
 * answer from the page). The caller adds `Vary: Origin` with a list, since the answer depends on it.
 */
export const corsHeaders = (origin: string | undefined, origins: CorsOrigins): Record<string, string> => {
  if (origins === "*") return { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS }
  if (origin === undefined || !origins.includes(origin)) return {}
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS }
}

/** The `Vary` header of every answer: the format, the compression and, with a list, the origin. */
export const varyHeader = (origins: CorsOrigins): string => (origins === "*" ? "Accept, Accept-Encoding" : "Accept, Accept-Encoding, Origin")
