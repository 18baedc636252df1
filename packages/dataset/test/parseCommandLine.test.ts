import { describe, expect, it } from "vitest"
import { parseCommandLine, UsageError } from "../src/parseCommandLine.js"

describe("parseCommandLine", () => {
  it("reads the options", () => {
    expect(parseCommandLine(["--trips", "10", "--seed", "s1", "--now", "2026-03-01T10:00:00Z"])).toEqual({
      trips: 10,
      seed: "s1",
      nowMs: Date.UTC(2026, 2, 1, 10)
    })
    expect(parseCommandLine(["--trips=0", "--seed=x", "--now=2026-03-01T11:00:00+01:00", "--out", "f.ndjson"])).toEqual({
      trips: 0,
      seed: "x",
      nowMs: Date.UTC(2026, 2, 1, 10),
      out: "f.ndjson"
    })
    expect(parseCommandLine(["--help"])).toBe("help")
  })

  it("rejects bad command lines with a message naming the problem", () => {
    const problem = (args: Array<string>) => {
      try {
        parseCommandLine(args)
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError)
        return (e as Error).message
      }
      return "accepted"
    }
    expect(problem(["--seed", "s", "--now", "2026-03-01T10:00:00Z"])).toMatch(/missing --trips/)
    expect(problem(["--trips", "-3", "--seed", "s", "--now", "2026-03-01T10:00:00Z"])).toMatch(/--trips/)
    expect(problem(["--trips", "1e3", "--seed", "s", "--now", "2026-03-01T10:00:00Z"])).toMatch(/--trips must be an integer/)
    expect(problem(["--trips", "3", "--seed", "s", "--now", "2026-03-01"])).toMatch(/--now must be an ISO 8601/)
    expect(problem(["--trips", "3", "--seed", "s", "--now", "2026-02-30T10:00:00Z"])).toMatch(/--now/)
    expect(problem(["--trips", "3", "--seed", "s", "--now", "2026-03-01T24:00:00Z"])).toMatch(/--now/)
    expect(problem(["--trips", "3", "--seed", "", "--now", "2026-03-01T10:00:00Z"])).toMatch(/--seed/)
    expect(problem(["--trips", "3", "--seed", "s", "--now", "2026-03-01T10:00:00Z", "--colour"])).toMatch(/colour/)
    expect(problem(["--trips", "3", "--seed", "s", "--now", "2026-03-01T10:00:00Z", "extra"])).toMatch(/extra/)
  })
})

describe("the query log of tripsearch-generate", () => {
  it("reads --queries with --queries-out, and refuses one without the other", () => {
    const base = ["--trips", "10", "--seed", "s", "--now", "2026-03-01T10:00:00Z"]
    expect(parseCommandLine([...base, "--queries", "5", "--queries-out", "q.ndjson"])).toMatchObject({ queries: { count: 5, out: "q.ndjson" } })
    expect(() => parseCommandLine([...base, "--queries", "5"])).toThrow(/--queries and --queries-out go together/)
    expect(() => parseCommandLine([...base, "--queries-out", "q.ndjson"])).toThrow(/go together/)
    expect(() => parseCommandLine([...base, "--queries", "x", "--queries-out", "q.ndjson"])).toThrow(/--queries must be an integer/)
    expect(parseCommandLine([...base, "--queries", "5", "--queries-out", "q.ndjson"])).toMatchObject({ queries: { mix: "default" } })
    expect(parseCommandLine([...base, "--queries", "5", "--queries-out", "q", "--queries-mix", "heavy"])).toMatchObject({ queries: { mix: "heavy" } })
    expect(() => parseCommandLine([...base, "--queries", "5", "--queries-out", "q", "--queries-mix", "light"])).toThrow(/--queries-mix must be default, heavy, wide or dense, got "light"/)
    expect(() => parseCommandLine([...base, "--queries-mix", "heavy"])).toThrow(/--queries-mix goes with --queries/)
    expect(parseCommandLine([...base, "--queries", "5", "--queries-out", "q", "--queries-mix", "wide"])).toMatchObject({ queries: { mix: "wide" } })
    expect(parseCommandLine([...base, "--queries", "5", "--queries-out", "q", "--queries-mix", "dense"])).toMatchObject({ queries: { mix: "dense" } })
  })
})

describe("roads and meeting points on the command line", () => {
  const base = ["--trips", "10", "--seed", "s", "--now", "2026-03-01T10:00:00Z"]
  it("reads --roads on|off and --meeting-points-out", () => {
    expect(parseCommandLine(base)).not.toHaveProperty("roads")
    expect(parseCommandLine([...base, "--roads", "on"])).not.toHaveProperty("roads")
    expect(parseCommandLine([...base, "--roads", "off"])).toMatchObject({ roads: false })
    expect(parseCommandLine([...base, "--meeting-points-out", "mp.ndjson"])).toMatchObject({ meetingPointsOut: "mp.ndjson" })
    expect(() => parseCommandLine([...base, "--roads", "no"])).toThrow(/--roads must be on or off, got "no"/)
    expect(parseCommandLine([...base, "--dense"])).toMatchObject({ dense: true })
    expect(parseCommandLine(base)).not.toHaveProperty("dense")
    expect(() => parseCommandLine([...base, "--meeting-points-out", ""])).toThrow(/--meeting-points-out must name a file/)
  })
})
