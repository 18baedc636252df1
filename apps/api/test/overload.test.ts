import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createKey, openDatabase } from "@tripsearch/storage-sqlite"
import { describe, expect, it } from "vitest"
import { createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

describe("the search pool's admission, on a listening server", () => {
  it("refuses a flooding key's searches 503 with Retry-After past the time bound, and still serves another key's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-overload-"))
    const dbPath = join(dir, "trips.db")
    const { demoKey } = await ensureDataset({ dbPath, demoKeyPath: join(dir, "demo-key.json"), trips: 2_000, nowMs: Date.now() })
    const db = openDatabase(dbPath)
    const calmKey = createKey(db, { name: "calm", tier: "production", dailyLimit: 1_000_000 }).key
    db.close()
    const api = await createServer({
      config: {
        dbPath,
        publicBaseUrl: "https://api.example.test",
        websiteBaseUrl: "https://www.example.test",
        queryLogPath: undefined,
        productionDailyLimit: undefined,
        matcherThreads: 1,
        // A count that never binds here: only the time bound refuses.
        matcherMaxQueue: 10_000,
        // Short enough that the flood overflows it; long enough that the calm key's searches, served
        // round-robin with the flood's, do not outlive the hard bound (twice this) on a loaded machine.
        matcherMaxWaitMs: 150
      },
      logger: { info: () => {}, error: () => {} }
    })
    try {
      const { port } = await api.listen(0, "127.0.0.1")
      // Searches by city name over a large radius: each takes the worker a while.
      const ask = (key: string) =>
        fetch(`http://127.0.0.1:${port}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&radius=300&limit=100`, { headers: { key } })
      // The pool learns how long a search takes.
      for (let k = 0; k < 12; k++) expect((await ask(demoKey!.key)).status).toBe(200)

      const flood = Array.from({ length: 120 }, () => ask(demoKey!.key))
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
      expect((await ask(demoKey!.key)).status).toBe(200)
    } finally {
      await api.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
