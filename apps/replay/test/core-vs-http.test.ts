import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "@tripsearch/store-tests/free-port"
import { EXIT_BAD_INPUT, EXIT_DIFFERENCES, EXIT_OK, main } from "../src/main.js"
import type { Report } from "../src/report.js"
import { makeStore, sampleQueries, startServer, tempDir } from "./fixture.js"


const capture = () => {
  const chunks: Array<string> = []
  const sink = { write: (s: string) => (chunks.push(String(s)), true), isTTY: false } as unknown as NodeJS.WriteStream
  return { sink, text: () => chunks.join("") }
}

const run = async (args: Array<string>) => {
  const out = capture()
  const err = capture()
  const code = await main(args, { stdout: out.sink, stderr: err.sink })
  return { code, stdout: out.text(), stderr: err.text() }
}

describe("replay against the core and a real server", () => {
  const tmp = tempDir()
  const nowMs = Date.now()
  let store: Awaited<ReturnType<typeof makeStore>>
  let planted: Awaited<ReturnType<typeof makeStore>>
  let server: Awaited<ReturnType<typeof startServer>>
  let plantedServer: Awaited<ReturnType<typeof startServer>>
  const queryLog = join(tmp.dir, "query-log.ndjson")
  const pathsFile = join(tmp.dir, "paths.txt")
  const PLANTED_TRIP = 5

  beforeAll(async () => {
    store = await makeStore(tmp.dir, "a", 400, nowMs)
    // The same feed, but trip 5's first leg costs 7 more.
    planted = await makeStore(tmp.dir, "b", 400, nowMs, (line, i) => {
      if (i !== PLANTED_TRIP) return line
      const trip = JSON.parse(line) as { legs: Array<{ price: number }> }
      trip.legs[0]!.price += 7
      return JSON.stringify(trip)
    })
    server = await startServer(store.dbPath, queryLog)
    plantedServer = await startServer(planted.dbPath)
    writeFileSync(pathsFile, `${sampleQueries(store.lines).join("\n")}\n`)
  })

  afterAll(async () => {
    await server?.api.close()
    await plantedServer?.api.close()
    tmp.remove()
  })

  it("a replay of a path file against the server writes the server's query log", async () => {
    const r = await run([pathsFile, "--target", server.baseUrl, "--key", store.key, "--concurrency", "1", "--json", join(tmp.dir, "http.json")])
    expect(r.stderr).not.toMatch(/refused|cannot/)
    expect(r.code, r.stderr).toBe(EXIT_OK)
    const report = JSON.parse(readFileSync(join(tmp.dir, "http.json"), "utf8")) as Report
    expect(report.complete).toBe(true)
    expect(report.queries).toBe(sampleQueries(store.lines).length)
    // Searches that find trips, and each kind of error.
    for (const status of ["200", "400", "404"]) expect(report.targets[0]!.statuses[status]).toBeGreaterThan(0)
    await server.api.close().catch(() => {})
    // Reopen a server over the same store without a log (the log file is complete now).
    server = await startServer(store.dbPath)
    const logged = readFileSync(queryLog, "utf8").trim().split("\n")
    // Every query but the one that reaches no API route (an unknown path); a malformed trip id is
    // an API request, refused 400 after its key's check.
    expect(logged).toHaveLength(report.queries - 1)
  })

  it("the core answers every logged query with the server's status and body (links normalised)", async () => {
    const r = await run([queryLog, "--target", "core", "--db", store.dbPath, "--compare", server.baseUrl, "--key-b", store.key, "--json", join(tmp.dir, "cmp.json")])
    const report = JSON.parse(readFileSync(join(tmp.dir, "cmp.json"), "utf8")) as Report
    expect(report.compare?.differences).toEqual([])
    expect(r.code, r.stderr).toBe(EXIT_OK)
    expect(report.compare?.same).toBe(report.queries)
    // XML answers too: the core renders them with the server's encoder, compared in full.
    expect(report.compare?.formatsDiffer).toBe(0)
    expect(readFileSync(queryLog, "utf8")).toContain("_format=xml")
    expect(report.targets[0]!.statuses).toEqual(report.targets[1]!.statuses)
    expect(r.stdout).toMatch(/compare: \d+ same, 0 different/)
    expect(r.stdout).toMatch(/latency ms \(nearest rank\): p50 .* p90 .* p99 .* p99\.9 .* max/)
  })

  it("--compare finds a planted price difference and names its JSON path", async () => {
    const trip = JSON.parse(store.lines[PLANTED_TRIP]!) as { id: string; waypoints: Array<{ lat: number; lon: number }> }
    const a = trip.waypoints[0]!
    const b = trip.waypoints[trip.waypoints.length - 1]!
    const log = join(tmp.dir, "planted.txt")
    writeFileSync(
      log,
      [
        `/api/v2/trips/${encodeURIComponent(trip.id)}?locale=fr_FR&cur=EUR&_format=json`,
        `/api/v2/trips?locale=fr_FR&cur=EUR&fc=${a.lat}%7C${a.lon}&tc=${b.lat}%7C${b.lon}&limit=100`,
        "/api/v2/trips/no-such-trip?locale=fr_FR&_format=json",
        `/api/v2/trips/${encodeURIComponent(trip.id)}?locale=fr_FR&cur=EUR&_format=xml`
      ].join("\n")
    )
    const r = await run([log, "--target", "core", "--db", store.dbPath, "--compare", plantedServer.baseUrl, "--key-b", planted.key, "--json", join(tmp.dir, "planted.json")])
    expect(r.code).toBe(EXIT_DIFFERENCES)
    const report = JSON.parse(readFileSync(join(tmp.dir, "planted.json"), "utf8")) as Report
    expect(report.compare).toMatchObject({ same: 1, different: 3, formatsDiffer: 0 })
    const [details, search, xmlDetails] = report.compare!.differences
    expect(details).toMatchObject({ line: 1 })
    expect(details!.path).toMatch(/^price(_with_commission|_without_commission)?\.value$|^price\.string_value$/)
    expect(search!.line).toBe(2)
    expect(search!.path).toMatch(/^(trips\[\d+\]\.price|lowest_price|lowest_price_object|recommended_price|savings|facets)/)
    expect(r.stdout).toContain(`body at ${details!.path}`)
    // The same difference in XML, named by its element path.
    expect(xmlDetails).toMatchObject({ line: 4, path: `response.${details!.path}` })

    // Two core targets over the two stores see the same difference.
    const cores = await run([log, "--target", "core", "--db", store.dbPath, "--compare", "core", "--db-b", planted.dbPath, "--json", join(tmp.dir, "cores.json")])
    expect(cores.code).toBe(EXIT_DIFFERENCES)
    const coresReport = JSON.parse(readFileSync(join(tmp.dir, "cores.json"), "utf8")) as Report
    expect(coresReport.compare!.differences.map((d) => d.path)).toEqual(report.compare!.differences.map((d) => d.path))
  })

  it("bad input gets one clear message", async () => {
    const bad = join(tmp.dir, "bad.ndjson")
    writeFileSync(bad, '/api/v2/trips?locale=fr_FR\n{"path": "/api/v2/trips", "query": \n')
    const unreadable = await run([bad, "--target", "core", "--db", store.dbPath])
    expect(unreadable.code).toBe(EXIT_BAD_INPUT)
    expect(unreadable.stderr).toBe(`tripsearch-replay: cannot replay ${bad}, line 2: not valid JSON: "{\\"path\\": \\"/api/v2/trips\\", \\"query\\":"\n`)

    const missing = await run([join(tmp.dir, "nope.ndjson"), "--target", "core", "--db", store.dbPath])
    expect(missing.stderr).toMatch(/cannot read .*nope\.ndjson: no such file/)

    const noStore = await run([pathsFile, "--target", "core", "--db", join(tmp.dir, "nope.db")])
    expect(noStore.stderr).toMatch(/no trip store at .*nope\.db/)

    const port = await freePort()
    const unreachable = await run([pathsFile, "--target", `http://127.0.0.1:${port}`, "--key", "k"])
    expect(unreachable.code).toBe(EXIT_BAD_INPUT)
    expect(unreachable.stderr).toBe(`tripsearch-replay: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`)

    const wrongKey = await run([pathsFile, "--target", server.baseUrl, "--key", "not-a-key", "--concurrency", "1"])
    expect(wrongKey.code).toBe(EXIT_BAD_INPUT)
    expect(wrongKey.stderr).toMatch(/refused the API key \(403 auth\.invalid_key\): check --key/)
    expect(wrongKey.stdout).toMatch(/INTERRUPTED/)
  })
})
