import type { GenerateFeedOptions } from "./generateFeed.js"
import { generateMeetingPoints } from "./generateMeetingPoints.js"

/** The meeting point feed as NDJSON lines (without the newline), for the world of `feedLines(options)`. */
export function* meetingPointLines(options?: Partial<GenerateFeedOptions>): Generator<string, void, undefined> {
  for (const point of generateMeetingPoints(options)) yield JSON.stringify(point)
}
