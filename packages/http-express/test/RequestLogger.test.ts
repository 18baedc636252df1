import { describe, expect, it } from "vitest"
import { batchedLines, jsonLineLogger } from "../src/index.js"

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe("batchedLines", () => {
  it("hands the lines of one event-loop turn to the sink in one write, in order", async () => {
    const writes: Array<string> = []
    const sink = batchedLines({ write: (text) => writes.push(text) })
    sink.write("a\n")
    sink.write("b\n")
    sink.write("c\n")
    expect(writes).toEqual([])
    await turn()
    expect(writes).toEqual(["a\nb\nc\n"])
    sink.write("d\n")
    await turn()
    expect(writes).toEqual(["a\nb\nc\n", "d\n"])
  })

  it("writes at once past maxBytes, and on flush; nothing twice", async () => {
    const writes: Array<string> = []
    const sink = batchedLines({ write: (text) => writes.push(text) }, 10)
    sink.write("12345\n")
    sink.write("67890\n")
    expect(writes).toEqual(["12345\n67890\n"])
    sink.write("x\n")
    sink.flush()
    expect(writes).toEqual(["12345\n67890\n", "x\n"])
    await turn()
    sink.flush()
    expect(writes).toEqual(["12345\n67890\n", "x\n"])
  })

  it("carries a JSON-lines logger's entries whole", async () => {
    const writes: Array<string> = []
    const logger = jsonLineLogger(batchedLines({ write: (text) => writes.push(text) }))
    logger.info({ event: "request", status: 200 })
    logger.info({ event: "request", status: 404 })
    await turn()
    const lines = writes.join("").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines.map((l) => l.status)).toEqual([200, 404])
    expect(lines.every((l) => l.level === "info" && typeof l.time === "string")).toBe(true)
  })
})
