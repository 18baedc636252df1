import { Readable } from "node:stream"
import { storePortSuite, tempDir } from "@tripsearch/store-tests"
import { createKey, getMeta, importFeed, listKeys, makeSqliteTripStore, openDatabase, revokeKey, setRate, SqliteKeyStore } from "../src/index.js"

storePortSuite({
  name: "SQLite",
  open: async () => {
    const tmp = tempDir()
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    const opened = [db]
    return {
      trips: makeSqliteTripStore(db),
      // Byte chunks go in as a stream, split where the test split them.
      importFeed: (source) => importFeed(db, typeof source[0] === "string" ? (source as ReadonlyArray<string>) : Readable.from(source)),
      setRate: async (currency, perEur) => setRate(db, currency, perEur),
      state: async () => ({
        trips: db.prepare("SELECT * FROM trips ORDER BY id").all(),
        dataVersion: getMeta(db, "data_version"),
        lastImportAt: getMeta(db, "last_import_at")
      }),
      reopenTrips: async () => {
        const other = openDatabase(path)
        opened.push(other)
        return { trips: makeSqliteTripStore(other), close: async () => void other.close() }
      },
      createKey: async (input) => createKey(db, input),
      listKeys: async () => listKeys(db),
      revokeKey: async (id) => revokeKey(db, id),
      keyStoreLayer: () => SqliteKeyStore.layer(path),
      storedUsage: async (keyId) => db.prepare("SELECT day, count FROM key_usage WHERE key_id = ? ORDER BY day").all(keyId) as Array<{ day: string; count: number }>,
      close: async () => {
        for (const d of opened) if (d.open) d.close()
        tmp.cleanup()
      }
    }
  }
})
