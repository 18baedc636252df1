import { type CreateKeyInput, hashKey, KEY_COLUMNS, type KeyInfo, keyInfoOf, type KeyRow, newKey } from "@tripsearch/store-common"
import type { Sql } from "./connectPostgres.js"

/** Creates an API key (store-common's `newKey` rules): the plain key is returned once and only its SHA-256 is stored. */
export const createKey = async (sql: Sql, input: CreateKeyInput): Promise<{ readonly id: string; readonly key: string }> => {
  const k = newKey(input)
  await sql`
    INSERT INTO api_keys (id, name, tier, daily_limit, key_hash, created_at)
    VALUES (${k.id}, ${k.name}, ${k.tier}, ${k.dailyLimit}, ${k.hash}, ${k.createdAt})`
  return { id: k.id, key: k.key }
}

/** Every key, revoked ones included, oldest first. */
export const listKeys = async (sql: Sql): Promise<ReadonlyArray<KeyInfo>> =>
  (await sql.unsafe<Array<KeyRow>>(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, created_order`)).map(keyInfoOf)

/** Revokes a key; false when no such key or already revoked. */
export const revokeKey = async (sql: Sql, id: string): Promise<boolean> =>
  (await sql`UPDATE api_keys SET revoked_at = ${new Date().toISOString()} WHERE id = ${id} AND revoked_at IS NULL`).count === 1

/** Looks a plain key up by its hash, revoked ones included. */
export const findKeyByPlain = async (sql: Sql, plainKey: string): Promise<KeyInfo | undefined> => {
  const [row] = await sql.unsafe<Array<KeyRow>>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [hashKey(plainKey)])
  return row === undefined ? undefined : keyInfoOf(row)
}
