// What the before-against-after benchmarks share: their command line, the store both builds read,
// an index of either build loaded from it, and a query log's searches run through a build's whole
// use-case over the services given.
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { Context, Effect } from "effect"
import { Gazetteer, GazetteerPlaceResolver } from "../../gazetteer/dist/index.js"
import { makeSqliteTripStore, openDatabase } from "../../storage-sqlite/dist/index.js"

/**
 * `--db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js`, with `withFirst`
 * `[--first previous|this]` too, or the usage and exit. `--first` says which build's index is
 * loaded first (default the previous one's): on a 2-core VM, searches whose code did not change
 * have come out up to 7% apart between the two indexes, so a small difference is worth checking
 * with the order swapped.
 */
export const compareArgs = (script, withFirst = false) => {
  const { values } = parseArgs({
    options: {
      db: { type: "string" },
      log: { type: "string" },
      previous: { type: "string" },
      ...(withFirst ? { first: { type: "string", default: "previous" } } : {}),
      help: { type: "boolean" }
    },
    strict: true
  })
  const badFirst = withFirst && values.first !== "previous" && values.first !== "this"
  if (values.help || !values.db || !values.log || !values.previous || badFirst) {
    console.log(`usage: node packages/core/bench/${script} --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js${withFirst ? " [--first previous|this]" : ""}`)
    process.exit(values.help ? 0 : 2)
  }
  return { store: makeSqliteTripStore(openDatabase(values.db, { readonly: true })), log: values.log, previousUrl: pathToFileURL(resolve(values.previous)).href, thisFirst: values.first === "this" }
}

/** An index of class `TripIndex` (either build's) holding every trip of `store`. */
export const loadIndex = (TripIndex, store) => {
  const index = new TripIndex()
  index.beginLoad()
  Effect.runSync(store.scanIndex((r) => index.upsert(r)))
  index.endLoad()
  return index
}

/** The recorded queries of a query log. */
export const readLog = (path) => readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line))

const gazetteer = Gazetteer.shared()

/** A build's (`core`, its module) services over `store`, its matcher `match`. */
export const servicesOf = (core, store, match) =>
  Context.make(core.TripStore, store).pipe(Context.add(core.TripMatcher, { match }), Context.add(core.PlaceResolver, GazetteerPlaceResolver.service(() => gazetteer)))

/** A recorded query through a build's search use-case (`searchTrips`), its answer or its error. */
export const runQuery = (searchTrips, services, q) =>
  Effect.runSync(Effect.either(Effect.provide(searchTrips(Object.fromEntries(new URLSearchParams(q.query)), { apiBaseUrl: "http://x", websiteBaseUrl: "http://w", path: q.path, query: q.query }), services)))
