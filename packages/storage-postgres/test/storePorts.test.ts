import { Readable } from "node:stream"
import { freshDatabase, storePortSuite } from "@tripsearch/store-tests"
import {
  connectPostgres, createKey, importFeed, listKeys, makePostgresTripStore, migrate, PostgresKeyStore, revokeKey, setRate, type Sql
} from "../src/index.js"

storePortSuite({
  name: "PostgreSQL",
  open: async () => {
    const database = await freshDatabase()
    const sql = connectPostgres(database.url)
    await migrate(sql)
    const pools: Array<Sql> = [sql]
    const meta = async (key: string) => (await sql<Array<{ value: string }>>`SELECT value FROM meta WHERE key = ${key}`)[0]?.value
    return {
      trips: makePostgresTripStore(sql),
      importFeed: (source) => importFeed(sql, typeof source[0] === "string" ? (source as ReadonlyArray<string>) : Readable.from(source)),
      setRate: (currency, perEur) => setRate(sql, currency, perEur),
      state: async () => ({
        trips: await sql`SELECT * FROM trips ORDER BY id`,
        seq: await sql`SELECT seq FROM change_seq`,
        dataVersion: await meta("data_version"),
        lastImportAt: await meta("last_import_at")
      }),
      reopenTrips: async () => {
        const other = connectPostgres(database.url)
        pools.push(other)
        return { trips: makePostgresTripStore(other), close: () => other.end() }
      },
      createKey: (input) => createKey(sql, input),
      listKeys: () => listKeys(sql),
      revokeKey: (id) => revokeKey(sql, id),
      keyStoreLayer: () => PostgresKeyStore.layer(database.url),
      storedUsage: async (keyId) => [...(await sql<Array<{ day: string; count: number }>>`SELECT day, count FROM key_usage WHERE key_id = ${keyId} ORDER BY day`)],
      close: async () => {
        for (const pool of pools) await pool.end()
        await database.drop()
      }
    }
  }
})
