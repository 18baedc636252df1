import { it as effectIt } from "@effect/vitest"
import { KeyStore } from "@tripsearch/core"
import { Context, Effect, Layer, Option, TestClock } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { createKey, hashKey, listKeys, openDatabase, revokeKey, SqliteKeyStore } from "../src/index.js"
import { tempDir } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => tmp.cleanup())

const withKeys = <A>(path: string, f: (keys: KeyStore["Type"]) => Effect.Effect<A>) =>
  Effect.runPromise(Effect.flatMap(KeyStore, f).pipe(Effect.provide(SqliteKeyStore.layer(path))))

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

  it("finds a key by its plain value; unknown and revoked keys are none", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    const basic = createKey(db, { name: "basic one" })
    const prod = createKey(db, { name: "prod one", tier: "production", dailyLimit: 250_000 })
    const prodDefault = createKey(db, { name: "prod default", tier: "production" })
    expect(() => createKey(db, { name: "bad", tier: "basic", dailyLimit: 5 })).toThrow(/basic keys/)
    expect(() => createKey(db, { name: "bad", tier: "production", dailyLimit: 0 })).toThrow(/positive integer/)
    db.close()
    await withKeys(path, (keys) =>
      Effect.gen(function* () {
        expect(yield* keys.find(basic.key)).toEqual(Option.some({ id: basic.id, name: "basic one", tier: "basic", dailyLimit: 10_000, revoked: false }))
        expect(yield* keys.find(prod.key)).toEqual(Option.some({ id: prod.id, name: "prod one", tier: "production", dailyLimit: 250_000, revoked: false }))
        expect(Option.getOrThrow(yield* keys.find(prodDefault.key)).dailyLimit).toBe(1_000_000)
        expect(yield* keys.find("not-a-key")).toEqual(Option.none())
        expect(yield* keys.find(basic.key.slice(0, 31))).toEqual(Option.none())
      })
    )
    const db2 = openDatabase(path)
    expect(revokeKey(db2, prod.id)).toBe(true)
    expect(revokeKey(db2, prod.id)).toBe(false)
    expect(revokeKey(db2, "key-unknown")).toBe(false)
    expect(listKeys(db2).map((k) => [k.id, k.revoked])).toEqual([
      [basic.id, false],
      [prod.id, true],
      [prodDefault.id, false]
    ])
    db2.close()
    expect(await withKeys(path, (keys) => keys.find(prod.key))).toEqual(Option.none())
  })

  it("counts usage in memory, flushes it on release, and it survives reopening", async () => {
    const path = tmp.path("store.db")
    const db = openDatabase(path)
    const { id } = createKey(db, { name: "counter" })
    db.close()
    const first = await withKeys(path, (keys) =>
      Effect.gen(function* () {
        for (let i = 0; i < 25; i++) yield* keys.count(id, "2026-07-15")
        yield* keys.count(id, "2026-07-16")
        return [yield* keys.usage(id, "2026-07-15"), yield* keys.usage(id, "2026-07-16"), yield* keys.usage(id, "2026-07-17")]
      })
    )
    expect(first).toEqual([25, 1, 0])
    const second = await withKeys(path, (keys) =>
      Effect.gen(function* () {
        const stored = yield* keys.usage(id, "2026-07-15")
        yield* keys.count(id, "2026-07-15")
        return [stored, yield* keys.usage(id, "2026-07-15")]
      })
    )
    expect(second).toEqual([25, 26])
    const db2 = openDatabase(path)
    expect(db2.prepare("SELECT day, count FROM key_usage WHERE key_id = ? ORDER BY day").all(id)).toEqual([
      { day: "2026-07-15", count: 26 },
      { day: "2026-07-16", count: 1 }
    ])
    db2.close()
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
