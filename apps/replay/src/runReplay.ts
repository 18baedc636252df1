import { performance } from "node:perf_hooks"
import { compareAnswers } from "./compareBodies.js"
import { type Pacing, runPaced } from "./pacing.js"
import type { RecordedQuery } from "./readQueries.js"
import { buildReport, type QueryResult, type Report } from "./report.js"
import { type Answer, errorToken, type Target } from "./targets.js"

export interface ReplayOptions {
  /** Name of the input, for the report. */
  readonly input: string
  readonly queries: ReadonlyArray<RecordedQuery>
  readonly target: Target
  /** `--compare`: every query also goes to this target, and the answers are compared. */
  readonly compareWith?: Target | undefined
  readonly pacing: Pacing
  readonly maxInFlight?: number | undefined
  /** Aborting it (SIGINT) stops starting queries; the report covers those done. */
  readonly signal?: AbortSignal | undefined
  /** Called after each query with the number done and the number of error answers so far. */
  readonly onProgress?: ((done: number, errors: number) => void) | undefined
  readonly slowest?: number | undefined
}

export interface ReplayOutcome {
  readonly report: Report
  /** Why the run stopped early on its own (a key refused by a target), if it did. */
  readonly refused?: string | undefined
}

export const describePacing = (pacing: Pacing): string => {
  switch (pacing._tag) {
    case "Concurrency":
      return `as fast as possible, concurrency ${pacing.concurrency}`
    case "Rate":
      return `rate ${pacing.perSecond}/s`
    case "Recorded":
      return `recorded timing x${pacing.speed}`
  }
}

const refusal = (target: Target, answer: Answer, keyFlag: string): string | undefined => {
  if (answer.status !== 401 && answer.status !== 403) return undefined
  const token = errorToken(answer)
  if (token !== undefined && !token.startsWith("auth.")) return undefined
  return `${target.name} refused the API key (${answer.status}${token ? ` ${token}` : ""}): check ${keyFlag}`
}

/**
 * Replays the queries against the target(s) with the pacing. The targets must have been checked
 * (`check()`); they are not closed here. A 401/403 `auth.*` answer stops the run: every query
 * after it would get the same.
 */
export const runReplay = async (options: ReplayOptions): Promise<ReplayOutcome> => {
  const targets = options.compareWith === undefined ? [options.target] : [options.target, options.compareWith]
  const stop = new AbortController()
  const onAbort = () => stop.abort()
  options.signal?.addEventListener("abort", onAbort, { once: true })
  if (options.signal?.aborted) stop.abort()
  const results: Array<QueryResult> = []
  let errors = 0
  let refused: string | undefined
  const startedAt = new Date()
  const t0 = performance.now()

  await runPaced({
    count: options.queries.length,
    pacing: options.pacing,
    times: options.queries.map((q) => q.timeMs),
    maxInFlight: options.maxInFlight,
    signal: stop.signal,
    run: async (i) => {
      const query = options.queries[i]!
      const answers = await Promise.all(targets.map((t) => t.send(query)))
      for (let t = 0; t < targets.length; t++) {
        const why = refusal(targets[t]!, answers[t]!, t === 0 ? "--key" : "--key-b")
        if (why !== undefined && refused === undefined) {
          refused = why
          stop.abort()
        }
      }
      const comparison = answers.length === 2 ? compareAnswers(answers[0]!, answers[1]!) : undefined
      if (answers.some((a) => a.status < 200 || a.status > 299)) errors++
      results.push({ query, answers, comparison })
      options.onProgress?.(results.length, errors)
    }
  })
  options.signal?.removeEventListener("abort", onAbort)

  const wallSeconds = (performance.now() - t0) / 1000
  // Results arrive in completion order; the report lists them in input order.
  results.sort((a, b) => a.query.line - b.query.line)
  const interrupted = options.signal?.aborted === true
  const report = buildReport({
    input: options.input,
    targetNames: targets.map((t) => t.name),
    results,
    planned: options.queries.length,
    wallSeconds,
    startedAt,
    pacing: describePacing(options.pacing),
    complete: results.length === options.queries.length && refused === undefined && !interrupted,
    stoppedBecause: refused ?? (interrupted ? "SIGINT" : undefined),
    compare: options.compareWith !== undefined,
    slowest: options.slowest
  })
  return { report, ...(refused !== undefined ? { refused } : {}) }
}
