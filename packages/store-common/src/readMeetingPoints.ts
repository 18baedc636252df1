import { decodeMeetingPointLine, type StoredMeetingPoint } from "@tripsearch/core"
import { Either } from "effect"
import { type FeedSource, invalidUtf8Error, readLines } from "./readLines.js"

export type MeetingPointRead =
  | { readonly ok: true; readonly meetingPoints: ReadonlyArray<StoredMeetingPoint> }
  | { readonly ok: false; readonly errors: ReadonlyArray<string> }

/**
 * Reads a whole meeting point feed (NDJSON, docs/FEED.md) before anything is written: every bad
 * line is reported as `line N: field: reason`, and an id given twice is one of them.
 */
export const readMeetingPoints = async (source: FeedSource): Promise<MeetingPointRead> => {
  const errors: Array<string> = []
  const seenOn = new Map<number, number>()
  const meetingPoints: Array<StoredMeetingPoint> = []
  for await (const line of readLines(source)) {
    const n = line.n
    if (line.invalidUtf8 !== undefined) {
      errors.push(invalidUtf8Error(n, line.invalidUtf8))
      continue
    }
    if (line.text.trim() === "") continue
    const decoded = decodeMeetingPointLine(line.text)
    if (Either.isLeft(decoded)) {
      for (const { field, reason } of decoded.left) errors.push(`line ${n}: ${field}: ${reason}`)
      continue
    }
    const mp = decoded.right
    const first = seenOn.get(mp.id)
    if (first !== undefined) {
      errors.push(`line ${n}: id: duplicate id ${mp.id}, already on line ${first}`)
      continue
    }
    seenOn.set(mp.id, n)
    meetingPoints.push(mp)
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, meetingPoints }
}
