import { createHash, randomBytes } from "node:crypto"
import type { ApiKey, KeyTier } from "@tripsearch/core"

/** Basic keys get 10,000 requests per UTC day. */
export const BASIC_DAILY_LIMIT = 10_000
/** Default daily limit of a production key (configurable per key). */
export const PRODUCTION_DAILY_LIMIT = 1_000_000

/** Hex SHA-256 of a plain key: the only form in which a key is stored. */
export const hashKey = (plainKey: string): string => createHash("sha256").update(plainKey, "utf8").digest("hex")

export interface KeyInfo extends ApiKey {
  readonly createdAt: string
  readonly revokedAt: string | null
}

export interface CreateKeyInput {
  readonly name: string
  readonly tier?: KeyTier
  /** Only for production keys (basic keys always get BASIC_DAILY_LIMIT). */
  readonly dailyLimit?: number
}

/** An `api_keys` row as both stores keep it (`KEY_COLUMNS`). */
export interface KeyRow {
  id: string
  name: string
  tier: KeyTier
  daily_limit: number
  created_at: string
  revoked_at: string | null
}

export const KEY_COLUMNS = "id, name, tier, daily_limit, created_at, revoked_at"

export const keyInfoOf = (row: KeyRow): KeyInfo => ({
  id: row.id,
  name: row.name,
  tier: row.tier,
  dailyLimit: row.daily_limit,
  revoked: row.revoked_at !== null,
  createdAt: row.created_at,
  revokedAt: row.revoked_at
})

/** A key about to be stored: its row's values, and the plain key, to be shown once. */
export interface NewKey {
  readonly id: string
  readonly key: string
  readonly name: string
  readonly tier: KeyTier
  readonly dailyLimit: number
  /** `hashKey(key)`: what the store keeps. */
  readonly hash: string
  readonly createdAt: string
}

/**
 * Checks a key's input and makes the key: 32 random URL-safe characters (192 bits), never starting
 * with "-" (command lines would read `--key -abc...` as a missing value, as the replay tool's
 * parser does). Throws on a bad input.
 */
export const newKey = (input: CreateKeyInput): NewKey => {
  const tier = input.tier ?? "basic"
  if (tier !== "basic" && tier !== "production") throw new Error(`tier must be basic or production, got ${String(tier)}`)
  if (input.name.trim() === "") throw new Error("a key needs a name")
  if (tier === "basic" && input.dailyLimit !== undefined && input.dailyLimit !== BASIC_DAILY_LIMIT) {
    throw new Error(`basic keys have a fixed daily limit of ${BASIC_DAILY_LIMIT}`)
  }
  const dailyLimit = tier === "basic" ? BASIC_DAILY_LIMIT : input.dailyLimit ?? PRODUCTION_DAILY_LIMIT
  if (!Number.isSafeInteger(dailyLimit) || dailyLimit < 1) throw new Error(`daily limit must be a positive integer, got ${dailyLimit}`)
  const id = `key-${randomBytes(6).toString("hex")}`
  let key = randomBytes(24).toString("base64url")
  while (key.startsWith("-")) key = randomBytes(24).toString("base64url")
  return { id, key, name: input.name, tier, dailyLimit, hash: hashKey(key), createdAt: new Date().toISOString() }
}
