import { Context, type Effect, type Option } from "effect"

export type KeyTier = "basic" | "production"

export interface ApiKey {
  readonly id: string
  readonly name: string
  readonly tier: KeyTier
  readonly dailyLimit: number
  readonly revoked: boolean
}

/** API keys, stored hashed, and their daily usage (per UTC day). */
export class KeyStore extends Context.Tag("@tripsearch/core/ports/KeyStore")<
  KeyStore,
  {
    /** Looks a plain key up by its hash. */
    readonly find: (plainKey: string) => Effect.Effect<Option.Option<ApiKey>>
    /** Requests counted for the key on `day` (`YYYY-MM-DD`, UTC). */
    readonly usage: (keyId: string, day: string) => Effect.Effect<number>
    /** Counts one request for the key on `day`. */
    readonly count: (keyId: string, day: string) => Effect.Effect<void>
  }
>() {}
