/** The percentiles the report shows. */
export const REPORT_PERCENTILES = [50, 90, 99, 99.9] as const

/**
 * Nearest-rank percentile: the smallest recorded value such that at least `p` % of the values are
 * less than or equal to it, i.e. the value of rank `ceil(p / 100 * n)` (1-based) in ascending
 * order. It is always a value that was measured (no interpolation). `p` in (0, 100]; an empty
 * list has no percentile (`undefined`).
 */
export const nearestRank = (sortedAscending: ReadonlyArray<number>, p: number): number | undefined => {
  const n = sortedAscending.length
  if (n === 0) return undefined
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`)
  // Round the product first so that 99.9 % of 1000 is rank 999, not 1000 (binary floating point).
  const rank = Math.ceil(Math.round((p / 100) * n * 1e9) / 1e9)
  return sortedAscending[Math.min(n, Math.max(1, rank)) - 1]
}

export interface LatencySummary {
  readonly count: number
  readonly min: number | undefined
  readonly mean: number | undefined
  readonly p50: number | undefined
  readonly p90: number | undefined
  readonly p99: number | undefined
  readonly "p99.9": number | undefined
  readonly max: number | undefined
}

/** Count, min, mean, nearest-rank p50/p90/p99/p99.9 and max of latencies in milliseconds. */
export const summarizeLatencies = (latenciesMs: ReadonlyArray<number>): LatencySummary => {
  const sorted = Float64Array.from(latenciesMs).sort()
  const values = Array.from(sorted)
  const n = values.length
  const sum = values.reduce((a, b) => a + b, 0)
  return {
    count: n,
    min: n === 0 ? undefined : values[0],
    mean: n === 0 ? undefined : sum / n,
    p50: nearestRank(values, 50),
    p90: nearestRank(values, 90),
    p99: nearestRank(values, 99),
    "p99.9": nearestRank(values, 99.9),
    max: n === 0 ? undefined : values[n - 1]
  }
}
