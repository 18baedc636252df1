import { describe, expect, it } from "vitest"
import { MalformedQuery, negotiateFormat, parseQuery, stripKey } from "../src/index.js"

describe("parseQuery", () => {
  it("agrees with URLSearchParams on well-formed input, repeats becoming arrays", () => {
    const qs = "fn=Saint+%C3%89tienne&tc=45.1%7C4.2&seats=1&seats=2&empty=&flag&&a%20b=c%3Dd"
    const parsed = parseQuery(qs)
    expect(parsed).toEqual({ fn: "Saint Étienne", tc: "45.1|4.2", seats: ["1", "2"], empty: "", flag: "", "a b": "c=d" })
    const reference = new URLSearchParams(qs)
    for (const [name, value] of Object.entries(parsed)) expect(reference.getAll(name)).toEqual(Array.isArray(value) ? value : [value])
  })

  it("has no prototype to pollute", () => {
    const parsed = parseQuery("__proto__=x&constructor=y")
    expect(Object.getPrototypeOf(parsed)).toBeNull()
    expect(parsed.__proto__).toBe("x")
  })

  it("throws MalformedQuery naming the parameter for a broken escape or invalid UTF-8", () => {
    expect(() => parseQuery("fn=%ZZ")).toThrow(MalformedQuery)
    expect(() => parseQuery("fn=%E9")).toThrow(/fn/)
    expect(() => parseQuery("f%=1")).toThrow(MalformedQuery)
  })

  it("handles an absent query", () => {
    expect(parseQuery(undefined)).toEqual({})
    expect(parseQuery(null)).toEqual({})
    expect(parseQuery("")).toEqual({})
  })
})

describe("stripKey", () => {
  it("removes every key parameter, however encoded, and keeps the rest as asked", () => {
    expect(stripKey("key=abc&locale=fr_FR&fn=Saint%20%C3%89tienne&%6Bey=def&key")).toBe("locale=fr_FR&fn=Saint%20%C3%89tienne")
    expect(stripKey("keys=1&monkey=2")).toBe("keys=1&monkey=2")
    expect(stripKey("")).toBe("")
  })
})

describe("negotiateFormat", () => {
  it("takes _format first, then Accept, default JSON", () => {
    expect(negotiateFormat("xml", "application/json")).toEqual({ _tag: "Format", format: "xml" })
    expect(negotiateFormat("json", "application/xml")).toEqual({ _tag: "Format", format: "json" })
    expect(negotiateFormat(undefined, "text/xml")).toEqual({ _tag: "Format", format: "xml" })
    expect(negotiateFormat(undefined, "application/xml;q=0.5, application/json")).toEqual({ _tag: "Format", format: "json" })
    expect(negotiateFormat(undefined, "application/xml, */*")).toEqual({ _tag: "Format", format: "xml" })
    expect(negotiateFormat(undefined, "application/xml;q=0")).toEqual({ _tag: "Format", format: "json" })
    expect(negotiateFormat(undefined, undefined)).toEqual({ _tag: "Format", format: "json" })
  })

  it("rejects other values and repeats", () => {
    expect(negotiateFormat("XML", undefined)._tag).toBe("InvalidFormat")
    expect(negotiateFormat("", undefined)._tag).toBe("InvalidFormat")
    expect(negotiateFormat(["xml", "xml"], undefined)._tag).toBe("InvalidFormat")
  })
})
