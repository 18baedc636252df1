import { parseArgs } from "node:util"
import type { GenerateFeedOptions } from "./generateFeed.js"
import type { QueryMix } from "./generateQueryLog.js"

export const USAGE = `usage: tripsearch-generate --trips N --seed S --now ISO [--out FILE] [--meeting-points-out FILE] [--roads on|off]
                           [--dense] [--queries Q --queries-out FILE [--queries-mix heavy|wide|dense]]

Writes a deterministic trip feed (NDJSON, one trip per line) to stdout or FILE.
  --trips N             number of trips, an integer >= 0
  --seed S              any text; the same seed (and --now) gives the same feed
  --now ISO             reference instant, ISO 8601 with offset (2026-03-01T10:00:00Z):
                        departures fall within the 30 days after it
  --out FILE            write to FILE instead of stdout
  --meeting-points-out FILE
                        also write the meeting point feed (NDJSON, one per line: town centres,
                        stations, motorway exits, park-and-rides, service areas) to FILE; it is the
                        same for every seed and --trips; waypoints' meeting_point_id name its lines
  --roads on|off        on (default): every leg carries path, the driver's road (encoded polyline);
                        off: the same trips without path, to compare with a build without roads
  --dense               every trip between two of its country's 100 largest towns (by gravity)
  --queries Q           also write Q recorded-query-log lines over the feed's trips
  --queries-out FILE    where those go (the API's QUERY_LOG format, for tripsearch-replay)
  --queries-mix MIX     default: the historical traffic (mostly city pairs, some details reads);
                        heavy: only searches, single places and pairs, radii of 1-300 km, filters,
                        later pages (the search benchmark's mix); 35% of them from a town a busy
                        road passes (rarely a waypoint) to the road's end or beyond, so that many
                        answers hold drivers who pass without stopping;
                        wide: single places and pairs with radius, radius_from or radius_to of
                        100-500 km; dense: pairs of the feed at the default radius (with --dense,
                        between the largest towns)`

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/

/** `Date.parse` rolls 2026-02-30 over to March; a wrong day or hour is a typo, not a date. */
const isCalendarDate = (iso: string): boolean => {
  const [y, m, d, hh, mm] = [0, 5, 8, 11, 14].map((at) => Number(iso.slice(at, at === 0 ? 4 : at + 2)))
  const date = new Date(Date.UTC(y!, m! - 1, d!))
  return date.getUTCMonth() === m! - 1 && date.getUTCDate() === d && hh! <= 23 && mm! <= 59
}

/** A command line the generator cannot run. */
export class UsageError extends Error {}

/** The command line as generator options, or a `UsageError` naming what is wrong. */
export interface CommandLine extends GenerateFeedOptions {
  readonly out?: string
  readonly meetingPointsOut?: string
  readonly queries?: { readonly count: number; readonly out: string; readonly mix: QueryMix }
}

export const parseCommandLine = (args: ReadonlyArray<string>): CommandLine | "help" => {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...args],
      options: {
        trips: { type: "string" },
        seed: { type: "string" },
        now: { type: "string" },
        out: { type: "string" },
        "meeting-points-out": { type: "string" },
        roads: { type: "string" },
        dense: { type: "boolean" },
        queries: { type: "string" },
        "queries-out": { type: "string" },
        "queries-mix": { type: "string" },
        help: { type: "boolean", short: "h" }
      },
      strict: true,
      allowPositionals: false
    }))
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  if (values.help) return "help"
  const missing = (["trips", "seed", "now"] as const).filter((k) => values[k] === undefined)
  if (missing.length > 0) throw new UsageError(`missing ${missing.map((k) => `--${k}`).join(", ")}`)
  const trips = Number(values.trips)
  if (!/^\d+$/.test(values.trips!) || !Number.isSafeInteger(trips)) throw new UsageError(`--trips must be an integer >= 0, got "${values.trips}"`)
  if (values.seed === "") throw new UsageError("--seed must not be empty")
  const nowMs = Date.parse(values.now!)
  if (!ISO_INSTANT.test(values.now!) || Number.isNaN(nowMs) || !isCalendarDate(values.now!)) {
    throw new UsageError(`--now must be an ISO 8601 date-time with offset like 2026-03-01T10:00:00Z, got "${values.now}"`)
  }
  if (values.out === "") throw new UsageError("--out must name a file")
  if (values["meeting-points-out"] === "") throw new UsageError("--meeting-points-out must name a file")
  if (values.roads !== undefined && values.roads !== "on" && values.roads !== "off") throw new UsageError(`--roads must be on or off, got "${values.roads}"`)
  if ((values.queries === undefined) !== (values["queries-out"] === undefined)) throw new UsageError("--queries and --queries-out go together")
  if (values["queries-out"] === "") throw new UsageError("--queries-out must name a file")
  const mix = values["queries-mix"] ?? "default"
  if (mix !== "default" && mix !== "heavy" && mix !== "wide" && mix !== "dense") throw new UsageError(`--queries-mix must be default, heavy, wide or dense, got "${mix}"`)
  if (values["queries-mix"] !== undefined && values.queries === undefined) throw new UsageError("--queries-mix goes with --queries")
  let queries: CommandLine["queries"]
  if (values.queries !== undefined) {
    const count = Number(values.queries)
    if (!/^\d+$/.test(values.queries) || !Number.isSafeInteger(count)) throw new UsageError(`--queries must be an integer >= 0, got "${values.queries}"`)
    queries = { count, out: values["queries-out"]!, mix }
  }
  return {
    trips,
    seed: values.seed!,
    nowMs,
    ...(values.roads === "off" ? { roads: false } : {}),
    ...(values.dense === true ? { dense: true } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values["meeting-points-out"] !== undefined ? { meetingPointsOut: values["meeting-points-out"] } : {}),
    ...(queries ? { queries } : {})
  }
}
