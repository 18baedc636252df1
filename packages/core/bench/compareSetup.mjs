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

/** `--db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js`, or the usage and exit. */
export const compareArgs = (script) => {
  const { values } = parseArgs({ options: { db: { type: "string" }, log: { type: "string" }, previous: { type: "string" }, help: { type: "boolean" } }, strict: true })
  if (values.help || !values.db || !values.log || !values.previous) {
    console.log(`usage: node packages/core/bench/${script} --db STORE --log QUERY_LOG --previous OTHER/packages/core/dist/index.js`)
    process.exit(values.help ? 0 : 2)
  }
  return { store: makeSqliteTripStore(openDatabase(values.db, { readonly: true })), log: values.log, previousUrl: pathToFileURL(resolve(values.previous)).href }
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
