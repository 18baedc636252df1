import { Effect, Exit, Option } from "effect"
import { InvalidKey, InvalidParameter, KeyStore, MissingKey, QuotaExceeded } from "@tripsearch/core"
import type { ReplyBody } from "./encodeBody.js"
import { errorReplyOfCause } from "./httpErrors.js"
import type { KeySources } from "./readApiRequest.js"

/** The daily quota of the key that asked, after the request. */
export interface RateLimit {
  readonly limit: number
  readonly remaining: number
}

/** How an admitted request went: the use-case's exit, and the key's quota when one was checked. */
export interface Admitted {
  readonly exit: Exit.Exit<ReplyBody, unknown>
  readonly rate?: RateLimit | undefined
}

/** Per-request facts an admission may need. */
export interface AdmissionContext {
  readonly requestId: string
  /** When the request arrived (epoch ms): the quota day. */
  readonly receivedAtMs: number
}

/**
 * What stands between a request and its use-case (keys and quotas for the server). A failure of
 * the returned Effect is the answer (401, 403, 400) and carries no rate headers.
 */
export type Admission<R> = <U>(
  keys: KeySources,
  useCase: Effect.Effect<ReplyBody, unknown, U>,
  context: AdmissionContext
) => Effect.Effect<Admitted, unknown, U | R>

/** No admission: the use-case runs for every request (the embedded core, the replay tool). */
export const admitAll: Admission<never> = (_keys, useCase) => Effect.map(Effect.exit(useCase), (exit) => ({ exit }))

/** `YYYY-MM-DD` of the UTC day of an instant (the quota day). */
export const utcDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10)

/** Whole seconds (at least 1) from an instant to the next UTC midnight. */
export const secondsToUtcMidnight = (nowMs: number): number => {
  const d = new Date(nowMs)
  const midnight = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
  return Math.max(1, Math.ceil((midnight - nowMs) / 1000))
}

/**
 * Keys and quotas (docs/API.md, Keys): the key from the `key` header, else the query's (given at most
 * once); none is 401, unknown or revoked 403; a spent daily quota answers 429 until the next UTC
 * midnight without running the use-case. The request counts when it answered 200 or 404.
 */
export const keyQuota: Admission<KeyStore> = (keys, useCase, context) =>
  Effect.gen(function* () {
    let plainKey: string | undefined
    if (keys.header !== undefined && keys.header !== "") plainKey = keys.header
    else if (typeof keys.query !== "string" && keys.query !== undefined) {
      return yield* new InvalidParameter({ parameter: "key", message: "key: must be given at most once" })
    } else if (keys.query !== undefined && keys.query !== "") plainKey = keys.query
    if (plainKey === undefined) return yield* new MissingKey()

    const store = yield* KeyStore
    const found = yield* store.find(plainKey)
    if (Option.isNone(found) || found.value.revoked) return yield* new InvalidKey()
    const key = found.value
    const day = utcDay(context.receivedAtMs)
    const used = yield* store.usage(key.id, day)
    if (used >= key.dailyLimit) {
      const exceeded = new QuotaExceeded({ limit: key.dailyLimit, retryAfterSeconds: secondsToUtcMidnight(context.receivedAtMs) })
      return { exit: Exit.fail(exceeded), rate: { limit: key.dailyLimit, remaining: 0 } }
    }
    const exit = yield* Effect.exit(useCase)
    const status = Exit.isSuccess(exit) ? 200 : errorReplyOfCause(exit.cause, context.requestId).status
    const counted = status === 200 || status === 404
    if (counted) yield* store.count(key.id, day)
    return { exit, rate: { limit: key.dailyLimit, remaining: Math.max(0, key.dailyLimit - used - (counted ? 1 : 0)) } }
  })
