import { describe, expect, it } from "vitest"
import { readApiRequest } from "../src/index.js"

const read = (url: string, headers: Record<string, string> = {}, method = "GET") => readApiRequest({ method, url, headers })

describe("readApiRequest", () => {
  it("routes as Express did: case-insensitive, one optional trailing slash, the id decoded", () => {
    expect(read("/API/v2/Trips/?fn=Paris")).toMatchObject({ _tag: "UseCase", route: { _tag: "Search" }, path: "/API/v2/Trips/" })
    expect(read("/api/v2/trips/a%20b")).toMatchObject({ route: { _tag: "Details", id: "a b" } })
    expect(read("/api/v2/trips/threads")).toMatchObject({ route: { _tag: "Details", id: "threads" } })
    expect(read("/api/v2/trips/x/threads/")).toMatchObject({ route: { _tag: "Threads", id: "x" } })
    expect(read("/HEALTH/")).toEqual({ _tag: "Health", apiRequest: false })
    for (const url of ["/api/v2/trips//", "/api/v2/trips//threads", "/api/v2/trips/x/y", "/api/v2/tripsx", "/"]) {
      expect(read(url), url).toMatchObject({ _tag: "Refused", apiRequest: false, reply: { status: 404, token: "resource.not_found" } })
    }
  })

  it("refuses in the server's order, in the best format it can tell", () => {
    const long = `/api/v2/trips?fn=${"a".repeat(9000)}`
    expect(read(long, {}, "POST")).toMatchObject({ reply: { status: 414 }, format: "json" })
    expect(read("/nowhere?_format=xml", { "content-length": "3" }, "POST")).toMatchObject({
      reply: { status: 405 },
      format: "xml",
      headers: { Allow: "GET, HEAD, OPTIONS", Connection: "close" }
    })
    expect(read("/api/v2/trips", { "transfer-encoding": "chunked", accept: "text/xml" })).toMatchObject({ reply: { status: 413 }, format: "xml" })
    // Past the route, a refusal is an API request (the query log records it).
    expect(read("/api/v2/trips?fn=%ZZ", { accept: "application/xml" })).toMatchObject({ apiRequest: true, format: "xml", reply: { status: 400 } })
  })

  it("leaves a bad _format or trip id encoding to be answered after the key's check, in JSON for a bad _format", () => {
    expect(read("/api/v2/trips/%ZZ?_format=xml&key=k")).toMatchObject({
      _tag: "UseCase",
      route: { _tag: "Details", id: "%ZZ" },
      format: "xml",
      keys: { query: "k" },
      invalid: { parameter: "id", message: "id: malformed percent-encoding in the path" }
    })
    expect(read("/api/v2/trips/%ZZ/threads")).toMatchObject({ route: { _tag: "Threads" }, invalid: { parameter: "id" } })
    expect(read("/api/v2/trips?_format=yaml", { accept: "application/xml", key: "k" })).toMatchObject({
      _tag: "UseCase",
      route: { _tag: "Search" },
      format: "json",
      keys: { header: "k" },
      invalid: { parameter: "_format" }
    })
    expect(read("/api/v2/trips?_format=xml&_format=json")).toMatchObject({ format: "json", invalid: { parameter: "_format" } })
    expect(read("/api/v2/trips?_format=xml")).not.toHaveProperty("invalid")
    // A broken query string: its key cannot be read, but one in the header can be checked first.
    expect(read("/api/v2/trips?fn=%ZZ")).toMatchObject({ _tag: "Refused", reply: { status: 400 } })
    expect(read("/api/v2/trips?fn=%ZZ&key=k")).toMatchObject({ _tag: "Refused", reply: { status: 400 } })
    expect(read("/api/v2/trips?fn=%ZZ", { key: "k" })).toMatchObject({
      _tag: "UseCase",
      keys: { header: "k", query: undefined },
      params: {},
      invalid: { parameter: "fn", message: "fn: malformed percent-encoding in the query string" }
    })
  })

  it("reads HEAD as GET, and answers OPTIONS on a resource (a preflight when it has Origin and Access-Control-Request-Method)", () => {
    expect(read("/api/v2/trips?locale=fr_FR", {}, "HEAD")).toMatchObject({ _tag: "UseCase", route: { _tag: "Search" }, params: { locale: "fr_FR" } })
    expect(read("/api/v2/trips/x?_format=xml", {}, "HEAD")).toMatchObject({ _tag: "UseCase", route: { _tag: "Details", id: "x" }, format: "xml" })
    expect(read("/nowhere", {}, "HEAD")).toMatchObject({ _tag: "Refused", reply: { status: 404 } })
    for (const url of ["/api/v2/trips", "/api/v2/trips/x/threads?%ZZ", "/health", "*"]) {
      expect(read(url, {}, "OPTIONS"), url).toEqual({ _tag: "Options", apiRequest: false, preflight: false })
      expect(read(url, { origin: "https://a.test" }, "OPTIONS"), url).toEqual({ _tag: "Options", apiRequest: false, preflight: false })
      expect(read(url, { origin: "https://a.test", "access-control-request-method": "GET" }, "OPTIONS"), url).toEqual({
        _tag: "Options",
        apiRequest: false,
        preflight: true
      })
    }
    expect(read("/api/v3/trips", { origin: "https://a.test", "access-control-request-method": "GET" }, "OPTIONS")).toMatchObject({
      _tag: "Refused",
      reply: { status: 404 }
    })
    expect(read("/api/v2/trips", { "content-length": "2" }, "OPTIONS")).toMatchObject({ _tag: "Refused", reply: { status: 413 } })
  })

  it("hands the key apart: never in the params nor in the query that links see", () => {
    const r = read("/api/v2/trips?locale=fr_FR&key=abc&fn=Saint+%C3%89tienne&key=def", { key: "hdr" })
    expect(r).toMatchObject({ _tag: "UseCase", keys: { header: "hdr", query: ["abc", "def"] }, query: "locale=fr_FR&fn=Saint+%C3%89tienne" })
    expect(r._tag === "UseCase" && { ...r.params }).toEqual({ locale: "fr_FR", fn: "Saint Étienne" })
  })
})
