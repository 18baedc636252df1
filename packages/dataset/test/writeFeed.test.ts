import { Writable } from "node:stream"
import { expect, it } from "vitest"
import { feedLines } from "../src/feedLines.js"
import { writeFeed } from "../src/writeFeed.js"

it("streams every line through a slow writer, waiting for it to drain", async () => {
  const chunks: Array<string> = []
  let writes = 0
  let maxBuffered = 0
  const slow: Writable = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString())
      writes++
      maxBuffered = Math.max(maxBuffered, slow.writableLength)
      setTimeout(done, 1)
    }
  })
  const options = { trips: 300, seed: "w", nowMs: Date.UTC(2026, 2, 1) }
  const count = await writeFeed(options, slow)
  await new Promise<void>((resolve) => slow.end(resolve))
  expect(count).toBe(300)
  const expected = [...feedLines(options)].map((l) => `${l}\n`).join("")
  expect(chunks.join("")).toBe(expected)
  expect(writes).toBeGreaterThan(2)
  // Without waiting for drain the whole feed would pile up in the stream's buffer.
  expect(expected.length).toBeGreaterThan(300_000)
  expect(maxBuffered).toBeLessThan(150_000)
})
