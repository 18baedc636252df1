import { mkdtempSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { GeoPoolService } from "@tripsearch/geo-pool"
import { readExposition, type RequestLogger, seriesOf } from "@tripsearch/http-express"
import { createKey, openDatabase } from "@tripsearch/storage-sqlite"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ApiServer, createServer } from "../src/createServer.js"
import { ensureDataset } from "../src/ensureDataset.js"

/** A search by city name over a large radius: each takes the worker a while. */
const SLOW_SEARCH = "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&radius=300&limit=100"

// A bound on waiting for what the pool will do, not a measure of it: the gone client's test ran
// past a bound of 10 s once, alone, on a slow machine (its 300 slow searches run on one worker).
const until = async (what: string, done: () => boolean, ms = 30_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not ${what} after ${ms} ms`)
    await new Promise((r) => setTimeout(r, 2))
  }
}

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
      // Short enough that the flood overflows it; long enough that a calm search, served next to
      // the flood's in turn, does not outlive the hard bound (twice this) on a loaded machine.
      matcherMaxWaitMs: 200
    })
    try {
      const { ask, refusals } = await listening(api)
      // The pool learns how long a search takes.
      for (let k = 0; k < 12; k++) expect((await ask(demoKey)).status).toBe(200)
      expect(await refusals()).toEqual({ "reason=queue_time": 0, "reason=queue_count": 0, "reason=client_gone": 0 })

      // 60 clients of one key asking again at once whatever they get, until the calm key is done
      // (10 s at most): the queue stays at its bound, whatever a search costs on this machine.
      const flooded: Array<Response> = []
      let flooding = true
      const stop = setTimeout(() => (flooding = false), 10_000)
      const flood = Array.from({ length: 60 }, async () => {
        while (flooding) flooded.push(await ask(demoKey))
      })
      await new Promise((r) => setTimeout(r, 200))
      // A calm key asks one search at a time: each is admitted in place of the flood's newest, and served.
      const calm: Array<number> = []
      for (let k = 0; k < 3; k++) calm.push((await ask(calmKey)).status)
      flooding = false
      clearTimeout(stop)
      await Promise.all(flood)
      expect(calm).toEqual([200, 200, 200])

      const statuses = flooded.map((r) => r.status)
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true)
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0)
      const refused = flooded.filter((r) => r.status === 503)
      expect(refused.length).toBeGreaterThan(0)
      for (const r of flooded) {
        if (r.status !== 503) continue
        expect(r.headers.get("retry-after")).toBe("1")
        expect(JSON.stringify(await r.json())).toContain("service.overloaded")
      }
      // Each 503 is one refusal by the time bound, wherever it was decided (in the listener, in the
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

  it("never runs a search whose client has gone while it waited for a worker", async () => {
    const lines: Array<Record<string, unknown>> = []
    const api = await start(
      { matcherThreads: 1, matcherMaxQueue: 10_000, matcherMaxWaitMs: 60_000 },
      { info: (entry) => void lines.push(entry), error: () => {} }
    )
    try {
      const { port, ask, refusals } = await listening(api)
      const pool = Option.getOrThrow(await api.runtime.runPromise(Effect.serviceOption(GeoPoolService)))
      const admission = pool.admission!
      for (let k = 0; k < 4; k++) expect((await ask(demoKey)).status).toBe(200)
      const completedBefore = pool.completed
      /** Searches the pool took so far since the flood: waiting, started, or done. */
      const taken = () => admission.size + admission.inFlight + (pool.completed - completedBefore)

      // A flood of the same key fills the one worker's queue for a while (the queue is FIFO within a key).
      const flood = Array.from({ length: 300 }, () => ask(demoKey))
      await until("all queued", () => taken() === 300)
      // Then one more, on a socket of its own, which its client closes once the search waits in the queue.
      const socket = connect(port, "127.0.0.1")
      socket.on("error", () => {})
      socket.write(`GET ${SLOW_SEARCH}&seats=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nkey: ${demoKey}\r\n\r\n`)
      await until("the last search queued", () => taken() === 301)
      expect(admission.size).toBeGreaterThan(10)
      socket.destroy()
      await until("its client's departure seen", () => admission.refusedFor.clientGone === 1)

      expect((await Promise.all(flood)).every((r) => r.status === 200)).toBe(true)
      // Every search of the flood ran, and nothing else: the gone client's search never did.
      await new Promise((r) => setTimeout(r, 100))
      expect(pool.completed - completedBefore).toBe(300)
      expect(await refusals()).toEqual({ "reason=queue_time": 0, "reason=queue_count": 0, "reason=client_gone": 1 })
      // Logged like any other request, as aborted.
      const aborted = lines.filter((l) => l.aborted === true)
      expect(aborted).toHaveLength(1)
      expect(aborted[0]).toMatchObject({ method: "GET", path: "/api/v2/trips" })
    } finally {
      await api.close()
    }
  }, 90_000)
})
