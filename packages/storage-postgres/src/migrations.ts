import type { RoadStop } from "@tripsearch/core"
import { encodeRoadStops } from "@tripsearch/store-common"
import type { Sql } from "./connectPostgres.js"

/**
 * Versioned schema migrations. Step `k` (0-based) moves the database from version `k` (the one row
 * of `tripsearch_schema`) to `k + 1`; each step runs in its own transaction. Append new steps, never
 * edit applied ones.
 */
/** A migration step: SQL, or a function for what SQL cannot do (re-encoding a column's values). */
export type Migration = string | ((tx: Sql) => Promise<void>)

/** Rows re-encoded per statement by the road_stops step. */
const REENCODE_BATCH = 1_000

export const MIGRATIONS: ReadonlyArray<Migration> = [
  `
  CREATE TABLE meta (
    key   text PRIMARY KEY,
    value text NOT NULL
  );

  -- One row per trip id, the same columns as the SQLite store's (store-common's TripRow). Ids
  -- compare byte by byte, as SQLite compares them, so that both stores scan trips in one order.
  CREATE TABLE trips (
    id            text COLLATE "C" PRIMARY KEY,
    status        text NOT NULL CHECK (status IN ('active', 'cancelled')),
    seq           bigint NOT NULL,
    departure_ms  bigint NOT NULL,
    currency      text NOT NULL,
    seats         integer NOT NULL,
    seats_left    integer NOT NULL,
    booking_type  text NOT NULL,
    flags         integer NOT NULL, -- bit 0 auto booking, bit 1 short service, bit 2 driver photo
    experience    integer NOT NULL,
    comfort_stars integer NOT NULL,
    packed        bytea NOT NULL,   -- per-waypoint and per-leg numbers, float64 little-endian
    shown         bytea NOT NULL,   -- what a search shows beyond packed (core's encodeShown)
    zone_offsets  text NOT NULL,    -- JSON array of minutes, one per waypoint
    trip_json     text NOT NULL     -- the decoded feed trip, defaults applied (text: the exact bytes)
  );
  CREATE UNIQUE INDEX trips_seq ON trips (seq);

  -- The last change sequence number given to a trip. A writer locks this row first and keeps it
  -- until its commit, so that writers take their numbers in the order they commit: a follower that
  -- has seen change N never meets a change below N committed later.
  CREATE TABLE change_seq (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    seq bigint NOT NULL
  );
  INSERT INTO change_seq (seq) VALUES (0);

  -- Overrides of DEFAULT_RATES: units of currency per EUR.
  CREATE TABLE rates (
    currency text PRIMARY KEY,
    per_eur  double precision NOT NULL CHECK (per_eur > 0)
  );

  CREATE TABLE api_keys (
    id          text PRIMARY KEY,
    name        text NOT NULL,
    tier        text NOT NULL CHECK (tier IN ('basic', 'production')),
    daily_limit bigint NOT NULL CHECK (daily_limit >= 0),
    key_hash    text NOT NULL UNIQUE, -- hex SHA-256 of the key; the key itself is never stored
    created_at  text NOT NULL,
    revoked_at  text
  );

  CREATE TABLE key_usage (
    key_id text NOT NULL REFERENCES api_keys (id),
    day    text NOT NULL, -- YYYY-MM-DD, UTC
    count  bigint NOT NULL,
    PRIMARY KEY (key_id, day)
  );

  -- Names this database's history of change sequence numbers (TripStore.identity).
  INSERT INTO meta (key, value) VALUES ('store_id', replace(gen_random_uuid()::text, '-', ''));
  `,
  `
  -- Keys made in the same millisecond are listed in the order they were made, as SQLite's rowid
  -- lists them.
  ALTER TABLE api_keys ADD COLUMN created_order bigint GENERATED ALWAYS AS IDENTITY;
  `,
  `
  -- The index snapshot every server over this database starts from (PostgresSnapshotShelf): the
  -- bytes of a geo-pool snapshot file in chunks, and what it was taken from, read before them.
  CREATE TABLE index_snapshot (
    one        boolean PRIMARY KEY DEFAULT true CHECK (one),
    store_id   text NOT NULL,   -- TripStore.identity when it was taken
    seq        bigint NOT NULL, -- the change sequence the index was consistent with
    format     integer NOT NULL,
    bytes      bigint NOT NULL,
    written_at text NOT NULL
  );
  CREATE TABLE index_snapshot_chunks (
    n    integer PRIMARY KEY,
    data bytea NOT NULL
  );
  -- The columns are numbers that barely compress: stored as they are, not through pglz, whose
  -- compression would cost a write seconds and every read its decompression.
  ALTER TABLE index_snapshot_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
  `,
  `
  -- Meeting points, and each trip's stops along the road with its road's bounding box (as SQLite's
  -- migration 5 describes them).
  CREATE TABLE meeting_points (
    id      integer PRIMARY KEY,
    status  text NOT NULL CHECK (status IN ('active', 'removed')),
    lat     double precision NOT NULL,
    lon     double precision NOT NULL,
    mp_json text NOT NULL,
    version bigint NOT NULL
  );
  CREATE INDEX meeting_points_version ON meeting_points (version);
  ALTER TABLE trips ADD COLUMN road_stops text;
  ALTER TABLE trips ADD COLUMN road_min_lat double precision;
  ALTER TABLE trips ADD COLUMN road_max_lat double precision;
  ALTER TABLE trips ADD COLUMN road_min_lon double precision;
  ALTER TABLE trips ADD COLUMN road_max_lon double precision;
  CREATE INDEX trips_road_box ON trips (road_min_lat, road_max_lat, road_min_lon, road_max_lon) WHERE road_min_lat IS NOT NULL;
  `,
  // road_stops from JSON text to store-common's encodeRoadStops bytes.
  async (tx) => {
    await tx.unsafe("ALTER TABLE trips ALTER COLUMN road_stops TYPE bytea USING convert_to(road_stops, 'UTF8')")
    let after = ""
    for (;;) {
      const rows = await tx<Array<{ id: string; road_stops: Buffer }>>`
        SELECT id, road_stops FROM trips WHERE road_stops IS NOT NULL AND id > ${after} ORDER BY id LIMIT ${REENCODE_BATCH}`
      if (rows.length === 0) return
      const ids = rows.map((r) => r.id)
      const hex = rows.map((r) => encodeRoadStops(JSON.parse(r.road_stops.toString("utf8")) as Array<RoadStop>).toString("hex"))
      await tx`
        UPDATE trips SET road_stops = decode(v.hex, 'hex')
        FROM unnest(${tx.array(ids)}::text[], ${tx.array(hex)}::text[]) AS v(id, hex) WHERE trips.id = v.id`
      after = ids[ids.length - 1]!
    }
  }
]

/** Any number: it only has to be the same in every process migrating the same database. */
export const MIGRATION_LOCK = 7_314_420_211

/**
 * Applies the pending migrations, each step in its own transaction under an advisory lock, so that
 * replicas starting together over a new database apply each step once. Returns the schema version.
 */
export const migrate = async (sql: Sql): Promise<number> => {
  for (;;) {
    const done = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      await tx`CREATE TABLE IF NOT EXISTS tripsearch_schema (version integer NOT NULL)`
      const rows = await tx<Array<{ version: number }>>`SELECT version FROM tripsearch_schema`
      if (rows.length === 0) await tx`INSERT INTO tripsearch_schema (version) VALUES (0)`
      const current = rows[0]?.version ?? 0
      if (current > MIGRATIONS.length) {
        throw new Error(`database schema version ${current} is newer than this build knows (${MIGRATIONS.length})`)
      }
      if (current === MIGRATIONS.length) return true
      const step = MIGRATIONS[current]!
      if (typeof step === "string") await tx.unsafe(step)
      else await step(tx as unknown as Sql)
      await tx`UPDATE tripsearch_schema SET version = ${current + 1}`
      return false
    })
    if (done) return MIGRATIONS.length
  }
}

/** The schema version of the database (0 when it has none). */
export const schemaVersion = async (sql: Sql): Promise<number> => {
  const [known] = await sql<Array<{ exists: boolean }>>`SELECT to_regclass('tripsearch_schema') IS NOT NULL AS exists`
  if (!known?.exists) return 0
  const [row] = await sql<Array<{ version: number }>>`SELECT version FROM tripsearch_schema`
  return row?.version ?? 0
}
