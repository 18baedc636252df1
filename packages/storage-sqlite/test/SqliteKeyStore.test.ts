import { it as effectIt } from "@effect/vitest"
import { KeyStore } from "@tripsearch/core"
import { Context, Effect, Layer, TestClock } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { createKey, hashKey, openDatabase, SqliteKeyStore } from "../src/index.js"
import { tempDir } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => tmp.cleanup())

describe("keys", () => {
  it("stores only the hash: the key is nowhere in the database files", () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    const { id, key } = createKey(db, { name: "partner A" })
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(db.prepare("SELECT key_hash FROM api_keys WHERE id = ?").pluck().get(id)).toBe(hashKey(key))
    db.pragma("wal_checkpoint(TRUNCATE)")
    db.close()
    const files = readdirSync(tmp.dir).filter((f) => f.startsWith("store.db"))
    expect(files).toContain("store.db")
    expect(readFileSync(tmp.path("store.db")).includes(Buffer.from(hashKey(key)))).toBe(true) // the file holds the rows
    for (const f of files) {
      const bytes = readFileSync(tmp.path(f))
      expect(bytes.includes(Buffer.from(key))).toBe(false)
    }
  })

  it("never starts a key with a dash, which command lines would take for an option", () => {
    const db = openDatabase(":memory:")
    // One base64url key in 64 would start with "-": 2,000 keys all but surely include some.
    const keys = Array.from({ length: 2_000 }, (_, k) => createKey(db, { name: `k${k}` }).key)
    db.close()
    expect(keys.filter((key) => key.startsWith("-"))).toEqual([])
    expect(keys.every((key) => /^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/.test(key))).toBe(true)
    expect(new Set(keys).size).toBe(keys.length)
  })
})

describe("SqliteKeyStore flushing", () => {
  effectIt.scoped("writes the counts at most every second, not on each request", () =>
    Effect.gen(function* () {
      const db = openDatabase(":memory:")
      yield* Effect.addFinalizer(() => Effect.sync(() => db.close()))
      const { id } = createKey(db, { name: "hot" })
      const storedCount = () => db.prepare("SELECT coalesce(sum(count), 0) FROM key_usage").pluck().get() as number
      const keys = Context.get(yield* Layer.build(SqliteKeyStore.layerDatabase(db)), KeyStore)
      yield* Effect.yieldNow()
      for (let i = 0; i < 100; i++) yield* keys.count(id, "2026-01-01")
      expect(storedCount()).toBe(0)
      expect(yield* keys.usage(id, "2026-01-01")).toBe(100)
      yield* TestClock.adjust("500 millis")
      expect(storedCount()).toBe(0)
      yield* TestClock.adjust("600 millis")
      expect(storedCount()).toBe(100)
      expect(yield* keys.usage(id, "2026-01-01")).toBe(100)
      yield* keys.count(id, "2026-01-01")
      yield* TestClock.adjust("1 second")
      expect(storedCount()).toBe(101)
    })
  )
})
