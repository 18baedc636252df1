import { once } from "node:events"
import type { Writable } from "node:stream"
import type { FeedTripInput } from "@tripsearch/core"
import { generateFeed, type GenerateFeedOptions } from "./generateFeed.js"

/** Lines are written in batches of about this many characters: fewer, larger writes. */
const BATCH_CHARS = 1 << 16

/**
 * Streams the feed as NDJSON to `out`, waiting for `drain` whenever the stream's buffer is full,
 * so memory stays bounded however many trips are asked for. `onTrip` sees each trip as it goes
 * (the query-log sampler). Resolves with the number of lines.
 */
export const writeFeed = async (
  options: GenerateFeedOptions,
  out: Writable,
  onTrip?: (trip: FeedTripInput, index: number) => void
): Promise<number> => {
  let lines = 0
  let batch = ""
  for (const trip of generateFeed(options)) {
    onTrip?.(trip, lines)
    batch += JSON.stringify(trip) + "\n"
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
