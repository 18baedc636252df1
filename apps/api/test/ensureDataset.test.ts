import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { GENERATOR_VERSION } from "@tripsearch/dataset"
import { createKey, findKeyByPlain, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, describe, expect, it } from "vitest"
import { ensureDataset, type RenewReason, renewNotice } from "../src/ensureDataset.js"

const dir = mkdtempSync(join(tmpdir(), "tripsearch-ensure-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const tripIds = (dbPath: string): Array<string> => {
  const db = openDatabase(dbPath)
  try {
    return (db.prepare("SELECT id FROM trips ORDER BY id").all() as Array<{ id: string }>).map((r) => r.id)
  } finally {
    db.close()
  }
}

describe("ensureDataset and the generator's version", () => {
  it("records the generator's version in the demo key file", async () => {
    const dbPath = join(dir, "a", "tripsearch.db")
    const demoKeyPath = join(dir, "a", "demo-key.json")
    const { created, demoKey } = await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: Date.now() })
    expect(created).toBe(true)
    expect(demoKey!.generator).toBe(GENERATOR_VERSION)
    expect(JSON.parse(readFileSync(demoKeyPath, "utf8")).generator).toBe(GENERATOR_VERSION)
  })

  it("builds the default data set again when an older generator built it, with a new key", async () => {
    const dbPath = join(dir, "b", "tripsearch.db")
    const demoKeyPath = join(dir, "b", "demo-key.json")
    const first = await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: Date.now(), seed: 1 })
    const oldIds = tripIds(dbPath)
    // A demo key file as the generator before versions wrote it: no `generator` field.
    const { generator: _, ...before } = first.demoKey!
    writeFileSync(demoKeyPath, JSON.stringify(before))
    const again = await ensureDataset({ dbPath, demoKeyPath, trips: 30, nowMs: Date.now(), seed: 2 })
    expect(again.created).toBe(true)
    expect(again.replaced).toBe(true)
    expect(again.demoKey!.key).not.toBe(first.demoKey!.key)
    expect(again.demoKey!.generator).toBe(GENERATOR_VERSION)
    const newIds = tripIds(dbPath)
    expect(newIds.length).toBe(30)
    expect(newIds.filter((id) => oldIds.includes(id))).toEqual([])
    expect(existsSync(`${dbPath}.partial`)).toBe(false)
    const later = await ensureDataset({ dbPath, demoKeyPath, trips: 30, nowMs: Date.now(), seed: 2 })
    expect(later).toEqual({ created: false, demoKey: again.demoKey })
  })

  it("never replaces a store it did not build (no demo key file)", async () => {
    const dbPath = join(dir, "c", "tripsearch.db")
    const demoKeyPath = join(dir, "c", "demo-key.json")
    await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: Date.now() })
    const ids = tripIds(dbPath)
    rmSync(demoKeyPath)
    const again = await ensureDataset({ dbPath, demoKeyPath, trips: 30, nowMs: Date.now(), seed: 3 })
    expect(again).toEqual({ created: false, demoKey: undefined })
    expect(tripIds(dbPath)).toEqual(ids)
  })
})

const DAY_MS = 24 * 3600 * 1000

/** The departure of the store's last active trip, read with SQL of its own. */
const lastDeparture = (dbPath: string): number => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    return (db.prepare("SELECT MAX(departure_ms) AS last FROM trips WHERE status = 'active'").get() as { last: number }).last
  } finally {
    db.close()
  }
}

const firstDeparture = (dbPath: string): number => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    return (db.prepare("SELECT MIN(departure_ms) AS first FROM trips").get() as { first: number }).first
  } finally {
    db.close()
  }
}

describe("ensureDataset and a default data set running out (a real SQLite file, a clock)", () => {
  // A fixed start, then later starts on the same files: the clock is `nowMs`.
  const t0 = Date.parse("2026-11-01T08:00:00Z")

  it("keeps the store while its last trip leaves 7 days or more after now, builds a new one below, with the same key", async () => {
    const dbPath = join(dir, "d", "tripsearch.db")
    const demoKeyPath = join(dir, "d", "demo-key.json")
    const first = await ensureDataset({ dbPath, demoKeyPath, trips: 40, nowMs: t0, seed: 4 })
    const key = first.demoKey!
    // The user made a key of their own on the demo store, and used the demo key today.
    const ownDb = openDatabase(dbPath)
    const own = createKey(ownDb, { name: "mine", tier: "production" })
    ownDb.prepare("INSERT INTO key_usage (key_id, day, count) VALUES (?, ?, ?)").run(key.id, "2026-11-25", 42)
    ownDb.close()
    const oldIds = tripIds(dbPath)
    const last = lastDeparture(dbPath)
    expect(last - t0).toBeGreaterThan(7 * DAY_MS)

    // Exactly 7 days left: kept, nothing looked at but the one query.
    const notices: Array<string> = []
    const onRenew = (reason: RenewReason) => void notices.push(renewNotice(reason, 40, dbPath))
    const kept = await ensureDataset({ dbPath, demoKeyPath, trips: 40, nowMs: last - 7 * DAY_MS, seed: 5, onRenew })
    expect(kept).toEqual({ created: false, demoKey: key })
    expect(tripIds(dbPath)).toEqual(oldIds)
    expect(notices).toEqual([])

    // A minute less than 7 days left: a new data set from now on.
    const nowMs = last - 7 * DAY_MS + 60_000
    const renewed = await ensureDataset({ dbPath, demoKeyPath, trips: 40, nowMs, seed: 5, onRenew })
    expect(renewed).toEqual({ created: true, demoKey: key, replaced: true, reason: { _tag: "RunningOut", lastDepartureMs: last } })
    expect(notices).toHaveLength(1)
    expect(notices[0]).toBe(
      `the default data set runs out on ${new Date(last).toISOString().slice(0, 10)} (fewer than 7 days of trips left): generating a new one of 40 trips into ${dbPath}; the demo key stays the same`
    )
    expect(notices[0]).not.toContain("\n")
    const newIds = tripIds(dbPath)
    expect(newIds).toHaveLength(40)
    expect(newIds.filter((id) => oldIds.includes(id))).toEqual([])
    expect(firstDeparture(dbPath)).toBeGreaterThanOrEqual(nowMs)
    expect(lastDeparture(dbPath) - nowMs).toBeGreaterThanOrEqual(7 * DAY_MS)
    expect(existsSync(`${dbPath}.partial`)).toBe(false)
    // The same demo key (and the user's own) works on the new store, with its usage.
    const db = openDatabase(dbPath, { readonly: true })
    expect(findKeyByPlain(db, key.key)).toMatchObject({ id: key.id, tier: "basic" })
    expect(findKeyByPlain(db, own.key)).toMatchObject({ id: own.id, tier: "production" })
    expect(db.prepare("SELECT count FROM key_usage WHERE key_id = ?").get(key.id)).toEqual({ count: 42 })
    db.close()
    expect(JSON.parse(readFileSync(demoKeyPath, "utf8"))).toEqual(key)

    // The next start finds a fresh store and keeps it.
    expect(await ensureDataset({ dbPath, demoKeyPath, trips: 40, nowMs: nowMs + DAY_MS, seed: 6, onRenew })).toEqual({ created: false, demoKey: key })
    expect(notices).toHaveLength(1)
  })

  it("builds a store with no active trip left again", async () => {
    const dbPath = join(dir, "e", "tripsearch.db")
    const demoKeyPath = join(dir, "e", "demo-key.json")
    const first = await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: t0, seed: 7 })
    const db = openDatabase(dbPath)
    db.prepare("UPDATE trips SET status = 'cancelled'").run()
    db.close()
    const renewed = await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: t0, seed: 8 })
    expect(renewed.reason).toEqual({ _tag: "RunningOut", lastDepartureMs: undefined })
    expect(renewed.demoKey).toEqual(first.demoKey)
    expect(renewNotice(renewed.reason!, 20, dbPath)).toBe(`the default data set has no trips left: generating a new one of 20 trips into ${dbPath}; the demo key stays the same`)
  })

  it("never touches a store the user imported (no demo key file), however old", async () => {
    const dbPath = join(dir, "f", "tripsearch.db")
    const demoKeyPath = join(dir, "f", "demo-key.json")
    await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: t0, seed: 9 })
    rmSync(demoKeyPath)
    const ids = tripIds(dbPath)
    const before = readFileSync(dbPath)
    const onRenew = () => {
      throw new Error("told to renew a store it did not build")
    }
    const later = await ensureDataset({ dbPath, demoKeyPath, trips: 20, nowMs: t0 + 365 * DAY_MS, seed: 10, onRenew })
    expect(later).toEqual({ created: false, demoKey: undefined })
    expect(tripIds(dbPath)).toEqual(ids)
    expect(readFileSync(dbPath).equals(before)).toBe(true)
    expect(existsSync(demoKeyPath)).toBe(false)
  })
})
