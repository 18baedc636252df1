import postgres from "postgres"

export type Sql = postgres.Sql

/** Whether a `--db` / `TRIPSEARCH_DB` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db)

/** How long opening a connection may take. */
export const CONNECT_TIMEOUT_SECONDS = 3

export interface ConnectOptions {
  /** Connections in the pool (default 4). */
  readonly max?: number
}

/**
 * A pool of connections to the database at `url` (`postgres://user@host:port/db`). Change
 * sequence numbers and counts are int8 in the database and plain numbers here: they stay far below
 * 2^53. Server notices (an `IF NOT EXISTS` that found the table) are not printed.
 */
export const connectPostgres = (url: string, options: ConnectOptions = {}): Sql =>
  postgres(url, {
    max: options.max ?? 4,
    // A database that cannot be reached is reported within seconds, not after the default 30.
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    onnotice: () => {},
    connection: { application_name: "tripsearch" },
    types: {
      int8: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) }
    }
  }) as unknown as Sql
