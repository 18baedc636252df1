import type { AnswerComparison } from "./compareBodies.js"
import { type LatencySummary, summarizeLatencies } from "./percentiles.js"
import { type RecordedQuery, requestTarget } from "./readQueries.js"
import type { Answer } from "./targets.js"

/** What one replayed query gave: the answer of each target (A, then B with `--compare`). */
export interface QueryResult {
  readonly query: RecordedQuery
  readonly answers: ReadonlyArray<Answer>
  readonly comparison?: AnswerComparison | undefined
}

export interface SlowQuery {
  readonly line: number
  readonly target: string
  readonly status: number
  readonly latencyMs: number
}

export interface TargetReport {
  readonly target: string
  /** Answers by status (`0`: no answer: network failure or timeout). */
  readonly statuses: Readonly<Record<string, number>>
  /** Answers that are not 2xx, by status. */
  readonly errorsByStatus: Readonly<Record<string, number>>
  readonly errors: number
  /** Why some queries got no answer (status 0), with counts. */
  readonly failures: Readonly<Record<string, number>>
  /** Latency of every answered query (status > 0), ms; nearest-rank percentiles. */
  readonly latencyMs: LatencySummary
  readonly slowest: ReadonlyArray<SlowQuery>
}

export interface Difference {
  readonly line: number
  readonly target: string
  /** `[A, B]` when the statuses differ. */
  readonly status?: readonly [number, number]
  /** First differing JSON path in the body (`trips[3].price.value`; `""`: the whole body). */
  readonly path?: string
  readonly detail?: string
}

export interface Report {
  readonly input: string
  /** False when the run was interrupted (SIGINT) or stopped by a refused key. */
  readonly complete: boolean
  readonly stoppedBecause?: string | undefined
  readonly startedAt: string
  readonly pacing: string
  /** Queries read from the input (after `--skip`, up to `--limit`). */
  readonly planned: number
  /** Queries replayed (answered by every target). */
  readonly queries: number
  readonly wallSeconds: number
  /** Replayed queries per second of wall time. */
  readonly throughputPerSecond: number
  readonly targets: ReadonlyArray<TargetReport>
  readonly compare?: {
    readonly same: number
    readonly different: number
    /** Queries answered in XML by one target and JSON by the other: status compared only. */
    readonly formatsDiffer: number
    readonly differences: ReadonlyArray<Difference>
  }
}

export interface BuildReportInput {
  readonly input: string
  readonly targetNames: ReadonlyArray<string>
  readonly results: ReadonlyArray<QueryResult>
  readonly planned: number
  readonly wallSeconds: number
  readonly startedAt: Date
  readonly pacing: string
  readonly complete: boolean
  readonly stoppedBecause?: string | undefined
  readonly compare: boolean
  /** How many of the slowest queries to list per target (default 10). */
  readonly slowest?: number | undefined
}

const increment = (record: Record<string, number>, key: string) => {
  record[key] = (record[key] ?? 0) + 1
}

const sortedRecord = (record: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => Number(a) - Number(b) || a.localeCompare(b)))

/** The report of a run from its results. */
export const buildReport = (input: BuildReportInput): Report => {
  const slowestCount = input.slowest ?? 10
  const targets = input.targetNames.map((target, t): TargetReport => {
    const statuses: Record<string, number> = {}
    const errorsByStatus: Record<string, number> = {}
    const failures: Record<string, number> = {}
    const latencies: Array<number> = []
    const answered: Array<SlowQuery> = []
    for (const r of input.results) {
      const a = r.answers[t]
      if (a === undefined) continue
      increment(statuses, String(a.status))
      if (a.status < 200 || a.status > 299) increment(errorsByStatus, String(a.status))
      if (a.status === 0) increment(failures, a.failure ?? "no answer")
      else {
        latencies.push(a.latencyMs)
        answered.push({ line: r.query.line, target: requestTarget(r.query), status: a.status, latencyMs: a.latencyMs })
      }
    }
    answered.sort((x, y) => y.latencyMs - x.latencyMs)
    return {
      target,
      statuses: sortedRecord(statuses),
      errorsByStatus: sortedRecord(errorsByStatus),
      errors: Object.values(errorsByStatus).reduce((a, b) => a + b, 0),
      failures,
      latencyMs: summarizeLatencies(latencies),
      slowest: answered.slice(0, slowestCount)
    }
  })
  let compare: Report["compare"]
  if (input.compare) {
    let same = 0
    let different = 0
    let formatsDiffer = 0
    const differences: Array<Difference> = []
    for (const r of input.results) {
      const c = r.comparison
      if (c === undefined) continue
      if (c._tag === "Same") same++
      else if (c._tag === "FormatsDiffer") formatsDiffer++
      else {
        different++
        differences.push({
          line: r.query.line,
          target: requestTarget(r.query),
          ...(c.status !== undefined ? { status: c.status } : {}),
          ...(c.body !== undefined ? { path: c.body.path, detail: c.body.detail } : {})
        })
      }
    }
    compare = { same, different, formatsDiffer, differences }
  }
  const queries = input.results.length
  return {
    input: input.input,
    complete: input.complete,
    ...(input.stoppedBecause !== undefined ? { stoppedBecause: input.stoppedBecause } : {}),
    startedAt: input.startedAt.toISOString(),
    pacing: input.pacing,
    planned: input.planned,
    queries,
    wallSeconds: input.wallSeconds,
    throughputPerSecond: input.wallSeconds > 0 ? queries / input.wallSeconds : 0,
    targets,
    ...(compare !== undefined ? { compare } : {})
  }
}

const ms = (v: number | undefined): string => (v === undefined ? "-" : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2))

const counts = (record: Readonly<Record<string, number>>): string =>
  Object.entries(record)
    .map(([k, n]) => `${k === "0" ? "no answer" : k}: ${n}`)
    .join(", ") || "none"

const clip = (s: string, n = 110): string => (s.length > n ? `${s.slice(0, n - 3)}...` : s)

/** How many differences the text report lists (the JSON report has them all). */
export const MAX_LISTED_DIFFERENCES = 50

/** The report as text for a terminal. */
export const formatReport = (report: Report): string => {
  const lines: Array<string> = []
  const state = report.complete ? "" : ` (INTERRUPTED${report.stoppedBecause ? `: ${report.stoppedBecause}` : ""}; partial report)`
  lines.push(`replay of ${report.input}${state}`)
  lines.push(
    `  ${report.queries} of ${report.planned} queries in ${report.wallSeconds.toFixed(2)} s: ${report.throughputPerSecond.toFixed(1)} queries/s (${report.pacing})`
  )
  for (const t of report.targets) {
    const l = t.latencyMs
    lines.push(`target ${t.target}`)
    lines.push(`  statuses: ${counts(t.statuses)}`)
    lines.push(`  errors: ${t.errors}${t.errors > 0 ? ` (${counts(t.errorsByStatus)})` : ""}`)
    for (const [why, n] of Object.entries(t.failures)) lines.push(`  no answer: ${n} x ${why}`)
    lines.push(
      `  latency ms (nearest rank): p50 ${ms(l.p50)}  p90 ${ms(l.p90)}  p99 ${ms(l.p99)}  p99.9 ${ms(l["p99.9"])}  max ${ms(l.max)}  (mean ${ms(l.mean)})`
    )
    if (t.slowest.length > 0) {
      lines.push(`  slowest:`)
      for (const s of t.slowest) lines.push(`    ${ms(s.latencyMs).padStart(7)} ms  ${s.status}  line ${s.line}  ${clip(s.target)}`)
    }
  }
  if (report.compare !== undefined) {
    const c = report.compare
    lines.push(`compare: ${c.same} same, ${c.different} different${c.formatsDiffer > 0 ? `, ${c.formatsDiffer} XML vs JSON (status compared only)` : ""}`)
    for (const d of c.differences.slice(0, MAX_LISTED_DIFFERENCES)) {
      const what: Array<string> = []
      if (d.status !== undefined) what.push(`status ${d.status[0]} != ${d.status[1]}`)
      if (d.path !== undefined) what.push(`body at ${d.path === "" ? "(root)" : d.path}: ${d.detail ?? ""}`)
      lines.push(`  line ${d.line}  ${clip(d.target, 90)}`)
      lines.push(`    ${what.join("; ")}`)
    }
    if (c.differences.length > MAX_LISTED_DIFFERENCES) {
      lines.push(`  ... and ${c.differences.length - MAX_LISTED_DIFFERENCES} more (all of them in --json)`)
    }
  }
  return `${lines.join("\n")}\n`
}
