import { describe, expect, it } from "vitest"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import {
  InvalidParameter,
  PlaceNotFound,
  PlaceResolver,
  type RawParams,
  type RequestContext,
  searchTrips,
  ServiceOverloaded,
  InMemoryTripMatcher,
  TripIndex,
  TripMatcher,
  TripStore
} from "@tripsearch/core"
import { Gazetteer, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { makeSqliteTripStore, openDatabase, setRate } from "@tripsearch/storage-sqlite"
import { COMPRESSION_MIN_BYTES, EncodedBody, toXml } from "@tripsearch/http-express"
import { Cause, Context, Effect, Exit, Option } from "effect"
import { GeoPool, searchOn, WorkerFailed } from "../dist/index.js"
import { makeStore } from "./storeFixture.js"

const CONTEXT: RequestContext = { apiBaseUrl: "https://api.example.test", websiteBaseUrl: "https://www.example.test", path: "/api/v2/trips", query: "fn=Paris" }

/** Requests of every kind: coordinates, names, one place, paging and sort, currencies, and refusals. */
const FR = { locale: "fr_FR", cur: "EUR" }
const CASES: ReadonlyArray<RawParams> = [
  { ...FR, fc: "48.8566|2.3522", tc: "45.764|4.8357" },
  { ...FR, fn: "Paris", tn: "Lyon" },
  { locale: "de_DE", cur: "EUR", fn: "Lille", tn: "Marseille", sort: "trip_price", order: "desc" },
  { ...FR, fc: "48.8566|2.3522", limit: "50" },
  { tc: "43.2965|5.3698", cur: "GBP", page: "2", locale: "en_GB" },
  { ...FR, fn: "Bordeaux", tn: "Nantes", seats: "2", hb: "8", he: "20" },
  { ...FR, fc: "47.322|5.0415", radius: "30", fields: "pager,trips" },
  { ...FR, fc: "48.8566|2.3522", seats: "many" },
  { ...FR, fn: "Nowhere Xyzzy Town", tn: "Lyon" },
  { ...FR, fn: ["Paris", "Lyon"] }
]

/** The same use-case in this thread, over the same store file, an index of it and the gazetteer (or `places`). */
const inThread = (dbPath: string, places?: PlaceResolver["Type"]) => {
  const db = openDatabase(dbPath, { readonly: true })
  const store = makeSqliteTripStore(db)
  const index = new TripIndex()
  Effect.runSync(store.scanIndex((r) => index.upsert(r)))
  const gazetteer = Gazetteer.shared()
  const services = Context.make(TripStore, store).pipe(
    Context.add(TripMatcher, InMemoryTripMatcher.over(index)),
    Context.add(PlaceResolver, places ?? GazetteerPlaceResolver.service(() => gazetteer))
  )
  return { run: (params: RawParams) => Effect.runPromiseExit(Effect.provide(searchTrips(params, CONTEXT), services)), close: () => db.close() }
}

describe("whole searches in the pool's workers (searchOn)", () => {
  it.each([
    ["the worker's own gazetteer", false],
    ["names resolved in the calling thread", true]
  ])("answer exactly what the use-case answers in this thread: the same JSON, the same failures (%s)", async (_, resolveHere) => {
    const store = await makeStore(400)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 64, search: true })
    const local = inThread(store.dbPath)
    try {
      const gazetteer = Gazetteer.shared()
      const search = searchOn(pool, resolveHere ? GazetteerPlaceResolver.service(() => gazetteer) : undefined)
      let found = 0
      for (const params of CASES) {
        const [viaPool, here] = await Promise.all([Effect.runPromiseExit(search(params, CONTEXT)), local.run(params)])
        expect(Exit.isSuccess(viaPool), JSON.stringify(params)).toBe(Exit.isSuccess(here))
        if (Exit.isSuccess(viaPool) && Exit.isSuccess(here)) {
          expect(viaPool.value).toBeInstanceOf(EncodedBody)
          expect(viaPool.value.coding).toBe("identity")
          expect(JSON.parse(Buffer.from(viaPool.value.bytes).toString("utf8"))).toEqual(JSON.parse(JSON.stringify(here.value)))
          const trips = (here.value as { trips?: ReadonlyArray<unknown> }).trips
          if (trips !== undefined && trips.length > 0) found++
        } else if (Exit.isFailure(viaPool) && Exit.isFailure(here)) {
          const a = Option.getOrThrow(Cause.failureOption(viaPool.cause))
          const b = Option.getOrThrow(Cause.failureOption(here.cause))
          // Decoded back to the class, with the fields and message the HTTP edge reads.
          expect(a.constructor).toBe(b.constructor)
          expect({ ...a, message: a.message }).toEqual({ ...b, message: b.message })
        }
      }
      // The cases include real matches, and each kind of refusal.
      expect(found).toBe(7)
      const failures = await Promise.all(CASES.slice(-3).map((p) => Effect.runPromiseExit(search(p, CONTEXT))))
      const errors = failures.map((exit) => (Exit.isFailure(exit) ? Option.getOrUndefined(Cause.failureOption(exit.cause)) : undefined))
      expect(errors[0]).toBeInstanceOf(InvalidParameter)
      expect(errors[1]).toBeInstanceOf(PlaceNotFound)
      expect(errors[2]).toBeInstanceOf(InvalidParameter)
    } finally {
      local.close()
      await pool.close()
      store.cleanup()
    }
  })

  it("takes the names the calling thread resolved, asking it once per name and country, not the worker's gazetteer", async () => {
    const store = await makeStore(400)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 8, search: true })
    // A resolver no gazetteer would agree with: every name is Lyon's centre, but "Nowhere" is nowhere.
    const asked: Array<string> = []
    const lyonEverywhere: PlaceResolver["Type"] = {
      resolve: (text, country) =>
        Effect.sync(() => {
          asked.push(`${text}/${country}`)
          return text === "Nowhere" ? Option.none() : Option.some({ name: text, country, lat: 45.764, lon: 4.8357 })
        })
    }
    const local = inThread(store.dbPath, lyonEverywhere)
    try {
      const search = searchOn(pool, lyonEverywhere)
      const cases: ReadonlyArray<RawParams> = [
        { ...FR, fn: "Paris", tn: "Marseille", radius: "100" },
        { locale: "de_DE", cur: "EUR", fn: "Köln", fc: "48.8566|2.3522" },
        { ...FR, fn: "Nowhere" }
      ]
      const bodies: Array<string> = []
      for (const params of cases) {
        asked.length = 0
        const [viaPool, here] = await Promise.all([Effect.runPromiseExit(search(params, CONTEXT)), local.run(params)])
        // Asked once here, once by the in-thread reference: the worker asked nothing more.
        const expected = params.fn === "Paris" ? ["Paris/FR", "Marseille/FR"] : params.fn === "Nowhere" ? ["Nowhere/FR"] : []
        expect(asked.sort()).toEqual([...expected, ...expected].sort())
        expect(Exit.isSuccess(viaPool)).toBe(Exit.isSuccess(here))
        if (Exit.isSuccess(viaPool) && Exit.isSuccess(here)) {
          const body = Buffer.from(viaPool.value.bytes).toString("utf8")
          expect(JSON.parse(body)).toEqual(JSON.parse(JSON.stringify(here.value)))
          bodies.push(body)
        } else if (Exit.isFailure(viaPool)) {
          expect(Option.getOrUndefined(Cause.failureOption(viaPool.cause))).toBeInstanceOf(PlaceNotFound)
        }
      }
      // "Paris -> Marseille" searched Lyon to Lyon: what the gazetteer would never have answered.
      expect(JSON.parse(bodies[0]!).distance).toBe(0)
    } finally {
      local.close()
      await pool.close()
      store.cleanup()
    }
  })

  it("answers the finished bytes in the representation asked: JSON or XML, brotli, gzip or none by size", async () => {
    const store = await makeStore(400)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 8, search: true })
    const local = inThread(store.dbPath)
    try {
      const search = searchOn(pool)
      const decode = (body: EncodedBody): string => {
        const bytes = Buffer.from(body.bytes)
        return (body.coding === "br" ? brotliDecompressSync(bytes) : body.coding === "gzip" ? gunzipSync(bytes) : bytes).toString("utf8")
      }
      // A large answer (50 trips) and one under the compression threshold (fields=pager).
      const sizes: Array<boolean> = []
      for (const params of [CASES[3]!, { ...CASES[3]!, fields: "pager" }]) {
        const here = await local.run(params)
        if (!Exit.isSuccess(here)) throw new Error("the search failed in this thread")
        const texts = { json: JSON.stringify(here.value), xml: toXml(here.value as never) }
        for (const format of ["json", "xml"] as const) {
          const large = Buffer.byteLength(texts[format]) >= COMPRESSION_MIN_BYTES
          sizes.push(large)
          for (const coding of ["br", "gzip", "identity"] as const) {
            const exit = await Effect.runPromiseExit(search(params, CONTEXT, { format, coding }))
            if (!Exit.isSuccess(exit)) throw new Error(`${format}/${coding} failed`)
            const label = `${params.fields ?? "whole"} ${format} ${coding}`
            expect(exit.value.format, label).toBe(format)
            expect(exit.value.coding, label).toBe(large ? coding : "identity")
            expect(decode(exit.value), label).toBe(texts[format])
            if (large && coding !== "identity") expect(exit.value.bytes.byteLength, label).toBeLessThan(texts[format].length / 4)
          }
        }
      }
      expect(sizes).toEqual([true, true, false, false])
    } finally {
      local.close()
      await pool.close()
      store.cleanup()
    }
  })

  it("prices with the store's rates as the writer last read them: a changed rate reaches the workers within a refresh", async () => {
    const store = await makeStore(300)
    const pool = await GeoPool.start({ dbPath: store.dbPath, threads: 2, maxQueue: 16, search: true, refreshMs: 50 })
    try {
      const search = searchOn(pool)
      const params: RawParams = { locale: "en_GB", cur: "GBP", fc: "48.8566|2.3522", radius: "80", limit: "20" }
      const priceOf = async () => {
        const exit = await Effect.runPromiseExit(search(params, CONTEXT))
        if (!Exit.isSuccess(exit)) throw new Error("the search failed")
        const body = JSON.parse(Buffer.from(exit.value.bytes).toString("utf8")) as { trips: Array<{ price: { value: number } }> }
        return body.trips.map((t) => t.price.value)
      }
      const before = await priceOf()
      expect(before.length).toBeGreaterThan(0)
      const db = openDatabase(store.dbPath)
      setRate(db, "GBP", 2)
      db.close()
      const local = inThread(store.dbPath)
      try {
        const expected = await local.run(params)
        if (!Exit.isSuccess(expected)) throw new Error("the search failed in this thread")
        const want = (expected.value as { trips: Array<{ price: { value: number } }> }).trips.map((t) => t.price.value)
        expect(want).not.toEqual(before)
        const t0 = performance.now()
        let seen = await priceOf()
        while (JSON.stringify(seen) !== JSON.stringify(want) && performance.now() - t0 < 1000) seen = await priceOf()
        expect(seen).toEqual(want)
        // Both workers have it, not only the one that answered first.
        expect(await Promise.all([priceOf(), priceOf(), priceOf(), priceOf()])).toEqual([want, want, want, want])
      } finally {
        local.close()
      }
    } finally {
      await pool.close()
      store.cleanup()
    }
  })

  it("is ServiceOverloaded when the queue is full, a defect when the pool does not run searches", async () => {
    const store = await makeStore(100)
    const busyPool = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 1, testTasks: true, search: true })
    const matchOnly = await GeoPool.start({ dbPath: store.dbPath, threads: 1, maxQueue: 4 })
    try {
      const busy = [busyPool.run({ _tag: "Busy", ms: 400 }), busyPool.run({ _tag: "Busy", ms: 10 })]
      await new Promise((r) => setTimeout(r, 50))
      const full = await Effect.runPromiseExit(searchOn(busyPool)(CASES[0]!, CONTEXT))
      expect(Exit.isFailure(full) && Option.getOrUndefined(Cause.failureOption(full.cause))).toBeInstanceOf(ServiceOverloaded)
      await Promise.all(busy)

      const refused = await Effect.runPromiseExit(searchOn(matchOnly)(CASES[0]!, CONTEXT))
      expect(Exit.isFailure(refused) && Cause.isDie(refused.cause)).toBe(true)
      if (Exit.isFailure(refused)) expect(Cause.squash(refused.cause)).toBeInstanceOf(WorkerFailed)
      // The worker that refused is still serving.
      expect((await matchOnly.run({ _tag: "Stats" })).trips).toBe(100)
    } finally {
      await busyPool.close()
      await matchOnly.close()
      store.cleanup()
    }
  })
})
