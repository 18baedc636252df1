#!/usr/bin/env node
import { createWriteStream } from "node:fs"
import { finished } from "node:stream/promises"
import { parseCommandLine, USAGE, UsageError } from "./parseCommandLine.js"
import { writeFeed } from "./writeFeed.js"

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
  const lines = await writeFeed(options, out)
  if (out !== process.stdout) {
    out.end()
    await finished(out)
  }
  const seconds = (performance.now() - started) / 1000
  process.stderr.write(`tripsearch-generate: ${lines} trips in ${seconds.toFixed(1)} s (${Math.round(lines / seconds)} trips/s)\n`)
}

await main()
