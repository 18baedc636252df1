import { generateFeed, type GenerateFeedOptions } from "./generateFeed.js"

/** The feed as NDJSON lines (without the newline). */
export function* feedLines(options: GenerateFeedOptions): Generator<string, void, undefined> {
  for (const trip of generateFeed(options)) yield JSON.stringify(trip)
}
