import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { GENERATOR_VERSION } from "@tripsearch/dataset"
import { openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, describe, expect, it } from "vitest"
import { ensureDataset } from "../src/ensureDataset.js"

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
