import postgres from "postgres"

export type Sql = postgres.Sql

/** Whether a `--db` / `TRIPSEARCH_DB` value names a PostgreSQL database rather than a SQLite file. */
export const isPostgresUrl = (db: string): boolean => /^postgres(ql)?:\/\//i.test(db)

/** How long opening a connection may take. */
export const CONNECT_TIMEOUT_SECONDS = 3

/**
 * Seconds before the `retries`-th attempt to connect again since the last success: doubling from
 * 50 ms to at most `MAX_RECONNECT_DELAY_SECONDS`, with jitter so that replicas do not knock at once.
 */
export const reconnectDelaySeconds = (retries: number): number =>
  (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** Math.max(0, retries - 1), MAX_RECONNECT_DELAY_SECONDS)

/** The longest wait between two attempts to reach a database that went away. */
export const MAX_RECONNECT_DELAY_SECONDS = 0.5

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
    // The client's default waits (0.5-1) x min(3^n / 100, 20) s before its n-th attempt to connect
    // again, n counting every failure since the last success: within seconds of a database going
    // away, reads (the health check's, the index's catching up) queued for 7-20 s, and caught up
    // that long after it came back. Attempts to a database that refuses at once cost nothing.
    backoff: reconnectDelaySeconds,
    onnotice: () => {},
    connection: { application_name: "tripsearch" },
    types: {
      int8: { to: 20, from: [20], serialize: (n: number) => String(n), parse: (s: string) => Number(s) }
    }
  }) as unknown as Sql
