import { parseArgs as nodeParseArgs } from "node:util"
import type { Pacing } from "./pacing.js"

/** A target as given on the command line. */
export type TargetSpec =
  | { readonly _tag: "Core"; readonly db: string }
  | { readonly _tag: "Http"; readonly baseUrl: string; readonly key: string | undefined }

export interface CliOptions {
  readonly input: string
  readonly target: TargetSpec
  readonly compare: TargetSpec | undefined
  readonly pacing: Pacing
  readonly maxInFlight: number | undefined
  readonly skip: number
  readonly limit: number | undefined
  readonly jsonPath: string | undefined
  readonly slowest: number
  readonly apiBaseUrl: string | undefined
  readonly websiteBaseUrl: string | undefined
}

export type ParsedCommandLine = { readonly _tag: "Help" } | { readonly _tag: "Run"; readonly options: CliOptions }

/** A command line that cannot be run: the message says what is wrong. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = "UsageError"
  }
}

export const USAGE = `usage: tripsearch-replay LOG [options]

Replays recorded queries (the API's NDJSON query log, or one request path per line; "-" reads
standard input) against the embedded core or an API server, and reports statuses, throughput and
latency percentiles.

targets
  --target core --db PATH|URL  the core over a trip store: a SQLite file or a postgres:// URL (in-thread matcher)
  --target http://HOST:PORT    an API server; --key KEY is sent in the \`key\` header
  --key KEY
  --compare TARGET             also send every query to TARGET (core or a URL) and report every
                               difference in status and body; exit status 1 if any
  --db-b PATH|URL, --key-b KEY store / key of the --compare target
  --api-base-url URL           core target: base of _self links (default http://localhost)
  --website-base-url URL       core target: base of _front links (default https://www.tripsearch.example)

input
  --skip N                     skip the first N queries
  --limit N                    replay at most N queries

pacing (one of)
  --concurrency N              as fast as possible, N queries in flight (default 8)
  --rate R                     R queries started per second
  --speed S                    the recorded timing (the log's "time"), S times faster (1: real time)
  --max-in-flight N            with --rate/--speed: most queries in flight (default 512)

output
  --json FILE                  also write the report as JSON
  --slowest N                  slowest queries listed per target (default 10)
  -h, --help

exit status: 0 done, 1 --compare found differences, 2 bad usage / input / target / key,
130 interrupted (SIGINT; the partial report is printed)`

const integer = (name: string, raw: string | undefined, min: number): number | undefined => {
  if (raw === undefined) return undefined
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min) {
    throw new UsageError(`--${name} must be an integer >= ${min}, got "${raw}"`)
  }
  return Number(raw)
}

const positive = (name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined
  const n = Number(raw)
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a number > 0, got "${raw}"`)
  return n
}

const targetSpec = (flag: string, raw: string, db: string | undefined, key: string | undefined, dbFlag: string): TargetSpec => {
  if (raw === "core") {
    if (db === undefined) throw new UsageError(`${flag} core needs ${dbFlag} PATH|URL (a SQLite trip store, or a postgres:// URL)`)
    return { _tag: "Core", db }
  }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`${flag} must be "core" or an http(s) URL such as http://localhost:3000, got "${raw}"`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag} must be an http(s) URL, got "${raw}"`)
  return { _tag: "Http", baseUrl: raw.replace(/\/+$/, ""), key }
}

/** Parses the arguments (without `node` and the script). */
export const parseCommandLine = (args: ReadonlyArray<string>): ParsedCommandLine => {
  let parsed: ReturnType<typeof parse>
  const parse = (a: Array<string>) =>
    nodeParseArgs({
      args: a,
      allowPositionals: true,
      strict: true,
      options: {
        target: { type: "string" },
        db: { type: "string" },
        key: { type: "string" },
        compare: { type: "string" },
        "db-b": { type: "string" },
        "key-b": { type: "string" },
        "api-base-url": { type: "string" },
        "website-base-url": { type: "string" },
        skip: { type: "string" },
        limit: { type: "string" },
        concurrency: { type: "string" },
        rate: { type: "string" },
        speed: { type: "string" },
        "max-in-flight": { type: "string" },
        json: { type: "string" },
        slowest: { type: "string" },
        help: { type: "boolean", short: "h" }
      }
    })
  try {
    parsed = parse([...args])
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const v = parsed.values
  if (v.help === true) return { _tag: "Help" }
  if (parsed.positionals.length !== 1) {
    throw new UsageError(parsed.positionals.length === 0 ? "which log? give the query log file (or - for stdin)" : `one log file only, got ${parsed.positionals.join(" ")}`)
  }
  if (v.target === undefined) throw new UsageError("--target is required: core (with --db) or http://HOST:PORT (with --key)")
  const target = targetSpec("--target", v.target, v.db, v.key, "--db")
  const compare = v.compare === undefined ? undefined : targetSpec("--compare", v.compare, v["db-b"], v["key-b"], "--db-b")
  if (target._tag === "Http" && target.key === undefined) throw new UsageError(`--target ${target.baseUrl} needs --key KEY`)
  if (compare?._tag === "Http" && compare.key === undefined) throw new UsageError(`--compare ${compare.baseUrl} needs --key-b KEY`)

  const paced = [v.rate !== undefined ? "--rate" : undefined, v.speed !== undefined ? "--speed" : undefined].filter((x) => x !== undefined)
  if (paced.length > 1) throw new UsageError("give one of --rate and --speed")
  if (paced.length === 1 && v.concurrency !== undefined) throw new UsageError(`--concurrency applies without ${paced[0]} (use --max-in-flight)`)
  const rate = positive("rate", v.rate)
  const speed = positive("speed", v.speed)
  const pacing: Pacing =
    rate !== undefined
      ? { _tag: "Rate", perSecond: rate }
      : speed !== undefined
        ? { _tag: "Recorded", speed }
        : { _tag: "Concurrency", concurrency: integer("concurrency", v.concurrency, 1) ?? 8 }

  return {
    _tag: "Run",
    options: {
      input: parsed.positionals[0]!,
      target,
      compare,
      pacing,
      maxInFlight: integer("max-in-flight", v["max-in-flight"], 1),
      skip: integer("skip", v.skip, 0) ?? 0,
      limit: integer("limit", v.limit, 1),
      jsonPath: v.json,
      slowest: integer("slowest", v.slowest, 0) ?? 10,
      apiBaseUrl: v["api-base-url"],
      websiteBaseUrl: v["website-base-url"]
    }
  }
}
