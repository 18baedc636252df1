import { describe, expect, it } from "vitest"
import { compareAnswers, firstJsonDifference, firstXmlDifference, normalizeJson, normalizeXml, xmlPathAt } from "../src/compareBodies.js"

const search = (price: number, self = "https://a.example/api/v2/trips?fn=Paris") => ({
  links: { _self: self, _front: "https://www.a.example/search?fn=Paris" },
  trips: [0, 1, 2, 3].map((k) => ({
    links: { _self: `https://a.example/api/v2/trips/t${k}`, _threads: `https://a.example/api/v2/trips/t${k}/threads` },
    price: { value: k === 3 ? price : 10, currency: "EUR" }
  }))
})

describe("firstJsonDifference", () => {
  it("names the first differing path", () => {
    expect(firstJsonDifference(search(12.5), search(13))).toEqual({ path: "trips[3].price.value", detail: "12.5 != 13" })
    expect(firstJsonDifference(search(12.5), search(12.5))).toBeUndefined()
  })

  it("reports missing keys, lengths, types and key order", () => {
    expect(firstJsonDifference({ a: 1, b: 2 }, { a: 1 })?.path).toBe("b")
    expect(firstJsonDifference({ a: [1, 2] }, { a: [1, 2, 3] })).toEqual({ path: "a[2]", detail: "array length 2 != 3" })
    expect(firstJsonDifference({ a: "1" }, { a: 1 })?.detail).toBe('string "1" != number 1')
    expect(firstJsonDifference({ a: 1, b: 2 }, { b: 2, a: 1 })?.detail).toContain("key order")
    expect(firstJsonDifference({ error: { "support-link": "x" } }, { error: { "support-link": "y" } })?.path).toBe('error["support-link"]')
  })
})

describe("link normalisation", () => {
  it("ignores the scheme and host of _self, _front, _threads (and support-link), not their path or query", () => {
    const a = normalizeJson(search(1, "https://a.example/api/v2/trips?fn=Paris"))
    const b = normalizeJson(
      JSON.parse(JSON.stringify(search(1, "http://127.0.0.1:3000/api/v2/trips?fn=Paris")).replaceAll("https://a.example", "http://b:1").replaceAll("www.a.example", "www.b"))
    )
    expect(firstJsonDifference(a, b)).toBeUndefined()
    const c = normalizeJson(search(1, "http://127.0.0.1:3000/api/v2/trips?fn=Lyon"))
    expect(firstJsonDifference(a, c)?.path).toBe("links._self")
  })

  it("a host in any other field still differs", () => {
    expect(firstJsonDifference(normalizeJson({ url: "https://a/x" }), normalizeJson({ url: "https://b/x" }))?.path).toBe("url")
  })
})

describe("compareAnswers", () => {
  const json = (status: number, body: unknown) => ({ status, format: "json" as const, body: JSON.stringify(body) })
  it("compares status and body", () => {
    expect(compareAnswers(json(200, search(1)), json(200, search(1)))._tag).toBe("Same")
    const d = compareAnswers(json(200, search(1)), json(404, search(2)))
    expect(d).toMatchObject({ _tag: "Different", status: [200, 404], body: { path: "trips[3].price.value" } })
  })

  it("does not compare an XML body with a JSON one (status only)", () => {
    expect(compareAnswers({ status: 200, format: "xml", body: "<x/>" }, json(200, {}))._tag).toBe("FormatsDiffer")
  })

  it("names the element path of an XML difference", () => {
    const doc = (v: number) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<response><links><_self>http://h${v}/api</_self></links><trips><trip><price><value>1</value></price></trip><trip><price><value>${v}</value></price></trip></trips></response>`
    expect(compareAnswers({ status: 200, format: "xml", body: doc(2) }, { status: 200, format: "xml", body: doc(2) })._tag).toBe("Same")
    const d = firstXmlDifference(normalizeXml(doc(2)), normalizeXml(doc(3)))
    expect(d?.path).toBe("response.trips.trip[1].price.value")
    expect(xmlPathAt("<a><b>1</b><b>2</b></a>", 13)).toBe("a.b[1]")
  })
})
