export * from "./migrations.js"
export * from "./openDatabase.js"
export * from "./importFeed.js"
export * from "./SqliteTripStore.js"
export * from "./keys.js"
export * from "./SqliteKeyStore.js"
// The feed's reading and decoding moved to store-common, which both stores use; the names stay
// importable from here for the code that imported them before.
export {
  acceptFeedTrip, cachedOffsetAt, decodeFeedLineFast, type FeedSource, firstInvalidUtf8, INDEX_COLUMNS, packRecord, readLines,
  readRoadStops, toTripRow, type TripRow, unpackRecord, zoneOffsetsOf
} from "@tripsearch/store-common"
export * from "./importMeetingPoints.js"
