import polyline from "@mapbox/polyline"
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { main } from "../src/cli.js"
import { openDatabase } from "@tripsearch/storage-sqlite"
import { connectPostgres } from "@tripsearch/storage-postgres"
import { SqliteTripStore } from "@tripsearch/storage-sqlite"
import { TripStore } from "@tripsearch/core"
import { loadIndex, snapshotPlace } from "@tripsearch/geo-pool"
import { Effect } from "effect"
import { feed, freshDatabase, tempDir, tripInput } from "@tripsearch/store-tests"

let tmp: ReturnType<typeof tempDir>
beforeEach(() => {
  tmp = tempDir()
})
afterEach(() => tmp.cleanup())

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const capture = async (argv: Array<string>) => {
  let out = ""
  let err = ""
  const code = await main(argv, { write: (s: string) => ((out += s), true) } as never, { write: (s: string) => ((err += s), true) } as never)
  return { code, out, err }
}

describe("tripsearch-store CLI", () => {
  it("imports files, printing counts, or every error line with exit 1", async () => {
    const db = tmp.path("store.db")
    const good = tmp.write("good.ndjson", feed([tripInput("a"), tripInput("b")]))
    const bad = tmp.write("bad.ndjson", feed([tripInput("c"), tripInput("d", { seats: 0 }), "[]"]))
    const snapshot = `${db}.index`
    const first = await capture(["import", "--db", db, good])
    expect(first).toMatchObject({ code: 0, err: "" })
    expect(first.out).toMatch(new RegExp(`^${escape(good)}: imported 2 trips \\(seq 2\\)\nindex snapshot ${escape(snapshot)}: written at seq 2 \\(2 trips, from the store in \\d+\\.\\d s\\)\n$`))
    const r = await capture(["import", "--db", db, bad])
    expect(r.code).toBe(1)
    expect(r.err).toContain(`${bad}: line 2: seats: `)
    expect(r.err).toContain(`${bad}: line 3: (line): `)
    const missing = await capture(["import", "--db", db, tmp.path("missing.ndjson"), good])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain("missing.ndjson: not imported: ENOENT")
    expect(missing.out).toBe(`${good}: nothing changed (2 trips, each stored already as given; seq 2)\nindex snapshot ${snapshot}: up to date (seq 2)\n`)
    const check = openDatabase(db)
    expect(check.prepare("SELECT count(*) FROM trips").pluck().get()).toBe(2)
    check.close()
  })

  it("leaves the index snapshot where the server reads it, up to the import's last change, unless told otherwise", async () => {
    const db = tmp.path("store.db")
    const snapshot = `${db}.index`
    await capture(["import", "--db", db, tmp.write("one.ndjson", feed([tripInput("a"), tripInput("b")]))])
    const second = await capture(["import", "--db", db, tmp.write("two.ndjson", feed([tripInput("c"), tripInput("a", { seats: 2 })]))])
    expect(second.out).toContain(`index snapshot ${snapshot}: written at seq 4 (3 trips, from the previous snapshot and 2 change(s) in `)
    // What the server's writer does at its start: the snapshot, with nothing left to apply.
    const loaded = await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* TripStore
        return yield* Effect.promise(async () => loadIndex(store, await snapshotPlace(store, snapshot)))
      }).pipe(Effect.provide(SqliteTripStore.layer(db)), Effect.scoped)
    )
    expect(loaded.load).toMatchObject({ from: "snapshot", changes: 0 })
    expect([loaded.index.size, loaded.seq, ["a", "b", "c"].every((id) => loaded.index.has(id))]).toEqual([3, 4, true])

    const other = tmp.path("elsewhere.index")
    expect((await capture(["import", "--db", db, "--snapshot", other, tmp.write("three.ndjson", feed([tripInput("d")]))])).out).toContain(
      `index snapshot ${other}: written at seq 5 (4 trips, from the store in `
    )
    const off = await capture(["import", "--db", db, "--snapshot", "off", tmp.write("four.ndjson", feed([tripInput("e")]))])
    expect(off).toEqual({ code: 0, out: `${tmp.path("four.ndjson")}: imported 1 trip (seq 6)\n`, err: "" })
    expect((await capture(["import", "--db", db, "--snapshot", "", "f"])).err).toContain("--snapshot needs a PATH, or off")
  })

  it("creates, lists and revokes keys; usage errors are clear", async () => {
    const db = tmp.path("store.db")
    openDatabase(db).close()
    const created = await capture(["keys", "create", "--db", db, "--name", "Partner", "--tier", "production", "--daily-limit", "50000"])
    expect(created.code).toBe(0)
    const id = /id:\s+(\S+)/.exec(created.out)![1]!
    expect(created.out).toMatch(/key: [A-Za-z0-9_-]{32}\n/)
    const listed = await capture(["keys", "list", "--db", db])
    expect(listed.out).toContain(`${id}\tproduction\t50000/day\tactive`)
    expect(listed.out).not.toMatch(/[A-Za-z0-9_-]{32}/)
    expect((await capture(["keys", "revoke", "--db", db, id])).code).toBe(0)
    expect((await capture(["keys", "list", "--db", db])).out).toContain(`${id}\tproduction\t50000/day\trevoked`)
    expect((await capture(["keys", "revoke", "--db", db, id])).code).toBe(1)

    const noDb = await capture(["keys", "list"])
    expect(noDb).toMatchObject({ code: 2, out: "" })
    expect(noDb.err).toContain("--db PATH|URL is required")
    expect((await capture(["keys", "create", "--db", db, "--name", "x", "--tier", "gold"])).err).toContain("--tier must be basic or production")
    expect((await capture(["keys", "create", "--db", db, "--name", "x", "--daily-limit", "5"])).err).toContain("only for --tier production")
    expect((await capture(["frobnicate"])).err).toContain("unknown command: frobnicate")
    expect((await capture(["import", "--db", db])).err).toContain("import needs at least one FILE")
    expect((await capture(["import", "--db", db, "--bogus", "f"])).code).toBe(2)
  })

  it("imports meeting points with --meeting-points, first, and the stops along the road of the trips they touch (SQLite and PostgreSQL)", async () => {
    // Paris -> Lyon whose road passes Mâcon; a meeting point 400 m off it.
    const road: Array<[number, number]> = [[48.8566, 2.3522], [47.8, 3.57], [46.8, 4.85], [46.31, 4.83], [45.764, 4.8357]]
    const trip = tripInput("road", { departure_time: "2030-07-15T08:30:00+02:00" })
    const legs = trip["legs"] as Array<Record<string, unknown>>
    const withRoad = { ...trip, legs: [{ ...legs[0], path: polyline.encode(road, 5) }, legs[1]] }
    const trips = tmp.write("road.ndjson", feed([withRoad]))
    const mp = (lon: number, extra = {}) =>
      JSON.stringify({ id: 7, name: "Gare de Mâcon-Ville", full_name: "Gare de Mâcon-Ville, Mâcon", city: "Mâcon", lat: 46.314, lon, country: "FR", tags: ["TRAIN_STATION"], ...extra }) + "\n"
    const on = tmp.write("on.ndjson", mp(4.83))
    const off = tmp.write("off.ndjson", mp(4.9))
    const bad = tmp.write("bad.ndjson", mp(4.83, { tags: ["station"] }))
    const database = await freshDatabase()
    try {
      for (const db of [tmp.path("mp.db"), database.url]) {
        const snapshot = ["--snapshot", "off"]
        const first = await capture(["import", "--db", db, ...snapshot, "--meeting-points", on, trips])
        expect(first).toEqual({ code: 0, out: `${on}: 1 meeting point (0 unchanged), stops along the road changed on 0 trips\n${trips}: imported 1 trip (seq 1)\n`, err: "" })
        const stopsOf = async () => {
          const layer = db.startsWith("postgres") ? (await import("@tripsearch/storage-postgres")).PostgresTripStore.layer(db) : SqliteTripStore.layer(db)
          return Effect.runPromise(Effect.flatMap(TripStore, (s) => s.getTrip("road")).pipe(Effect.provide(layer), Effect.scoped)).then((t) => (t as any).value.roadStops?.map((s: { mp: number }) => s.mp))
        }
        expect(await stopsOf()).toEqual([7])
        expect(await capture(["import", "--db", db, ...snapshot, "--meeting-points", off])).toEqual({
          code: 0,
          out: `${off}: 1 meeting point (0 unchanged), stops along the road changed on 1 trip\n`,
          err: ""
        })
        expect(await stopsOf()).toBeUndefined()
        const refused = await capture(["import", "--db", db, ...snapshot, "--meeting-points", bad, trips])
        expect(refused.code).toBe(1)
        expect(refused.err).toContain(`${bad}: line 1: tags[0]: must be a word of A-Z and _`)
        expect(refused.err).toContain(`${trips}: not imported, since the meeting points were not\n`)
        expect(refused.out).toBe("")
      }
    } finally {
      await database.drop()
    }
  })

  it("does the same over a PostgreSQL database given by its URL", async () => {
    const database = await freshDatabase()
    try {
      const good = tmp.write("good.ndjson", feed([tripInput("a"), tripInput("b")]))
      const bad = tmp.write("bad.ndjson", feed([tripInput("c"), tripInput("d", { seats: 0 })]))
      // The index snapshot every replica starts from is left in the database itself.
      const first = await capture(["import", "--db", database.url, good])
      expect(first).toMatchObject({ code: 0, err: "" })
      expect(first.out).toMatch(
        new RegExp(`^${escape(good)}: imported 2 trips \\(seq 2\\)\nindex snapshot in the database \\(table index_snapshot\\): written at seq 2 \\(2 trips, from the store in \\d+\\.\\d s; \\d+\\.\\d s with its upload\\)\n$`)
      )
      const refused = await capture(["import", "--db", database.url, bad, good])
      expect(refused.code).toBe(1)
      expect(refused.err).toContain(`${bad}: line 2: seats: `)
      expect(refused.out).toBe(`${good}: nothing changed (2 trips, each stored already as given; seq 2)\nindex snapshot in the database (table index_snapshot): up to date (seq 2)\n`)
      expect(await capture(["import", "--db", database.url, "--snapshot", "off", good])).toEqual({ code: 0, out: `${good}: nothing changed (2 trips, each stored already as given; seq 2)\n`, err: "" })
      const created = await capture(["keys", "create", "--db", database.url, "--name", "Partner", "--tier", "production", "--daily-limit", "50000"])
      expect(created.code).toBe(0)
      const id = /id:\s+(\S+)/.exec(created.out)![1]!
      expect((await capture(["keys", "list", "--db", database.url])).out).toContain(`${id}\tproduction\t50000/day\tactive`)
      expect(await capture(["keys", "revoke", "--db", database.url, id])).toEqual({ code: 0, out: `revoked ${id}\n`, err: "" })
      expect((await capture(["keys", "list", "--db", database.url])).out).toContain(`${id}\tproduction\t50000/day\trevoked`)
      const sql = connectPostgres(database.url)
      try {
        expect(await sql`SELECT id FROM trips ORDER BY id`).toEqual([{ id: "a" }, { id: "b" }])
      } finally {
        await sql.end()
      }
      const url = new URL(database.url)
      url.pathname = "/no_such_database"
      const missing = await capture(["keys", "list", "--db", url.href])
      expect(missing).toMatchObject({ code: 1, out: "" })
      expect(missing.err).toMatch(/^tripsearch-store: database "no_such_database" does not exist/)
    } finally {
      await database.drop()
    }
  })

  it("refuses key commands on a store path that does not exist, creating nothing", async () => {
    const missing = tmp.path("typo.db")
    for (const argv of [
      ["keys", "create", "--db", missing, "--name", "partner"],
      ["keys", "list", "--db", missing],
      ["keys", "revoke", "--db", missing, "some-id"]
    ]) {
      const r = await capture(argv)
      expect(r).toMatchObject({ code: 1, out: "" })
      expect(r.err).toBe(`tripsearch-store: no store at ${missing}: give the path of an existing store (npm start creates data/tripsearch.db; import creates one)\n`)
      expect(existsSync(missing)).toBe(false)
    }
  })

  it("prints the usage for --help and does nothing else", async () => {
    const usage = /^Usage:\n {2}tripsearch-store import --db PATH\|URL \[--meeting-points FILE\] \[--snapshot PATH\|off\] \[FILE\.\.\.\]/
    const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
    const program = spawnSync(process.execPath, [cli, "keys", "create", "--db", tmp.path("new.db"), "--help"], { encoding: "utf8", cwd: tmp.dir })
    expect(program).toMatchObject({ status: 0, stderr: "" })
    expect(program.stdout).toMatch(usage)
    for (const argv of [["--help"], ["-h"], ["import", "--help", "--db", tmp.path("new.db"), "f"]]) {
      const r = await capture(argv)
      expect(r).toMatchObject({ code: 0, err: "" })
      expect(r.out).toMatch(usage)
    }
    expect(readdirSync(tmp.dir)).toEqual([])
  })

  it("runs as a program from dist", () => {
    const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
    const db = tmp.path("store.db")
    const file = tmp.write("one.ndjson", feed([tripInput("a")]))
    expect(execFileSync(process.execPath, [cli, "import", "--db", db, file], { encoding: "utf8" })).toMatch(
      new RegExp(`^${escape(file)}: imported 1 trip \\(seq 1\\)\nindex snapshot ${escape(db)}\\.index: written at seq 1 \\(1 trip, from the store in \\d+\\.\\d s\\)\n$`)
    )
    const bad = spawnSync(process.execPath, [cli, "keys"], { encoding: "utf8" })
    expect(bad.status).toBe(2)
    expect(bad.stderr).toContain("keys needs a subcommand")
  })

  it("finishes an import and its snapshot when the reader of its output has gone (`| head -c 1`), exit 0", async () => {
    const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url))
    const db = tmp.path("store.db")
    const file = tmp.write("many.ndjson", feed(Array.from({ length: 50 }, (_, k) => tripInput(`t${k}`))))
    const child = spawn(process.execPath, [cli, "import", "--db", db, file], { stdio: ["ignore", "pipe", "pipe"] })
    // The reader closes its end before the command writes a line.
    child.stdout.destroy()
    let stderr = ""
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()))
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve))
    expect(stderr).toBe("")
    expect(code).toBe(0)
    expect(existsSync(`${db}.index`)).toBe(true)
    expect(execFileSync(process.execPath, [cli, "import", "--db", db, file], { encoding: "utf8" })).toContain("nothing changed (50 trips, each stored already as given; seq 50)")
  })
})
