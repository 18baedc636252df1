import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateFeed } from "@tripsearch/dataset"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), "tripsearch-embed-"))
const dbPath = join(dir, "trips.db")
let busiest = ""

beforeAll(async () => {
  const trips = [...generateFeed({ trips: 3000, seed: 7, nowMs: Date.now() })]
  const counts = new Map<string, number>()
  for (const t of trips) if (t.status !== "cancelled") counts.set(t.waypoints[0]!.city, (counts.get(t.waypoints[0]!.city) ?? 0) + 1)
  busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
  const db = openDatabase(dbPath)
  const result = await importFeed(db, trips.map((t) => JSON.stringify(t)))
  db.close()
  expect(result.ok).toBe(true)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("the README's embedding example", () => {
  it("prints real results from a generated store, and a typed refusal", async () => {
    const { stdout } = await run(process.execPath, ["embedded-search.mjs", dbPath, busiest], { cwd: new URL("..", import.meta.url).pathname })
    const [header, ...rest] = stdout.trim().split("\n")
    expect(header).toMatch(new RegExp(`^[1-9]\\d* trips from ${busiest}$`))
    const trips = rest.filter((l) => !l.startsWith("refused:"))
    expect(trips.length).toBeGreaterThan(0)
    for (const line of trips) expect(line).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} {2}.+ -> .+ {2}.*€ {2}[A-Za-z0-9_-]+$/)
    expect(stdout).toContain("refused: InvalidParameter cur: must be EUR for locale fr_FR")
  }, 60_000)
})
