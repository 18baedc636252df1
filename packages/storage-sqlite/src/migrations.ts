import type { RoadStop } from "@tripsearch/core"
import { encodeRoadStops } from "@tripsearch/store-common"
import type { SqliteDatabase } from "./openDatabase.js"

/** The covering index the index scan reads (migration 5), also rebuilt by a bulk import. */
export const TRIPS_SCAN_INDEX = "CREATE INDEX trips_scan ON trips (status, id, packed, shown, road_stops)"

/**
 * A migration step: SQL, or a function for what SQL cannot do (re-encoding a column's values).
 */
export type Migration = string | ((db: SqliteDatabase) => void)

/**
 * Versioned schema migrations. Step `k` (0-based) moves the database from `user_version = k` to
 * `k + 1`; each step runs in its own transaction. Append new steps, never edit applied ones.
 */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );

  -- One row per trip id. The columns after trip_json are derived at import so that scanning the
  -- whole table into IndexRecords needs no JSON parsing (see packTrip.ts for the BLOB layout).
  CREATE TABLE trips (
    id            TEXT PRIMARY KEY,
    status        TEXT NOT NULL CHECK (status IN ('active', 'cancelled')),
    seq           INTEGER NOT NULL,
    departure_ms  INTEGER NOT NULL,
    currency      TEXT NOT NULL,
    seats         INTEGER NOT NULL,
    seats_left    INTEGER NOT NULL,
    booking_type  TEXT NOT NULL,
    flags         INTEGER NOT NULL, -- bit 0 auto booking, bit 1 short service, bit 2 driver photo
    experience    INTEGER NOT NULL,
    comfort_stars INTEGER NOT NULL,
    packed        BLOB NOT NULL,    -- per-waypoint and per-leg numbers, float64 little-endian
    zone_offsets  TEXT NOT NULL,    -- JSON array of minutes, one per waypoint
    trip_json     TEXT NOT NULL     -- the decoded feed trip, defaults applied
  );
  CREATE UNIQUE INDEX trips_seq ON trips (seq);

  -- Overrides of DEFAULT_RATES: units of currency per EUR.
  CREATE TABLE rates (
    currency TEXT PRIMARY KEY,
    per_eur  REAL NOT NULL CHECK (per_eur > 0)
  );

  CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    tier        TEXT NOT NULL CHECK (tier IN ('basic', 'production')),
    daily_limit INTEGER NOT NULL CHECK (daily_limit >= 0),
    key_hash    TEXT NOT NULL UNIQUE, -- hex SHA-256 of the key; the key itself is never stored
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
  );

  CREATE TABLE key_usage (
    key_id TEXT NOT NULL REFERENCES api_keys (id),
    day    TEXT NOT NULL, -- YYYY-MM-DD, UTC
    count  INTEGER NOT NULL,
    PRIMARY KEY (key_id, day)
  ) WITHOUT ROWID;
  `,
  `
  -- A covering index for the index scan (SELECT id, packed ... WHERE status = 'active'): a worker
  -- starting up then reads ~250 MB of index pages for a million trips instead of the whole table
  -- (trip_json included, ~2 GB), which matters most when the file is not in the page cache.
  CREATE INDEX trips_scan ON trips (status, id, packed);
  `,
  `
  -- Names this file's history of change sequence numbers (TripStore.identity): an index snapshot
  -- taken from another store, or from a copy started afresh, is then never taken for this one's.
  INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));
  `,
  `
  -- What a search shows of a trip beyond \`packed\` (core's encodeShown), written by the import so
  -- that the index's scan reads it from the covering index instead of parsing every trip_json.
  -- Rows imported before this column have NULL here: the scan reads their trip_json instead.
  ALTER TABLE trips ADD COLUMN shown BLOB;
  DROP INDEX trips_scan;
  CREATE INDEX trips_scan ON trips (status, id, packed, shown);
  `,
  `
  -- Meeting points (docs/FEED.md), and each trip's stops along the road worked out from its legs'
  -- paths and the active meeting points (JSON, NULL without any), with its road's bounding box so
  -- that a changed meeting point finds the trips whose road may pass it.
  CREATE TABLE meeting_points (
    id      INTEGER PRIMARY KEY,
    status  TEXT NOT NULL CHECK (status IN ('active', 'removed')),
    lat     REAL NOT NULL,
    lon     REAL NOT NULL,
    mp_json TEXT NOT NULL, -- the decoded feed line, defaults applied
    version INTEGER NOT NULL -- meta's meeting_points_version when the import last changed it
  );
  CREATE INDEX meeting_points_version ON meeting_points (version);
  ALTER TABLE trips ADD COLUMN road_stops TEXT;
  ALTER TABLE trips ADD COLUMN road_min_lat REAL;
  ALTER TABLE trips ADD COLUMN road_max_lat REAL;
  ALTER TABLE trips ADD COLUMN road_min_lon REAL;
  ALTER TABLE trips ADD COLUMN road_max_lon REAL;
  CREATE INDEX trips_road_box ON trips (road_min_lat, road_max_lat, road_min_lon, road_max_lon, id) WHERE road_min_lat IS NOT NULL;
  DROP INDEX trips_scan;
  ${TRIPS_SCAN_INDEX};
  `,
  // road_stops from JSON text to store-common's encodeRoadStops BLOB (the column keeps its declared
  // type: SQLite stores a BLOB as given whatever the column's affinity).
  (db) => {
    db.function("tripsearch_road_stops_blob", { deterministic: true }, (json: unknown) =>
      typeof json === "string" ? encodeRoadStops(JSON.parse(json) as Array<RoadStop>) : json
    )
    db.exec("UPDATE trips SET road_stops = tripsearch_road_stops_blob(road_stops) WHERE road_stops IS NOT NULL")
  }
]
