import { type FeedIssue } from "@tripsearch/core"
import { Either } from "effect"
import { decodeFeedLineFast } from "./decodeFeedLineFast.js"
import { toTripRow, type TripRow } from "./packTrip.js"
import { zoneOffsetsOf } from "./zoneOffsets.js"

/** What one feed line becomes: the row to store, or the issues of a bad line. */
export type DecodedLine = { readonly row: TripRow; readonly issues?: undefined } | { readonly row?: undefined; readonly issues: ReadonlyArray<FeedIssue> }

/**
 * Decodes feed lines into rows: the part of an import that needs no database, so that it can run
 * in worker threads (`feedDecodeWorker.ts`) while the import's own thread writes.
 */
export const decodeFeedLines = (lines: ReadonlyArray<string>): Array<DecodedLine> =>
  lines.map((text) => {
    const decoded = decodeFeedLineFast(text)
    if (Either.isLeft(decoded)) return { issues: decoded.left }
    const trip = decoded.right
    return { row: toTripRow({ trip, zoneOffsets: zoneOffsetsOf(trip) }) }
  })
