import { Readable } from "node:stream"
import { describe, expect, it } from "vitest"
import { parseQueryLine, readQueries, UnreadableLine } from "../src/readQueries.js"

describe("parseQueryLine", () => {
  it("reads a record of the API's query log", () => {
    const line = JSON.stringify({ time: "2024-05-01T10:00:00.250Z", path: "/api/v2/trips", query: "fn=Paris&tn=Lyon", status: 200, duration_ms: 3.2 })
    expect(parseQueryLine(3, line)).toEqual({
      line: 3,
      path: "/api/v2/trips",
      query: "fn=Paris&tn=Lyon",
      timeMs: Date.parse("2024-05-01T10:00:00.250Z"),
      recordedStatus: 200,
      recordedDurationMs: 3.2
    })
  })

  it("reads a request path, with or without a base URL, and drops a key", () => {
    expect(parseQueryLine(1, "/api/v2/trips?fn=Paris&key=secret&tn=Lyon")).toEqual({ line: 1, path: "/api/v2/trips", query: "fn=Paris&tn=Lyon" })
    expect(parseQueryLine(1, "http://h:3000/api/v2/trips/abc")).toEqual({ line: 1, path: "/api/v2/trips/abc", query: "" })
  })

  it("reads a record whose key-like parameters the server redacted, and redacts those of an older log", () => {
    const redacted = JSON.stringify({ path: "/api/v2/trips", query: "locale=fr_FR&Key=REDACTED&api_key=REDACTED&api_key=REDACTED&cur=EUR" })
    expect(parseQueryLine(1, redacted)?.query).toBe("locale=fr_FR&Key=REDACTED&api_key=REDACTED&api_key=REDACTED&cur=EUR")
    const older = JSON.stringify({ path: "/api/v2/trips", query: "locale=fr_FR&Key=plain-secret&key%20=plain-secret&cur=EUR" })
    expect(parseQueryLine(1, older)?.query).toBe("locale=fr_FR&Key=REDACTED&key%20=REDACTED&cur=EUR")
    expect(parseQueryLine(1, "/api/v2/trips?access_token=plain-secret&fn=Paris")?.query).toBe("access_token=REDACTED&fn=Paris")
  })

  it("skips blank lines and comments; refuses anything else with the line number", () => {
    expect(parseQueryLine(1, "   ")).toBeUndefined()
    expect(parseQueryLine(1, "# a comment")).toBeUndefined()
    expect(() => parseQueryLine(7, '{"path": "/api/v2/trips", ')).toThrow(/line 7: not valid JSON/)
    expect(() => parseQueryLine(8, "GET /api/v2/trips")).toThrow(UnreadableLine)
    expect(() => parseQueryLine(9, '{"query": "fn=Paris"}')).toThrow(/line 9: no "path"/)
    expect(() => parseQueryLine(9, '{"path": "/x", "time": "yesterday"}')).toThrow(/"time"/)
  })
})

describe("readQueries", () => {
  const input = () => Readable.from(["/a?1\n", '{"path":"/b","query":"2"}\n', "\n", "/c?3\n/d?4\n", "/e?5"])
  it("reads mixed formats, with --skip and --limit counted in queries", async () => {
    expect((await readQueries(input())).map((q) => `${q.path}?${q.query}@${q.line}`)).toEqual(["/a?1@1", "/b?2@2", "/c?3@4", "/d?4@5", "/e?5@6"])
    expect((await readQueries(input(), { skip: 1, limit: 2 })).map((q) => q.path)).toEqual(["/b", "/c"])
  })

  it("fails on a missing file", async () => {
    await expect(readQueries("/no/such/log.ndjson")).rejects.toMatchObject({ code: "ENOENT" })
  })
})
