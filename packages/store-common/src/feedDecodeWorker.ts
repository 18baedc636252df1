import { parentPort } from "node:worker_threads"
import { decodeFeedLines } from "./decodeFeedLines.js"

/** A worker thread of `importFeed`: batches of lines in, their rows or issues out, in the same order. */
parentPort!.on("message", ({ id, lines }: { id: number; lines: ReadonlyArray<string> }) => {
  try {
    parentPort!.postMessage({ id, decoded: decodeFeedLines(lines) })
  } catch (e) {
    parentPort!.postMessage({ id, failure: e instanceof Error ? e.stack ?? e.message : String(e) })
  }
})
