import { describe, expect, it } from "vitest"
import { runPaced, startOffsetsMs } from "../src/pacing.js"
import { parseCommandLine, UsageError } from "../src/parseArgs.js"

describe("pacing", () => {
  it("--rate spaces the starts evenly; --speed follows the recorded times", () => {
    expect(startOffsetsMs({ _tag: "Rate", perSecond: 4 }, [undefined, undefined, undefined])).toEqual([0, 250, 500])
    expect(startOffsetsMs({ _tag: "Recorded", speed: 10 }, [1000, 3000, 2000, 11_000])).toEqual([0, 200, 200, 1000])
    expect(startOffsetsMs({ _tag: "Concurrency", concurrency: 3 }, [1])).toBeUndefined()
    expect(() => startOffsetsMs({ _tag: "Recorded", speed: 1 }, [1, undefined])).toThrow(/no recorded time/)
  })

  it("never has more than `concurrency` queries in flight", async () => {
    let inFlight = 0
    let most = 0
    const started = await runPaced({
      count: 40,
      pacing: { _tag: "Concurrency", concurrency: 3 },
      times: [],
      run: async () => {
        inFlight++
        most = Math.max(most, inFlight)
        await new Promise((r) => setTimeout(r, 2))
        inFlight--
      }
    })
    expect(started).toBe(40)
    expect(most).toBe(3)
  })

  it("stops starting queries when aborted", async () => {
    const stop = new AbortController()
    let done = 0
    const started = await runPaced({
      count: 1000,
      pacing: { _tag: "Rate", perSecond: 100 },
      times: [],
      signal: stop.signal,
      run: async () => {
        if (++done === 5) stop.abort()
      }
    })
    expect(started).toBe(5)
  })
})

describe("command line", () => {
  it("parses a core run and a compare run", () => {
    const core = parseCommandLine(["log.ndjson", "--target", "core", "--db", "x.db", "--rate", "50", "--limit", "10"])
    expect(core).toMatchObject({ _tag: "Run", options: { target: { _tag: "Core", db: "x.db" }, pacing: { _tag: "Rate", perSecond: 50 }, limit: 10 } })
    const cmp = parseCommandLine(["-", "--target", "http://h:1/", "--key", "k", "--compare", "core", "--db-b", "y.db", "--speed", "10"])
    expect(cmp).toMatchObject({ options: { target: { _tag: "Http", baseUrl: "http://h:1", key: "k" }, compare: { _tag: "Core", db: "y.db" }, pacing: { _tag: "Recorded", speed: 10 } } })
    expect(parseCommandLine(["x", "--target", "core", "--db", "d"])).toMatchObject({ options: { pacing: { _tag: "Concurrency", concurrency: 8 } } })
  })

  it("says what is wrong", () => {
    expect(() => parseCommandLine(["log", "--target", "core"])).toThrow(/--db PATH/)
    expect(() => parseCommandLine(["log", "--target", "http://h:1"])).toThrow(/--key/)
    expect(() => parseCommandLine(["log", "--target", "ftp://h"])).toThrow(UsageError)
    expect(() => parseCommandLine(["log", "--target", "core", "--db", "d", "--rate", "0"])).toThrow(/--rate must be a number > 0/)
    expect(() => parseCommandLine(["log", "--target", "core", "--db", "d", "--rate", "1", "--speed", "2"])).toThrow(/one of/)
    expect(() => parseCommandLine(["--target", "core", "--db", "d"])).toThrow(/which log/)
    expect(() => parseCommandLine(["log", "--bogus"])).toThrow(UsageError)
  })
})
