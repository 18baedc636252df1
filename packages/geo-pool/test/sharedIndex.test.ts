import { describe, expect, it } from "vitest"
import { type IndexImage, type IndexRecord, type MatchRequest, type MatchResult, referenceSearch, TripIndex, TripSearcher } from "@tripsearch/core"
import { makeSqliteTripStore, openDatabase } from "@tripsearch/storage-sqlite"
import { Effect } from "effect"
import { Worker } from "node:worker_threads"
import { makeStore, queries } from "./storeFixture.js"

const loadRecords = (dbPath: string): Array<IndexRecord> => {
  const db = openDatabase(dbPath, { readonly: true })
  try {
    const records: Array<IndexRecord> = []
    Effect.runSync(makeSqliteTripStore(db).scanIndex((r) => records.push(r)))
    return records
  } finally {
    db.close()
  }
}

/** A real worker thread over the writer's shared arrays, and a way to ask it one message at a time. */
const startReader = () => {
  const worker = new Worker(new URL("./searcherThread.mjs", import.meta.url))
  const next = () => new Promise<any>((resolve) => worker.once("message", resolve))
  return {
    worker,
    adopt: async (image: IndexImage): Promise<number> => {
      const reply = next()
      worker.postMessage({ image })
      return (await reply).adopted
    },
    search: async (search: MatchRequest): Promise<MatchResult> => {
      const reply = next()
      worker.postMessage({ search, id: 0 })
      return (await reply).result
    },
    next
  }
}

// Everything a search answers, with the page and top in full (no limit) so that every match shows.
const everything = (req: MatchRequest): MatchRequest => ({ ...req, offset: 0, limit: 10_000 })

describe("one TripIndex written in one thread, searched from another through its shared arrays", () => {
  it("answers in the reader as the writer and the brute-force reference do, through appends, removals, grid rebuilds and compactions", async () => {
    const store = await makeStore(400, 11)
    const reader = startReader()
    try {
      const all = loadRecords(store.dbPath)
      const live = new Map(all.slice(0, 150).map((r) => [r.id, r]))
      // Tiny thresholds: the arena fills and the arrays are compacted many times over.
      const index = TripIndex.from(live.values(), { rebuildAfter: 8, compactAfter: 4 })
      const images: Array<IndexImage> = []
      index.onImage((image) => images.push(image))
      expect(await reader.adopt(index.image())).toBe(index.image().version)

      const reqs = queries().map(everything)
      let pending = all.slice(150)
      let adopted = 0
      for (let round = 0; round < 12; round++) {
        // Adds, replacements (fewer seats left) and removals, as the store's changes would bring.
        const added = pending.slice(0, 20)
        pending = pending.slice(20)
        const replaced = [...live.values()].filter((_, k) => k % 7 === round % 7).map((r) => ({ ...r, seatsLeft: Math.max(0, r.seatsLeft - 1) }))
        const removed = [...live.keys()].filter((_, k) => k % 11 === round % 11)
        for (const r of [...added, ...replaced]) live.set(r.id, r)
        for (const id of removed) live.delete(id)
        index.apply([...added, ...replaced], removed)
        // Images the writer announced since: the reader searches the latest.
        while (images.length > 0) {
          await reader.adopt(images.shift()!)
          adopted++
        }
        for (const req of reqs) {
          const inReader = await reader.search(req)
          expect(inReader).toEqual(index.search(req))
          expect(inReader).toEqual(referenceSearch([...live.values()], req))
        }
      }
      // The arrays were replaced along the way, and the reader followed.
      expect(adopted).toBeGreaterThan(2)
    } finally {
      await reader.worker.terminate()
      store.cleanup()
    }
  })

  it("never shows a trip twice to a reader searching while the writer replaces trips", async () => {
    const store = await makeStore(300, 5)
    const reader = startReader()
    try {
      const all = loadRecords(store.dbPath)
      const index = TripIndex.from(all, { rebuildAfter: 64, compactAfter: 64 })
      await reader.adopt(index.image())
      // Replacements grow, compact and rebuild: the reader follows without a pause.
      let announced = 0
      index.onImage((image) => {
        announced++
        reader.worker.postMessage({ image, quiet: true })
      })
      const req = everything(queries().find((q) => index.search(q).total > 5)!)
      const shown = index.search(req).page.map((h) => h.id)
      const done = reader.next()
      reader.worker.postMessage({ hammer: req })
      const byId = new Map(all.map((r) => [r.id, r]))
      const t0 = performance.now()
      let replacements = 0
      while (performance.now() - t0 < 800) {
        for (const id of shown) index.upsert(byId.get(id)!)
        replacements += shown.length
        await new Promise((r) => setImmediate(r))
      }
      reader.worker.postMessage({ stop: true })
      const { searches, bad } = await done
      expect(replacements).toBeGreaterThan(100)
      expect(announced).toBeGreaterThan(0)
      // However busy the machine, the reader searched while the writer replaced trips.
      expect(searches).toBeGreaterThan(0)
      expect(bad).toBe(0)
      // Once the writer stops, the reader sees exactly the writer's answer.
      expect(await reader.search(req)).toEqual(index.search(req))
    } finally {
      await reader.worker.terminate()
      store.cleanup()
    }
  })

  it("keeps a reader that has not adopted the grown columns yet on a whole, older view: no trip it cannot read, none twice", async () => {
    const store = await makeStore(1000, 9)
    try {
      const all = loadRecords(store.dbPath)
      const index = TripIndex.from(all, { rebuildAfter: 1_000_000, compactAfter: 1_000_000 })
      // The image before any growth, searched without ever adopting a later one.
      const stale = TripSearcher.over(index.image())
      const req = { ...everything(queries().find((q) => index.search(q).total > 20)!), withTrips: true }
      const shown = index.search(req).page.map((h) => h.id)
      const byId = new Map(all.map((r) => [r.id, r]))
      // Replacements append past the columns' capacity (1,024 slots): they must be copied to grow.
      let images = 0
      index.onImage(() => images++)
      for (let round = 0; round < 10; round++) for (const id of shown) index.upsert(byId.get(id)!)
      expect(images).toBeGreaterThan(0)
      const answer = stale.search(req)
      const seen = answer.page.map((h) => `${h.id}_${h.i}_${h.j}`)
      expect(new Set(seen).size).toBe(seen.length)
      for (const h of answer.page) expect(byId.has(h.id), h.id).toBe(true)
      expect(answer.trips?.size).toBe(new Set(answer.page.map((h) => h.id)).size)
      // The writer's own view is whole too, and the reader catches up once it adopts the new image.
      expect(TripSearcher.over(index.image()).search(req)).toEqual(index.search(req))
      expect(index.search(req).total).toBe(referenceSearch(all, req).total)
    } finally {
      store.cleanup()
    }
  })
})
