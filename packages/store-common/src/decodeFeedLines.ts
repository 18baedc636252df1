import { type FeedIssue } from "@tripsearch/core"
import { Either } from "effect"
import type { LegPoints } from "./acceptFeedTrip.js"
import { invalidUtf8Error, type NumberedLine } from "./readLines.js"
import { decodeFeedLineFast } from "./decodeFeedLineFast.js"
import { toTripRow, type TripRow } from "./packTrip.js"
import type { RoadColumns, RoadStopper } from "./roadStopColumns.js"
import { zoneOffsetsOf } from "./zoneOffsets.js"

/** A trip's row as an import writes it: its columns and its road's (`RoadStopper`). */
export type FeedRow = TripRow & RoadColumns

/** What one feed line becomes: the row to store, or the issues of a bad line. */
export type DecodedLine = { readonly row: FeedRow; readonly issues?: undefined } | { readonly row?: undefined; readonly issues: ReadonlyArray<FeedIssue> }

/**
 * Decodes feed lines into rows, their stops along the road worked out by `roads` (from the store's
 * active meeting points): the part of an import that needs no database, so that it can run in
 * worker threads (`feedDecodeWorker.ts`) while the import's own thread only writes.
 */
export const decodeFeedLines = (lines: ReadonlyArray<string>, roads: RoadStopper): Array<DecodedLine> => {
  // The paths as the line's checks decoded them, for its stops along the road.
  const legPoints: LegPoints = []
  return lines.map((text) => {
    const decoded = decodeFeedLineFast(text, legPoints)
    if (Either.isLeft(decoded)) return { issues: decoded.left }
    const trip = decoded.right
    // The decoded trip is what `trip_json` holds (JSON round-trips its numbers exactly): no parse again.
    return { row: { ...toTripRow({ trip, zoneOffsets: zoneOffsetsOf(trip) }), ...roads.columnsOfTrip(trip, legPoints) } }
  })
}

/**
 * What one physical line of a feed becomes: its decoded line, the message of a line that is not
 * UTF-8, or null for a blank line (skipped).
 */
export type LineResult = DecodedLine | string | null

/** `decodeFeedLines` over numbered lines as `readLines` gives them, blank and broken ones included, in order. */
export const decodeNumberedLines = (lines: ReadonlyArray<NumberedLine>, roads: RoadStopper): Array<LineResult> => {
  const texts: Array<string> = []
  for (const line of lines) if (line.invalidUtf8 === undefined && line.text.trim() !== "") texts.push(line.text)
  const decoded = decodeFeedLines(texts, roads)
  let k = 0
  return lines.map((line) => (line.invalidUtf8 !== undefined ? invalidUtf8Error(line.n, line.invalidUtf8) : line.text.trim() === "" ? null : decoded[k++]!))
}
