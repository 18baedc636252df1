// Embedding the search in another Node service: the core, the SQLite store and the gazetteer,
// composed as Effect layers and used through the Promise API. Run: node embedded-search.mjs [db] [from]
import { Layer } from "effect"
import { InMemoryTripMatcher, TripSearchClient } from "@tripsearch/core"
import { GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { SqliteTripStore } from "@tripsearch/storage-sqlite"

const [dbPath = "data/tripsearch.db", from = "Paris"] = process.argv.slice(2)

const store = SqliteTripStore.layer(dbPath)
const client = await TripSearchClient.make(
  Layer.mergeAll(store, GazetteerPlaceResolver.layer, Layer.provide(InMemoryTripMatcher.layer, store))
)

const result = await client.search({ locale: "fr_FR", cur: "EUR", fn: from, limit: "5" })
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
