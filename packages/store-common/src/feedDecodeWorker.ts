import { parentPort, workerData } from "node:worker_threads"
import { decodeFeedLines } from "./decodeFeedLines.js"
import { type RoadMeetingPoint, RoadStopper } from "./roadStopColumns.js"

const roads = new RoadStopper((workerData as { meetingPoints: ReadonlyArray<RoadMeetingPoint> }).meetingPoints)

/** A worker thread of `importFeed`: batches of lines in, their rows (with their roads) or issues out, in the same order. */
parentPort!.on("message", ({ id, lines }: { id: number; lines: ReadonlyArray<string> }) => {
  try {
    parentPort!.postMessage({ id, decoded: decodeFeedLines(lines, roads) })
  } catch (e) {
    parentPort!.postMessage({ id, failure: e instanceof Error ? e.stack ?? e.message : String(e) })
  }
})
