import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { feedLines } from "@tripsearch/dataset"
import { importFeed, importMeetingPoints, openDatabase } from "@tripsearch/storage-sqlite"
import polyline from "@mapbox/polyline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The store is the source of truth: a trip committed while the server runs (a new one, a seat
 * update, a cancellation) shows in searches within 1 s, with no restart. Runs on the worker pool,
 * whose workers each follow the store through their own connection.
 */
describe("freshness of a running server", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-fresh-"))
  const dbPath = join(dir, "trips.db")
  const nowMs = Date.now()
  let api: ApiServer
  let base: string
  let key: string

  beforeAll(async () => {
    key = (await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 200, nowMs })).demoKey!.key
    api = await createServer({
      config: {
        dbPath,
        publicBaseUrl: "https://api.fresh.test",
        websiteBaseUrl: "https://www.fresh.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 2,
        matcherMaxQueue: 64
      },
      logger: { info: () => {}, error: () => {} }
    })
    base = `http://127.0.0.1:${(await api.listen(0, "127.0.0.1")).port}`
  }, 120_000)

  afterAll(async () => {
    await api?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  // A trip of another seed, moved to its own id and departing tomorrow: not in the store yet.
  const template = JSON.parse([...feedLines({ trips: 1, seed: "freshness", nowMs })][0]!) as Json
  const trip = (patch: Json): string =>
    JSON.stringify({ ...template, id: "fresh-trip-1", status: "active", departure_time: new Date(nowMs + 86_400_000).toISOString(), ...patch })
  const first = template.waypoints[0]
  const last = template.waypoints[template.waypoints.length - 1]
  const searchUrl = () => `${base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${first.lat}%7C${first.lon}&tc=${last.lat}%7C${last.lon}&radius=1&limit=100`

  const findTrip = async (): Promise<Json | undefined> => {
    const response = await fetch(searchUrl(), { headers: { key } })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Json
    return (body.trips as Array<Json>).find((t) => t.permanent_id === "fresh-trip-1")
  }

  /** Commits `line` on a separate connection, then polls the server: ms from commit to `done`. */
  const commitAndWait = async (line: string, done: (found: Json | undefined) => boolean): Promise<number> => {
    const db = openDatabase(dbPath)
    const result = await importFeed(db, [line])
    db.close()
    expect(result.ok).toBe(true)
    const committed = performance.now()
    while (performance.now() - committed < 3000) {
      if (done(await findTrip())) return performance.now() - committed
      await new Promise((r) => setTimeout(r, 10))
    }
    return Infinity
  }

  it("finds a new trip, a seat update and a cancellation within 1 s of their commit", async () => {
    expect(await findTrip()).toBeUndefined()
    expect(await commitAndWait(trip({ seats: 4, seats_left: 3 }), (t) => t?.seats_left === 3)).toBeLessThan(1000)
    expect(await commitAndWait(trip({ seats: 4, seats_left: 1 }), (t) => t?.seats_left === 1)).toBeLessThan(1000)
    expect(await commitAndWait(trip({ status: "cancelled" }), (t) => t === undefined)).toBeLessThan(1000)
  }, 60_000)

  it("finds a driver along the road at a meeting point added, renamed and removed, within 1 s of each commit", async () => {
    // The trip again, with its road; a meeting point 300 m off the middle of its first leg's road.
    const line = trip({ id: "fresh-road-1", detour: "FIFTEEN_MINUTES" })
    const fresh = JSON.parse(line) as Json
    const db = openDatabase(dbPath)
    expect((await importFeed(db, [line])).ok).toBe(true)
    db.close()
    const road = polyline.decode(fresh.legs[0].path as string, 5)
    const [lat, lon] = road[Math.floor(road.length / 2)]!
    const point = (patch: Json) =>
      JSON.stringify({ id: 999_000_001, name: "Aire de Fraîcheur", full_name: "Aire de Fraîcheur, Essai", city: "Essai", lat: lat + 0.0027, lon, country: first.country, tags: ["SERVICE_AREA"], ...patch })
    const n = fresh.waypoints.length - 1
    const url = `${base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${lat + 0.0027}%7C${lon}&tc=${last.lat}%7C${last.lon}&radius=1&limit=100`
    const along = async (): Promise<Json | undefined> => {
      const body = (await (await fetch(url, { headers: { key } })).json()) as Json
      return (body.trips as Array<Json>).find((t) => t.permanent_id === `fresh-road-1_m999000001_${n}`)
    }
    const commitPointAndWait = async (patch: Json, done: (found: Json | undefined) => boolean): Promise<number> => {
      const store = openDatabase(dbPath)
      const result = await importMeetingPoints(store, [point(patch)])
      store.close()
      expect(result.ok).toBe(true)
      const committed = performance.now()
      while (performance.now() - committed < 3000) {
        if (done(await along())) return performance.now() - committed
        await new Promise((r) => setTimeout(r, 10))
      }
      return Infinity
    }
    expect(await along()).toBeUndefined()
    const added = await commitPointAndWait({}, (t) => t?.corridoring_type === "CORRIDORING")
    expect(added).toBeLessThan(1000)
    expect(await commitPointAndWait({ name: "Aire de la Source" }, (t) => t?.departure_meeting_point?.name === "Aire de la Source")).toBeLessThan(1000)
    expect(await commitPointAndWait({ status: "removed" }, (t) => t === undefined)).toBeLessThan(1000)
  }, 60_000)
})
