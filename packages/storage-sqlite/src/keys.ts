import { type CreateKeyInput, KEY_COLUMNS, type KeyInfo, keyInfoOf, type KeyRow, hashKey, newKey } from "@tripsearch/store-common"
import type { SqliteDatabase } from "./openDatabase.js"

export { BASIC_DAILY_LIMIT, type CreateKeyInput, hashKey, KEY_COLUMNS, type KeyInfo, keyInfoOf, PRODUCTION_DAILY_LIMIT } from "@tripsearch/store-common"

/** Creates an API key (`newKey`'s rules): the plain key is returned once and only its SHA-256 is stored. */
export const createKey = (db: SqliteDatabase, input: CreateKeyInput): { readonly id: string; readonly key: string } => {
  const k = newKey(input)
  db.prepare("INSERT INTO api_keys (id, name, tier, daily_limit, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)").run(
    k.id, k.name, k.tier, k.dailyLimit, k.hash, k.createdAt
  )
  return { id: k.id, key: k.key }
}

/** Every key, revoked ones included, oldest first. */
export const listKeys = (db: SqliteDatabase): ReadonlyArray<KeyInfo> =>
  (db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, rowid`).all() as Array<KeyRow>).map(keyInfoOf)

/** Revokes a key; false when no such key or already revoked. */
export const revokeKey = (db: SqliteDatabase, id: string): boolean =>
  db.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL").run(new Date().toISOString(), id).changes === 1

/** Looks a plain key up by its hash, revoked ones included. */
export const findKeyByPlain = (db: SqliteDatabase, plainKey: string): KeyInfo | undefined => {
  const row = db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`).get(hashKey(plainKey)) as KeyRow | undefined
  return row === undefined ? undefined : keyInfoOf(row)
}
