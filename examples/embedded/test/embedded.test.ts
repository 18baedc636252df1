import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { generateFeed } from "@tripsearch/dataset"
import { connectPostgres, importFeed as importIntoPostgres, migrate } from "@tripsearch/storage-postgres"
import { importFeed, openDatabase } from "@tripsearch/storage-sqlite"
import { freshDatabase } from "@tripsearch/store-tests"

const run = promisify(execFile)
const EXAMPLE = fileURLToPath(new URL("../embedded-search.mjs", import.meta.url))
const EXAMPLE_DIR = fileURLToPath(new URL("..", import.meta.url))
const REPO_STORE = fileURLToPath(new URL("../../../data/tripsearch.db", import.meta.url))
/** The example as a user runs it; a failing exit comes back as its result, not as a throw. */
const runExample = (args: ReadonlyArray<string>, cwd: string) =>
  run(process.execPath, [EXAMPLE, ...args], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr })
  )
const dir = mkdtempSync(join(tmpdir(), "tripsearch-embed-"))
const dbPath = join(dir, "trips.db")
let busiest = ""
let lines: Array<string> = []

beforeAll(async () => {
  const trips = [...generateFeed({ trips: 3000, seed: 7, nowMs: Date.now() })]
  const counts = new Map<string, number>()
  for (const t of trips) if (t.status !== "cancelled") counts.set(t.waypoints[0]!.city, (counts.get(t.waypoints[0]!.city) ?? 0) + 1)
  busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
  lines = trips.map((t) => JSON.stringify(t))
  const db = openDatabase(dbPath)
  const result = await importFeed(db, lines)
  db.close()
  expect(result.ok).toBe(true)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("the README's embedding example", () => {
  it("is the example file's: the README's snippet imports and composes what the file does", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")
    const section = readme.slice(readme.indexOf("## Embedding the search"))
    const open = section.indexOf("```js\n") + "```js\n".length
    const snippet = section.slice(open, section.indexOf("```", open))
    const file = readFileSync(EXAMPLE, "utf8")
    // Each name the snippet imports, the file imports from the same module.
    const imports = (text: string) =>
      [...text.matchAll(/^import \{ ([^}]+) \} from "([^"]+)"$/gm)].flatMap(([, names, from]) => names!.split(",").map((n) => `${n.trim()} from ${from}`))
    expect(imports(snippet).length).toBeGreaterThanOrEqual(5)
    expect(imports(file)).toEqual(expect.arrayContaining(imports(snippet)))
    // And the layers are composed alike.
    const composed = snippet.split("\n").find((l) => l.includes("Layer.mergeAll"))
    expect(composed).toBeDefined()
    expect(file).toContain(composed!)
  })

  it("prints real results from a generated store, and a typed refusal", async () => {
    // From another folder than its own: nothing in the example depends on the working directory.
    const { code, stdout } = await runExample([dbPath, busiest], tmpdir())
    expect(code).toBe(0)
    const [header, ...rest] = stdout.trim().split("\n")
    expect(header).toMatch(new RegExp(`^[1-9]\\d* trips from ${busiest}$`))
    const trips = rest.filter((l) => !l.startsWith("refused:"))
    expect(trips.length).toBeGreaterThan(0)
    for (const line of trips) expect(line).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2} {2}.+ -> .+ {2}.*€ {2}[A-Za-z0-9_-]+$/)
    expect(stdout).toContain("refused: InvalidParameter cur: must be EUR for locale fr_FR")
  }, 60_000)

  it("prints the same over a PostgreSQL database holding the same trips", async () => {
    const database = await freshDatabase()
    try {
      const sql = connectPostgres(database.url)
      try {
        await migrate(sql)
        expect(await importIntoPostgres(sql, lines)).toMatchObject({ ok: true })
      } finally {
        await sql.end()
      }
      const [overSqlite, overPostgres] = await Promise.all([runExample([dbPath, busiest], tmpdir()), runExample([database.url, busiest], tmpdir())])
      expect(overPostgres).toMatchObject({ code: 0, stderr: "" })
      expect(overPostgres.stdout).toMatch(/^[1-9]\d* trips from /)
      expect(overPostgres.stdout).toBe(overSqlite.stdout)
    } finally {
      await database.drop()
    }
  }, 60_000)

  it("resolves its default store from the repository, and says so clearly when it is missing", async () => {
    const help = await runExample(["--help"], dir)
    expect(help.code).toBe(0)
    expect(help.stdout).toContain(`DB     a trip store: a SQLite file (default ${REPO_STORE}, which npm start creates)`)

    const own = await runExample([], EXAMPLE_DIR)
    if (existsSync(REPO_STORE)) expect(own).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+ trips from Paris\n/) })
    else {
      expect(own).toMatchObject({ code: 1, stdout: "" })
      expect(own.stderr.startsWith(`embedded-search: no trip store at ${REPO_STORE}; run npm start once`)).toBe(true)
    }
    expect(own.stderr).not.toContain("FiberFailure")

    const unknown = await runExample([dbPath, "Zzyzxville"], dir)
    expect(unknown).toMatchObject({ code: 1, stdout: "" })
    expect(unknown.stderr.trim()).toBe('embedded-search: PlaceNotFound: No place matches "Zzyzxville" (fn)')

    const missing = await runExample(["typo.db"], dir)
    expect(missing).toMatchObject({ code: 1, stdout: "" })
    expect(missing.stderr).toMatch(/^embedded-search: no trip store at typo\.db;/)
    expect(existsSync(join(dir, "typo.db"))).toBe(false)
  }, 60_000)
})
