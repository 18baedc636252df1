import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { connectPostgres, importFeed, migrate } from "@tripsearch/storage-postgres"
import { freshDatabase } from "@tripsearch/store-tests"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EXIT_OK, main } from "../src/main.js"
import type { Report } from "../src/report.js"
import { makeStore, sampleQueries, tempDir } from "./fixture.js"

const capture = () => {
  const chunks: Array<string> = []
  const sink = { write: (s: string) => (chunks.push(String(s)), true), isTTY: false } as unknown as NodeJS.WriteStream
  return { sink, text: () => chunks.join("") }
}

/** The same feed in a SQLite file and in a PostgreSQL database: the core answers every query the same over both. */
describe("the core over SQLite and over PostgreSQL", () => {
  const tmp = tempDir()
  let database: Awaited<ReturnType<typeof freshDatabase>>
  let store: Awaited<ReturnType<typeof makeStore>>

  beforeAll(async () => {
    store = await makeStore(tmp.dir, "sqlite", 400, Date.now())
    database = await freshDatabase()
    const sql = connectPostgres(database.url)
    try {
      await migrate(sql)
      expect(await importFeed(sql, store.lines)).toMatchObject({ ok: true, seq: 400 })
    } finally {
      await sql.end()
    }
  })

  afterAll(async () => {
    await database?.drop()
    tmp.remove()
  })

  it("gives the same status and body to every query, searches, details and errors", async () => {
    const paths = join(tmp.dir, "paths.txt")
    writeFileSync(paths, `${sampleQueries(store.lines).join("\n")}\n`)
    const out = capture()
    const err = capture()
    const json = join(tmp.dir, "compare.json")
    const code = await main([paths, "--target", "core", "--db", store.dbPath, "--compare", "core", "--db-b", database.url, "--json", json], {
      stdout: out.sink,
      stderr: err.sink
    })
    const report = JSON.parse(readFileSync(json, "utf8")) as Report
    expect(report.compare?.differences).toEqual([])
    expect(code, err.text()).toBe(EXIT_OK)
    expect(report.compare?.same).toBe(report.queries)
    expect(report.targets[1]!.statuses["200"]).toBeGreaterThan(0)
    expect(report.targets[0]!.statuses).toEqual(report.targets[1]!.statuses)
  })
})
