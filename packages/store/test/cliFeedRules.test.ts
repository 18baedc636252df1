import { execFileSync, spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { getMeta, importFeed, openDatabase, type SqliteDatabase } from "@tripsearch/storage-sqlite"
import { feed, tempDir, toLine, tripInput } from "@tripsearch/store-tests"
import { afterEach, beforeEach, describe, expect, it } from "vitest"

// The import's feed rules as the store command reports them (the rules themselves are tested in
// storage-sqlite and, for both stores, in tooling/store-tests).

let tmp: ReturnType<typeof tempDir>
let db: SqliteDatabase
beforeEach(() => {
  tmp = tempDir()
  db = openDatabase(tmp.path("store.db"))
})
afterEach(() => {
  db.close()
  tmp.cleanup()
})

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
const runCli = (...args: ReadonlyArray<string>) => spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" })
const state = (d: SqliteDatabase) => ({
  trips: d.prepare("SELECT * FROM trips ORDER BY id").all(),
  dataVersion: getMeta(d, "data_version"),
  lastImportAt: getMeta(d, "last_import_at")
})
const BOM = Buffer.from([0xef, 0xbb, 0xbf])
const writeBytes = (path: string, bytes: Buffer): string => {
  writeFileSync(path, bytes)
  return path
}

describe("the store command and the feed's rules", () => {
  it("a byte that is not UTF-8: exit 1, the line and offset on stderr, the store as it was", async () => {
    await importFeed(db, [toLine(tripInput("keep"))])
    const before = state(db)
    const [head, tail] = toLine(tripInput("x2", { comment: "@@" })).split("@@") as [string, string]
    const bad = Buffer.concat([Buffer.from(head), Buffer.from([0xff]), Buffer.from("Maisons-Alfort"), Buffer.from(tail)])
    const path = writeBytes(tmp.path("latin1.ndjson"), Buffer.concat([Buffer.from(`${toLine(tripInput("x1"))}\n`), bad, Buffer.from("\n")]))
    const r = runCli("import", "--db", tmp.path("store.db"), path)
    expect(r.status).toBe(1)
    expect(r.stdout).toBe("")
    expect(r.stderr).toContain(`${path}: rejected, nothing imported (1 error)`)
    expect(r.stderr).toContain(`${path}: line 2: (line): must be valid UTF-8, got byte 0xFF at offset ${bad.indexOf(0xff)} of the line`)
    expect(state(db)).toEqual(before)
  })

  it("a byte-order mark at the very start, and CRLF line ends, are read as a Windows editor writes them", () => {
    const path = writeBytes(tmp.path("windows.ndjson"), Buffer.concat([BOM, Buffer.from(feed([tripInput("w1")]).replace(/\n/g, "\r\n"))]))
    expect(execFileSync(process.execPath, [cli, "import", "--db", tmp.path("store.db"), "--snapshot", "off", path], { encoding: "utf8" })).toBe(`${path}: imported 1 trip (seq 1)\n`)
  })

  it("an empty file says nothing changed and moves nothing", () => {
    const store = tmp.path("store.db")
    const first = tmp.write("first.ndjson", feed([tripInput("e1")]))
    expect(runCli("import", "--db", store, "--snapshot", "off", first).stdout).toBe(`${first}: imported 1 trip (seq 1)\n`)
    const before = state(db)
    const empty = tmp.write("empty.ndjson", "")
    const again = runCli("import", "--db", store, "--snapshot", "off", empty, first)
    expect(again.status).toBe(0)
    expect(again.stdout).toBe(`${empty}: nothing changed (no trips; seq 1)\n${first}: nothing changed (1 trip, each stored already as given; seq 1)\n`)
    expect(state(db)).toEqual(before)
  })
})
