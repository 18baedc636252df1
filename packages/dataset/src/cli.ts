#!/usr/bin/env node
import { createWriteStream, writeFileSync } from "node:fs"
import type { FeedTripInput } from "@tripsearch/core"
import { generateQueryLog } from "./generateQueryLog.js"
import { finished } from "node:stream/promises"
import { parseCommandLine, USAGE, UsageError } from "./parseCommandLine.js"
import { writeFeed } from "./writeFeed.js"
import { writeMeetingPoints } from "./writeMeetingPoints.js"

/** Trips kept for the query log, whatever the feed's size. */
const QUERY_SAMPLE = 20_000

const main = async (): Promise<void> => {
  let options
  try {
    options = parseCommandLine(process.argv.slice(2))
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    process.stderr.write(`tripsearch-generate: ${e.message}\n\n${USAGE}\n`)
    process.exitCode = 2
    return
  }
  if (options === "help") {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const out = options.out !== undefined ? createWriteStream(options.out) : process.stdout
  // A reader that stops early (`| head`) is not an error of the generator.
  out.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(0)
    process.stderr.write(`tripsearch-generate: cannot write ${options.out ?? "stdout"}: ${e.message}\n`)
    process.exit(1)
  })
  const started = performance.now()
  // The query log asks for the feed's own places and dates: keep an even sample of the trips.
  const sample: Array<FeedTripInput> = []
  const every = Math.max(1, Math.floor(options.trips / QUERY_SAMPLE))
  const lines = await writeFeed(options, out, options.queries && ((trip, n) => void (n % every === 0 && sample.push(trip))))
  if (out !== process.stdout) {
    out.end()
    await finished(out)
  }
  const seconds = (performance.now() - started) / 1000
  // A rate over a few trips would measure the gazetteer's loading, not the generator.
  const rate = lines >= 1000 ? ` (${Math.round(lines / seconds)} trips/s)` : ""
  process.stderr.write(`tripsearch-generate: ${lines} ${lines === 1 ? "trip" : "trips"} in ${seconds.toFixed(1)} s${rate}\n`)
  if (options.meetingPointsOut !== undefined) {
    const file = createWriteStream(options.meetingPointsOut)
    file.on("error", (e) => {
      process.stderr.write(`tripsearch-generate: cannot write ${options.meetingPointsOut}: ${e.message}\n`)
      process.exit(1)
    })
    const points = await writeMeetingPoints(options, file)
    file.end()
    await finished(file)
    process.stderr.write(`tripsearch-generate: ${points} meeting points in ${options.meetingPointsOut}\n`)
  }
  if (options.queries !== undefined) {
    const log = generateQueryLog({ trips: sample, count: options.queries.count, seed: options.seed, startMs: options.nowMs, mix: options.queries.mix })
    writeFileSync(options.queries.out, [...log].map((r) => JSON.stringify(r) + "\n").join(""))
    process.stderr.write(`tripsearch-generate: ${options.queries.count} queries in ${options.queries.out}\n`)
  }
}

await main()
