#!/usr/bin/env node
import { accessSync, constants, realpathSync, statSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import type { Pacing } from "./pacing.js"
import { parseCommandLine, type TargetSpec, USAGE, UsageError } from "./parseArgs.js"
import { startProgress } from "./progress.js"
import { readQueries, type RecordedQuery, UnreadableLine } from "./readQueries.js"
import { formatReport } from "./report.js"
import { describePacing, runReplay } from "./runReplay.js"
import { coreTarget, httpTarget, type Target, TargetProblem } from "./targets.js"

export const EXIT_OK = 0
export const EXIT_DIFFERENCES = 1
export const EXIT_BAD_INPUT = 2
export const EXIT_INTERRUPTED = 130

export interface MainIo {
  readonly stdout: NodeJS.WritableStream
  readonly stderr: NodeJS.WriteStream
  /** Aborted on SIGINT by the entry point; tests pass their own. */
  readonly signal?: AbortSignal | undefined
}

const targetOf = (spec: TargetSpec, options: { apiBaseUrl: string | undefined; websiteBaseUrl: string | undefined }): Target =>
  spec._tag === "Core"
    ? coreTarget({ db: spec.db, apiBaseUrl: options.apiBaseUrl, websiteBaseUrl: options.websiteBaseUrl })
    : httpTarget({ baseUrl: spec.baseUrl, key: spec.key })

const recordedTimesPresent = (pacing: Pacing, queries: ReadonlyArray<RecordedQuery>): RecordedQuery | undefined =>
  pacing._tag === "Recorded" ? queries.find((q) => q.timeMs === undefined) : undefined

/** The command: returns the exit status (see USAGE). */
export const main = async (args: ReadonlyArray<string>, io: MainIo): Promise<number> => {
  const fail = (message: string): number => {
    io.stderr.write(`tripsearch-replay: ${message}\n`)
    return EXIT_BAD_INPUT
  }
  let command: ReturnType<typeof parseCommandLine>
  try {
    command = parseCommandLine(args)
  } catch (error) {
    if (error instanceof UsageError) return fail(`${error.message}\n(tripsearch-replay --help for the usage)`)
    throw error
  }
  if (command._tag === "Help") {
    io.stdout.write(`${USAGE}\n`)
    return EXIT_OK
  }
  const options = command.options

  let queries: Array<RecordedQuery>
  try {
    queries = await readQueries(options.input, { skip: options.skip, limit: options.limit })
  } catch (error) {
    if (error instanceof UnreadableLine) return fail(`cannot replay ${options.input}, ${error.message}`)
    const code = (error as { code?: unknown }).code
    return fail(`cannot read ${options.input}: ${code === "ENOENT" ? "no such file" : error instanceof Error ? error.message : String(error)}`)
  }
  const untimed = recordedTimesPresent(options.pacing, queries)
  if (untimed !== undefined) {
    return fail(`--speed replays the recorded timing, but line ${untimed.line} of ${options.input} has no "time" (use --rate or --concurrency)`)
  }

  // A report that cannot be written is said before the replay, not after it.
  if (options.jsonPath !== undefined) {
    const folder = dirname(resolve(options.jsonPath))
    try {
      if (!statSync(folder).isDirectory()) return fail(`--json ${options.jsonPath}: ${folder} is not a folder`)
      accessSync(folder, constants.W_OK)
    } catch (error) {
      return fail(`--json ${options.jsonPath}: cannot write there (${error instanceof Error ? error.message : String(error)})`)
    }
  }

  const targets: Array<Target> = []
  try {
    const baseUrls = { apiBaseUrl: options.apiBaseUrl, websiteBaseUrl: options.websiteBaseUrl }
    targets.push(targetOf(options.target, baseUrls))
    if (options.compare !== undefined) targets.push(targetOf(options.compare, baseUrls))
    for (const t of targets) await t.check()
  } catch (error) {
    await Promise.all(targets.map((t) => t.close().catch(() => {})))
    if (error instanceof TargetProblem) return fail(error.message)
    throw error
  }

  io.stderr.write(
    `tripsearch-replay: ${queries.length} queries from ${options.input} -> ${targets.map((t) => t.name).join(" vs ")} (${describePacing(options.pacing)})\n`
  )
  const progress = startProgress(queries.length, io.stderr)
  let outcome: Awaited<ReturnType<typeof runReplay>>
  try {
    outcome = await runReplay({
      input: options.input,
      queries,
      target: targets[0]!,
      compareWith: targets[1],
      pacing: options.pacing,
      maxInFlight: options.maxInFlight,
      signal: io.signal,
      onProgress: progress.update,
      slowest: options.slowest
    })
  } finally {
    progress.stop()
    await Promise.all(targets.map((t) => t.close().catch(() => {})))
  }

  const { report, refused } = outcome
  io.stdout.write(formatReport(report))
  if (options.jsonPath !== undefined) {
    try {
      writeFileSync(options.jsonPath, `${JSON.stringify(report, null, 2)}\n`)
    } catch (error) {
      return fail(`cannot write the JSON report to ${options.jsonPath}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  if (refused !== undefined) return fail(refused)
  if (io.signal?.aborted === true) return EXIT_INTERRUPTED
  if (report.compare !== undefined && report.compare.different > 0) return EXIT_DIFFERENCES
  return EXIT_OK
}

const isEntryPoint = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
})()

if (isEntryPoint) {
  const interrupt = new AbortController()
  process.on("SIGINT", () => {
    if (interrupt.signal.aborted) {
      process.stderr.write("\nSIGINT again: exiting without the report\n")
      process.exit(EXIT_INTERRUPTED)
    }
    process.stderr.write("\nSIGINT: no new queries; finishing those in flight, then the report (SIGINT again to quit now)\n")
    interrupt.abort()
  })
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signal: interrupt.signal }).then(
    (code) => {
      process.exitCode = code
      // Whatever keeps the loop alive (keep-alive sockets), the run is over.
      setTimeout(() => process.exit(code), 200).unref()
    },
    (error: unknown) => {
      process.stderr.write(`tripsearch-replay failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
      process.exit(EXIT_BAD_INPUT)
    }
  )
}
