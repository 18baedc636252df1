import { once } from "node:events"
import type { Writable } from "node:stream"
import type { GenerateFeedOptions } from "./generateFeed.js"
import { meetingPointLines } from "./meetingPointLines.js"

const BATCH_CHARS = 1 << 16

/** Streams the meeting point feed as NDJSON to `out`, with backpressure. Resolves with the number of lines. */
export const writeMeetingPoints = async (options: Partial<GenerateFeedOptions>, out: Writable): Promise<number> => {
  let lines = 0
  let batch = ""
  for (const line of meetingPointLines(options)) {
    batch += line + "\n"
    lines++
    if (batch.length >= BATCH_CHARS) {
      const ok = out.write(batch)
      batch = ""
      if (!ok) await once(out, "drain")
    }
  }
  if (batch !== "") out.write(batch)
  return lines
}
