import { describe, expect, it } from "vitest"
import { isSecretName, openApiDocument, parseQuery, REDACTED, redactPath, redactQuery } from "../src/index.js"

const SECRET = "S3cr3tValue_0123456789abcdefghij"

describe("redactQuery", () => {
  it("redacts every spelling of a key or token parameter, keeping the other parameters byte for byte", () => {
    const names = [
      "Key", "KEY", "kEy", "api_key", "apikey", "apiKey", "API-KEY", "x-api-key", "key%20", "%20key", "key+", "+key", "k%65y%20",
      "%4B%45%59", "k%2565y", "%EF%BC%AB%EF%BC%A5%EF%BC%B9", "k%C3%A9y", "ke%00y", "access_token", "accessToken", "token", "refresh_token",
      "secret", "client_secret", "password", "passwd", "pwd", "auth", "Authorization", "credentials", "signature", "session", "bearer",
      "jwt", "key%", "key%zz", "key%C3", "keys", "monkey", "key[]", "key.0", "?key", "K%C3%A9ey", "k'%C3%AFPey", "secr-et", "accessT%C3%BFoken"
    ]
    for (const name of names) {
      const query = `locale=fr_FR&${name}=${SECRET}&fn=Saint%20%C3%89tienne&cur=EUR`
      const redacted = redactQuery(query)
      expect(redacted, name).not.toContain(SECRET)
      expect(redacted, name).toBe(`locale=fr_FR&${name}=${REDACTED}&fn=Saint%20%C3%89tienne&cur=EUR`)
    }
  })

  it("drops `key` itself, as the replay tool and links expect, and redacts pairs after a `;`", () => {
    expect(redactQuery(`key=${SECRET}&locale=fr_FR&%6Bey=${SECRET}`)).toBe("locale=fr_FR")
    expect(redactQuery(`locale=fr_FR;key=${SECRET};cur=EUR&fn=Paris`)).toBe(`locale=fr_FR;key=${REDACTED};cur=EUR&fn=Paris`)
    expect(redactQuery(`locale=fr_FR&token:${SECRET}`)).toBe(`locale=fr_FR&token:${REDACTED}`)
  })

  it("redacts a name or value shaped like a key (32 base64url characters), whatever the name", () => {
    expect(redactQuery(`locale=fr_FR&${SECRET}&fn=Paris`)).toBe(`locale=fr_FR&${REDACTED}&fn=Paris`)
    expect(redactQuery(`locale=fr_FR&fn=${SECRET}`)).toBe(`locale=fr_FR&fn=${REDACTED}`)
    expect(redactQuery(`%EF%BF%BD%BC=${SECRET}&${SECRET}=1`)).toBe(`%EF%BF%BD%BC=${REDACTED}&${REDACTED}=1`)
    expect(redactQuery(`fn=${SECRET.slice(1)}&tn=${SECRET}x`)).toBe(`fn=${SECRET.slice(1)}&tn=${SECRET}x`)
  })

  it("keeps repeats and empty values, so that a replay of the redacted query gets the same answer", () => {
    const redacted = redactQuery(`api_key=${SECRET}&api_key=other&Key=&token`)
    expect(redacted).toBe(`api_key=${REDACTED}&api_key=${REDACTED}&Key=&token`)
    expect(parseQuery(redacted).api_key).toEqual([REDACTED, REDACTED])
  })

  it("never touches a parameter of the API", () => {
    const document = JSON.parse(JSON.stringify(openApiDocument("http://localhost:3000"))) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>
    }
    const names = Object.values(document.paths)
      .flatMap((operations) => Object.values(operations).flatMap((op) => op.parameters ?? []))
      .filter((p) => p.in === "query" && p.name !== "key")
      .map((p) => p.name)
    expect(names.length).toBeGreaterThan(20)
    for (const name of names) expect(isSecretName(name), name).toBe(false)
    const query = "locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon&db=2026-11-23%2010:00:00&fields=trips.price,pager&radius_from=10"
    expect(redactQuery(query)).toBe(query)
  })
})

describe("redactPath", () => {
  it("redacts a key-like pair typed into the path, leaving ordinary paths alone", () => {
    expect(redactPath(`/api/v2/trips&key=${SECRET}&locale=fr_FR`)).toBe(`/api/v2/trips&key=${REDACTED}&locale=fr_FR`)
    expect(redactPath(`/api/v2/trips;api_key=${SECRET}`)).toBe(`/api/v2/trips;api_key=${REDACTED}`)
    expect(redactPath(`/api/v2/trips/token:${SECRET}/threads`)).toBe(`/api/v2/trips/token:${REDACTED}/threads`)
    expect(redactPath("/api/v2/trips/1589897179-paris-lyon_0_2")).toBe("/api/v2/trips/1589897179-paris-lyon_0_2")
    expect(redactPath("/api/v2/trips/a=b")).toBe("/api/v2/trips/a=b")
  })
})
