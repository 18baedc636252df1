import { parentPort, workerData } from "node:worker_threads"
import { decodeNumberedLines } from "./decodeFeedLines.js"
import { packBatch } from "./FeedDecodePool.js"
import { type LineBytes, linesIn, type NumberedLine } from "./readLines.js"
import { type RoadMeetingPoint, RoadStopper } from "./roadStopColumns.js"

/**
 * Legs whose passes each decode thread keeps. Each thread has its own cache, and a worker's costs
 * far more memory than the keys and passes suggest: with core's 200,000, two threads took the
 * import of 200,000 generated trips from 1.3 GB to 2.3 GB at its peak, for 5% of legs found in it
 * (no time saved that could be measured). A small one keeps what feeds listing a road's trips
 * together gain.
 */
const CACHE_LEGS = 10_000

const roads = new RoadStopper((workerData as { meetingPoints: ReadonlyArray<RoadMeetingPoint> }).meetingPoints, CACHE_LEGS)

/**
 * A worker thread of `importFeed`: batches of lines in (the bytes of a file's, or numbered lines),
 * their rows (with their roads), issues, UTF-8 errors or blanks out, in the same order.
 */
parentPort!.on("message", ({ id, batch }: { id: number; batch: LineBytes | Array<NumberedLine> }) => {
  try {
    const lines = Array.isArray(batch) ? batch : linesIn(Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength), batch.bytes.byteLength, batch.n0, batch.at)
    const decoded = decodeNumberedLines(lines, roads)
    const bytes = packBatch(decoded)
    parentPort!.postMessage({ id, decoded, bytes }, [bytes])
  } catch (e) {
    parentPort!.postMessage({ id, failure: e instanceof Error ? e.stack ?? e.message : String(e) })
  }
})
