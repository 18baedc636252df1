import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readExposition, type RequestLogger, seriesOf } from "@tripsearch/http-express"
import { createKey, openDatabase } from "@tripsearch/storage-sqlite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

/** A search by city name over a large radius: each takes the worker a while. */
const SLOW_SEARCH = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&radius=300&limit=100"

describe("the search pool's admission, on a listening server", () => {
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-overload-"))
  const dbPath = join(dir, "trips.db")
  let demoKey: string
  let calmKey: string

  beforeAll(async () => {
    demoKey = (await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 2_000, nowMs: Date.now() })).demoKey!.key
    const db = openDatabase(dbPath)
    calmKey = createKey(db, { name: "calm", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
  }, 120_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const start = (matcher: { matcherThreads: number; matcherMaxQueue: number; matcherMaxWaitMs: number | undefined }, logger: RequestLogger = { info: () => {}, error: () => {} }) =>
    createServer({
      config: { dbPath, publicBaseUrl: "https://api.example.test", websiteBaseUrl: "https://www.example.test", queryLogPath: undefined, productionDailyLimit: undefined, ...matcher },
      logger
    })
  const listening = async (api: ApiServer) => {
    const { port } = await api.listen(0, "127.0.0.1")
    const base = `http://127.0.0.1:${port}`
    const ask = (key: string, path = SLOW_SEARCH) => fetch(`${base}${path}`, { headers: { key } })
    /** The refusal counter's series (`reason=...`), as scraped now. */
    const refusals = async () => {
      const response = await fetch(`${base}/metrics`)
      return Object.fromEntries(seriesOf(readExposition(await response.text()), "tripsearch_search_refusals_total"))
    }
    return { port, ask, refusals }
  }

  it("refuses a flooding key's searches 503 with Retry-After past the time bound, counts them, and still serves another key's", async () => {
    const api = await start({
      matcherThreads: 1,
      // A count that never binds here: only the time bound refuses.
      matcherMaxQueue: 10_000,
      // Short enough that the flood overflows it; long enough that the calm key's searches, served
      // round-robin with the flood's, do not outlive the hard bound (twice this) on a loaded machine.
      matcherMaxWaitMs: 150
    })
    try {
      const { ask, refusals } = await listening(api)
      // The pool learns how long a search takes.
      for (let k = 0; k < 12; k++) expect((await ask(demoKey)).status).toBe(200)
      expect(await refusals()).toEqual({ "reason=queue_time": 0, "reason=queue_count": 0, "reason=client_gone": 0 })

      const flood = Array.from({ length: 120 }, () => ask(demoKey))
      await new Promise((r) => setTimeout(r, 20))
      const calm = await Promise.all(Array.from({ length: 3 }, () => ask(calmKey)))
      const flooded = await Promise.all(flood)
      const statuses = flooded.map((r) => r.status)
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0)
      const refused = flooded.filter((r) => r.status === 503)
      expect(refused.length).toBeGreaterThan(0)
      for (const r of refused) {
        expect(r.headers.get("retry-after")).toBe("1")
        expect(JSON.stringify(await r.json())).toContain("service.overloaded")
      }
      // The calm key came while the flood filled the queue, and every one of its searches was served.
      expect(calm.map((r) => r.status)).toEqual([200, 200, 200])
      // Each 503 is one refusal by the time bound, wherever it was decided (before Express, in the
      // app, at the queue, at its turn).
      expect(await refusals()).toEqual({ "reason=queue_time": refused.length, "reason=queue_count": 0, "reason=client_gone": 0 })
      expect((await ask(demoKey)).status).toBe(200)
    } finally {
      await api.close()
    }
  })

  it("counts the refusals by the count bound, with the admission queue and with piscina's own queue", async () => {
    for (const matcherMaxWaitMs of [60_000, undefined]) {
      const api = await start({ matcherThreads: 1, matcherMaxQueue: 2, matcherMaxWaitMs })
      try {
        const { ask, refusals } = await listening(api)
        const statuses = (await Promise.all(Array.from({ length: 30 }, () => ask(demoKey)))).map((r) => r.status)
        const refused = statuses.filter((s) => s === 503).length
        expect(refused).toBeGreaterThan(0)
        expect(refused + statuses.filter((s) => s === 200).length).toBe(30)
        expect(await refusals()).toEqual({ "reason=queue_time": 0, "reason=queue_count": refused, "reason=client_gone": 0 })
      } finally {
        await api.close()
      }
    }
  })
})
