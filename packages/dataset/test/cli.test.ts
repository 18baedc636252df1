import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, expect, it } from "vitest"

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), "tripsearch-generate-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it("writes a feed and a recorded-query log over its trips, for tripsearch-replay", async () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname
  const feed = join(dir, "feed.ndjson")
  const log = join(dir, "queries.ndjson")
  await run(process.execPath, [cli, "--trips", "300", "--seed", "q", "--now", "2026-03-01T10:00:00Z", "--out", feed, "--queries", "50", "--queries-out", log])
  const trips = readFileSync(feed, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  const records = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  expect(trips).toHaveLength(300)
  expect(records).toHaveLength(50)
  const cities = new Set(trips.flatMap((t) => t.waypoints.map((w: { city: string }) => w.city)))
  for (const r of records) {
    expect(Object.keys(r)).toEqual(["time", "path", "query", "status", "duration_ms"])
    expect(r.path.startsWith("/api/v2/trips")).toBe(true)
  }
  // The queries ask for the feed's own places.
  const named = records.flatMap((r) => [...new URLSearchParams(r.query).entries()].filter(([k]) => k === "fn" || k === "tn").map(([, v]) => v))
  expect(named.length).toBeGreaterThan(0)
  for (const name of named) expect(cities.has(name)).toBe(true)
})

it("writes the meeting point feed with --meeting-points-out, and trips without roads with --roads off", async () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname
  const feed = join(dir, "no-roads.ndjson")
  const points = join(dir, "meeting-points.ndjson")
  const args = ["--trips", "200", "--seed", "mp", "--now", "2026-03-01T10:00:00Z"]
  const { stderr } = await run(process.execPath, [cli, ...args, "--out", feed, "--meeting-points-out", points, "--roads", "off"])
  expect(stderr).toMatch(/\d+ meeting points in /)
  const trips = readFileSync(feed, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  expect(trips).toHaveLength(200)
  expect(trips.every((t) => t.legs.every((l: object) => !("path" in l)))).toBe(true)
  const lines = readFileSync(points, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  const ids = new Set(lines.map((p) => p.id))
  expect(ids.size).toBe(lines.length)
  expect(lines.length).toBeGreaterThan(20_000)
  const named = trips.flatMap((t) => t.waypoints.filter((w: { meeting_point_id?: number }) => w.meeting_point_id !== undefined))
  expect(named.length).toBeGreaterThan(0)
  for (const w of named) expect(ids.has(w.meeting_point_id)).toBe(true)
  const withRoads = join(dir, "roads.ndjson")
  await run(process.execPath, [cli, ...args, "--out", withRoads])
  const roads = readFileSync(withRoads, "utf8").trim().split("\n").map((l) => JSON.parse(l))
  expect(roads.every((t) => t.legs.every((l: { path?: string }) => typeof l.path === "string" && l.path.length > 0))).toBe(true)
  for (const t of roads) for (const l of t.legs) delete l.path
  expect(roads).toEqual(trips)
})

it("prints the usage for --help, and a short usage error for an unknown flag, writing nothing", async () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname
  const help = await run(process.execPath, [cli, "--help", "--out", join(dir, "help.ndjson")])
  expect(help.stdout).toMatch(/^usage: tripsearch-generate --trips N/)
  expect(help.stdout).toMatch(/--meeting-points-out FILE/)
  expect(help.stdout).toMatch(/--roads on\|off/)
  expect(help.stderr).toBe("")
  const bad = await run(process.execPath, [cli, "--trips", "5", "--bogus", "--out", join(dir, "bad.ndjson")]).then(
    () => expect.fail("an unknown flag must fail"),
    (e: { code: number; stdout: string; stderr: string }) => e
  )
  expect(bad.code).toBe(2)
  expect(bad.stdout).toBe("")
  expect(bad.stderr).toMatch(/^tripsearch-generate: Unknown option '--bogus'\n\nusage: /)
  expect(bad.stderr).not.toMatch(/\n\s+at /)
  expect(existsSync(join(dir, "help.ndjson")) || existsSync(join(dir, "bad.ndjson"))).toBe(false)
})

it("docs/FEED.md's example lines are the generator's own, from the commands the page gives", async () => {
  const cli = new URL("../dist/cli.js", import.meta.url).pathname
  const page = readFileSync(new URL("../../../docs/FEED.md", import.meta.url), "utf8")
  const blockAfter = (heading: string): unknown => {
    const at = page.indexOf(heading)
    expect(at).toBeGreaterThanOrEqual(0)
    const open = page.indexOf("```json\n", at) + "```json\n".length
    return JSON.parse(page.slice(open, page.indexOf("```", open)))
  }
  const feed = join(dir, "example.ndjson")
  const points = join(dir, "example-points.ndjson")
  const { stderr } = await run(process.execPath, [cli, "--trips", "30", "--seed", "1", "--now", "2026-11-22T08:00:00Z", "--out", feed, "--meeting-points-out", points])
  // A rate over 30 trips would be the gazetteer's loading: none is printed.
  expect(stderr).toMatch(/^tripsearch-generate: 30 trips in \d+\.\d s\n/)
  expect(page).toContain("The 22nd line of `npm run --silent generate -- --trips 30 --seed 1 --now 2026-11-22T08:00:00Z`")
  const trips = readFileSync(feed, "utf8").trim().split("\n")
  expect(blockAfter("## An example line")).toEqual(JSON.parse(trips[21]!))
  // The meeting point feed is the same whatever --trips and --seed say.
  const example = blockAfter("An example line (from `npm run --silent generate")
  expect(readFileSync(points, "utf8").trim().split("\n").map((l) => JSON.parse(l))).toContainEqual(example)
})
