import { StoreUnavailable } from "@tripsearch/core"
import { Effect } from "effect"

/**
 * How long a read made for a request may take before the request is answered without it: a
 * database that is down refuses connections at once, but one behind a broken network would
 * otherwise hold the request until the connection times out.
 */
export const READ_DEADLINE_MS = 3_000

/** Error codes that mean "the database cannot be reached now", not "this query is wrong". */
const UNREACHABLE_CODES = new Set([
  // the client's own (postgres.js) and the socket's
  "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT",
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE",
  // the server's: shutting down, starting up, out of connections
  "57P01", "57P02", "57P03", "53300"
])

/** Whether an error of the client says the database cannot be reached (SQLSTATE class 08 included). */
export const isUnreachable = (error: unknown): boolean => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return typeof code === "string" && (UNREACHABLE_CODES.has(code) || code.startsWith("08"))
}

/**
 * A read as an Effect: the database being unreachable is the `StoreUnavailable` defect, answered
 * 503; any other error stays an ordinary defect. A read made for a request (`deadline`) is also
 * given up after `READ_DEADLINE_MS`; the index's reads are not (catching up after an outage may
 * read many rows), and a connection that cannot be opened fails them within
 * `CONNECT_TIMEOUT_SECONDS`.
 */
export const storeRead = <A>(query: () => Promise<A>, deadline = true): Effect.Effect<A> =>
  Effect.tryPromise({ try: query, catch: (e) => e }).pipe(
    deadline
      ? Effect.timeoutFail({
          duration: READ_DEADLINE_MS,
          onTimeout: () => new StoreUnavailable({ message: `PostgreSQL did not answer within ${READ_DEADLINE_MS} ms` })
        })
      : (effect) => effect,
    Effect.catchAll((e) =>
      Effect.die(e instanceof StoreUnavailable ? e : isUnreachable(e) ? new StoreUnavailable({ message: `PostgreSQL cannot be reached: ${messageOf(e)}` }) : e)
    )
  )

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))
