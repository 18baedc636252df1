// Embedding the search in another Node service: the core, the trip store (a SQLite file or a
// PostgreSQL database) and the gazetteer, composed as Effect layers and used through the Promise API.
// Run from any folder: node examples/embedded/embedded-search.mjs [DB] [FROM]
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Layer } from "effect"
import { InMemoryTripMatcher, TripSearchClient } from "@tripsearch/core"
import { GazetteerPlaceNames, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { isPostgresUrl, tripStoreLayer } from "@tripsearch/store"

// The store `npm start` creates, found from this file rather than from the working directory.
const DEFAULT_DB = fileURLToPath(new URL("../../data/tripsearch.db", import.meta.url))
const USAGE = `usage: node examples/embedded/embedded-search.mjs [DB] [FROM]
  DB     a trip store: a SQLite file (default ${DEFAULT_DB}, which npm start creates)
         or a PostgreSQL database, postgres://user@host:5432/database
  FROM   the departure place (default Paris)`

const args = process.argv.slice(2)
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE)
  process.exit(0)
}
const [db = DEFAULT_DB, from = "Paris"] = args
// Opening a missing path would create an empty store there (or fail deep in a layer): say so instead.
if (!isPostgresUrl(db) && !existsSync(db)) {
  console.error(`embedded-search: no trip store at ${db}; run npm start once to create the default one, or give a store path\n${USAGE}`)
  process.exit(1)
}

const store = tripStoreLayer(db)
const client = await TripSearchClient.make(
  Layer.mergeAll(store, GazetteerPlaceResolver.layer, GazetteerPlaceNames.layer, Layer.provide(InMemoryTripMatcher.layer, store))
)

let result
try {
  result = await client.search({ locale: "fr_FR", cur: "EUR", fn: from, limit: "5" })
} catch (error) {
  // A place no gazetteer entry matches (PlaceNotFound) or a bad parameter: the core's tagged error, said in one line.
  console.error(`embedded-search: ${error._tag ?? "error"}: ${error.message}`)
  await client.close()
  process.exit(1)
}
console.log(`${result.pager.total} trips from ${from}`)
for (const trip of result.trips) {
  console.log(`${trip.departure_date}  ${trip.departure_place.city_name} -> ${trip.arrival_place.city_name}  ${trip.price.string_value}  ${trip.permanent_id}`)
}

try {
  await client.search({ locale: "fr_FR", cur: "GBP", fn: from })
} catch (error) {
  console.log(`refused: ${error._tag} ${error.message}`)
}
await client.close()
