import { setTimeout as sleep } from "node:timers/promises"

/** How queries are started. */
export type Pacing =
  /** As fast as possible, `concurrency` queries in flight. */
  | { readonly _tag: "Concurrency"; readonly concurrency: number }
  /** `perSecond` query starts per second, whatever the answers take (open loop). */
  | { readonly _tag: "Rate"; readonly perSecond: number }
  /** The recorded timing (the log's `time`), `speed` times faster (1: real time). */
  | { readonly _tag: "Recorded"; readonly speed: number }

/** Queries in flight at most with `--rate` / `--speed` (an overloaded target makes the run fall behind, not explode). */
export const DEFAULT_MAX_IN_FLIGHT = 512

/**
 * When query `i` starts, in ms after the run's start, for the paced modes; `undefined` for
 * `Concurrency` (each starts when a slot frees). `Recorded` needs every query's `timeMs`; times are
 * taken relative to the first query, and a time earlier than a previous one starts at once.
 */
export const startOffsetsMs = (pacing: Pacing, times: ReadonlyArray<number | undefined>): Array<number> | undefined => {
  switch (pacing._tag) {
    case "Concurrency":
      return undefined
    case "Rate":
      return times.map((_, i) => (i * 1000) / pacing.perSecond)
    case "Recorded": {
      const first = times[0]
      let latest = 0
      return times.map((t, i) => {
        if (t === undefined || first === undefined) throw new Error(`query ${i + 1} has no recorded time`)
        latest = Math.max(latest, (t - first) / pacing.speed)
        return latest
      })
    }
  }
}

export interface PacedRun {
  readonly count: number
  readonly pacing: Pacing
  /** Recorded times (epoch ms) of the queries, for `Recorded`. */
  readonly times: ReadonlyArray<number | undefined>
  /** Limit of queries in flight for the paced modes. */
  readonly maxInFlight?: number | undefined
  /** Stops starting new queries (those in flight finish). */
  readonly signal?: AbortSignal | undefined
  readonly run: (index: number) => Promise<void>
  /** Current time in ms (tests). */
  readonly now?: () => number
}

/** Runs `run(0..count-1)` with the pacing; resolves with the number of queries started. */
export const runPaced = async (options: PacedRun): Promise<number> => {
  const now = options.now ?? (() => performance.now())
  const offsets = startOffsetsMs(options.pacing, options.times)
  const maxInFlight =
    options.pacing._tag === "Concurrency" ? Math.max(1, options.pacing.concurrency) : Math.max(1, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT)
  const inFlight = new Set<Promise<void>>()
  const started = now()
  let count = 0
  for (let i = 0; i < options.count; i++) {
    if (options.signal?.aborted) break
    if (offsets !== undefined) {
      const wait = started + offsets[i]! - now()
      if (wait > 0) {
        try {
          await sleep(wait, undefined, options.signal ? { signal: options.signal } : {})
        } catch {
          break // aborted while waiting
        }
      }
    }
    while (inFlight.size >= maxInFlight) await Promise.race(inFlight)
    if (options.signal?.aborted) break
    const p: Promise<void> = options.run(i).then(
      () => void inFlight.delete(p),
      () => void inFlight.delete(p)
    )
    inFlight.add(p)
    count++
  }
  await Promise.all(inFlight)
  return count
}
