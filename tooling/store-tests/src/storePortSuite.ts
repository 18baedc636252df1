import { type CurrencyCode, DEFAULT_RATES, encodeShown, type IndexRecord, KeyStore, type KeyTier, toIndexRecord, TripStore } from "@tripsearch/core"
import { Effect, type Layer, Option } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { feed, toLine, tripInput, variedTrips } from "./fixtures.js"

/** What an import returned (store-common's `ImportResult`). */
export type ImportOutcome =
  | { readonly ok: true; readonly imported: number; readonly unchanged: number; readonly seq: number }
  | { readonly ok: false; readonly errors: ReadonlyArray<string> }

/** A feed given to an import: lines, or byte chunks split anywhere. */
export type FeedInput = ReadonlyArray<string> | ReadonlyArray<Uint8Array>

/** One store, fresh and empty, as each adapter opens it, with what the tests need to drive it. */
export interface StoreUnderTest {
  readonly trips: TripStore["Type"]
  readonly importFeed: (source: FeedInput) => Promise<ImportOutcome>
  readonly setRate: (currency: CurrencyCode, perEur: number | undefined) => Promise<void>
  /** Everything an import may change: every trip row and the meta values `data_version` and `last_import_at`. */
  readonly state: () => Promise<unknown>
  /** The TripStore over the same data through another connection, as another process opens it. */
  readonly reopenTrips: () => Promise<{ readonly trips: TripStore["Type"]; readonly close: () => Promise<void> }>
  readonly createKey: (input: { readonly name: string; readonly tier?: KeyTier; readonly dailyLimit?: number }) => Promise<{ readonly id: string; readonly key: string }>
  readonly listKeys: () => Promise<ReadonlyArray<{ readonly id: string; readonly revoked: boolean }>>
  readonly revokeKey: (id: string) => Promise<boolean>
  /** The adapter's KeyStore layer over the same data: counts flushed on release. */
  readonly keyStoreLayer: () => Layer.Layer<KeyStore>
  /** The stored usage rows of a key, by day. */
  readonly storedUsage: (keyId: string) => Promise<ReadonlyArray<{ readonly day: string; readonly count: number }>>
  readonly close: () => Promise<void>
}

export interface StoreFactory {
  /** The adapter's name, in the tests' titles. */
  readonly name: string
  /** A new, empty store. */
  readonly open: () => Promise<StoreUnderTest>
}

const lines = (...trips: ReadonlyArray<Record<string, unknown>>): Array<string> => trips.map(toLine)

/**
 * The cases every adapter of the `TripStore` and `KeyStore` ports passes, with the same data and the
 * same expectations: what the index is loaded from and follows, the feed import's rules and
 * messages, keys and their daily counts.
 */
export const storePortSuite = (factory: StoreFactory): void => {
  describe(`${factory.name}: the TripStore and KeyStore ports`, () => {
    let store: StoreUnderTest
    beforeEach(async () => {
      store = await factory.open()
    })
    afterEach(async () => {
      await store.close()
    })
    const run = <A>(effect: Effect.Effect<A>): Promise<A> => Effect.runPromise(effect)

    it("scanIndex gives exactly toIndexRecord(getTrip), with what a search shows, for every active trip, in id order", async () => {
      expect(await store.importFeed(variedTrips().map(toLine))).toMatchObject({ ok: true, imported: 30, unchanged: 0, seq: 30 })
      const scanned: Array<IndexRecord> = []
      expect(await run(store.trips.scanIndex((r) => scanned.push(r)))).toBe(30)
      expect(scanned).toHaveLength(30 - 4) // v3, v10, v17, v24 are cancelled
      expect(scanned.map((r) => r.id)).toEqual(scanned.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      for (const record of scanned) {
        const stored = Option.getOrThrow(await run(store.trips.getTrip(record.id)))
        expect({ ...record, shown: new Uint8Array(record.shown!) }).toStrictEqual({ ...toIndexRecord(stored), shown: encodeShown(stored.trip) })
      }
      const changes = await run(store.trips.changesSince(0))
      expect(changes.seq).toBe(30)
      expect(changes.removed).toEqual(["v3", "v10", "v17", "v24"])
      expect(changes.upserts).toStrictEqual([...scanned].sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1))))
    })

    it("computes each waypoint's zone offset at the instant the trip passes there (Paris, summer and winter, London)", async () => {
      const summer = tripInput("summer", { departure_time: "2026-07-15T06:30:00Z" })
      const winter = tripInput("winter", { departure_time: "2026-01-15T08:30:00+01:00" })
      // leaves Paris at 00:30 local on the night clocks go back (25 Oct 2026): Lyon and Marseille are on winter time
      const dst = tripInput("dst", { departure_time: "2026-10-24T22:30:00Z" })
      const london = tripInput("london", {
        departure_time: "2026-07-15T08:00:00+02:00",
        waypoints: [
          { city: "Paris", lat: 48.8566, lon: 2.3522, country: "FR", offset_min: 0 },
          { city: "London", lat: 51.5072, lon: -0.1276, country: "GB", offset_min: 360 }
        ],
        legs: [{ price: 40, distance_km: 460, duration_s: 21600 }]
      })
      expect(await store.importFeed(lines(summer, winter, dst, london))).toMatchObject({ ok: true })
      const offsets = async (id: string) => Option.getOrThrow(await run(store.trips.getTrip(id))).zoneOffsets
      expect(await offsets("summer")).toEqual([120, 120, 120])
      expect(await offsets("winter")).toEqual([60, 60, 60])
      expect(await offsets("dst")).toEqual([120, 60, 60])
      expect(await offsets("london")).toEqual([120, 60])
      const records: Array<IndexRecord> = []
      await run(store.trips.scanIndex((r) => records.push(r)))
      expect(records.find((r) => r.id === "dst")!.zoneOffsetMin).toEqual([120, 60, 60])
    })

    it("getTrip and getTrips read trips, cancelled ones included, leaving unknown ids out", async () => {
      await store.importFeed(lines(tripInput("a"), tripInput("b"), tripInput("c", { status: "cancelled" })))
      const page = await run(store.trips.getTrips(["c", "zzz", "a"]))
      expect([...page.keys()].sort()).toEqual(["a", "c"])
      expect(page.get("c")!.trip.status).toBe("cancelled")
      expect(page.get("a")!.zoneOffsets).toEqual([120, 120, 120])
      expect((await run(store.trips.getTrips([]))).size).toBe(0)
      expect(await run(store.trips.getTrip("zzz"))).toEqual(Option.none())
    })

    it("rates: the defaults, overridden by the store's table", async () => {
      await store.setRate("GBP", 0.8612)
      await store.setRate("HUF", 390)
      await store.setRate("HUF", undefined)
      expect(await run(store.trips.rates)).toEqual({ ...DEFAULT_RATES, GBP: 0.8612 })
      await expect(store.setRate("GBP", -1)).rejects.toThrow(/positive number/)
    })

    it("an empty store: sequence 0, no changes, no trip", async () => {
      expect(await run(store.trips.scanIndex(() => {}))).toBe(0)
      expect(await run(store.trips.changesSince(0))).toEqual({ seq: 0, upserts: [], removed: [] })
      expect(await run(store.trips.getTrip("a"))).toEqual(Option.none())
    })

    it("identity: the same for every connection to a store, another for another store", async () => {
      const identity = await run(store.trips.identity)
      const again = await store.reopenTrips()
      try {
        expect(await run(again.trips.identity)).toBe(identity)
      } finally {
        await again.close()
      }
      const other = await factory.open()
      try {
        expect(await run(other.trips.identity)).not.toBe(identity)
      } finally {
        await other.close()
      }
    })

    describe("import", () => {
      it("imports a valid feed, blank lines skipped, defaults applied", async () => {
        const result = await store.importFeed([toLine(tripInput("a1")), toLine(tripInput("a2", { service: "short" })), "", toLine(tripInput("a3"))])
        expect(result).toEqual({ ok: true, imported: 3, unchanged: 0, seq: 3 })
        const a1 = Option.getOrThrow(await run(store.trips.getTrip("a1")))
        expect(a1.trip).toMatchObject({ status: "active", luggage: "MIDDLE", viaggio_rosa: false, answer_delay: 0 })
        expect(a1.trip.waypoints[1]!.meeting_point_id).toBe(12)
        expect(Option.getOrThrow(await run(store.trips.getTrip("a2"))).trip.service).toBe("short")
      })

      it("refuses a file with one bad line in the middle, naming it, and leaves the store as it was", async () => {
        expect(await store.importFeed(lines(tripInput("a1"), tripInput("a2")))).toMatchObject({ ok: true, seq: 2 })
        const before = await store.state()
        const result = await store.importFeed(lines(tripInput("a1", { seats: 4 }), tripInput("b1"), tripInput("b2", { seats: 9 }), tripInput("b3")))
        expect(result).toEqual({ ok: false, errors: [expect.stringMatching(/^line 3: seats: /)] })
        expect(await store.state()).toEqual(before)
        expect(await run(store.trips.getTrip("b1"))).toEqual(Option.none())
        expect(Option.getOrThrow(await run(store.trips.getTrip("a1"))).trip.seats).toBe(3)
        expect((await run(store.trips.changesSince(0))).seq).toBe(2)
      })

      it("lists every bad line of a file, as `line N: field: reason`", async () => {
        const { waypoints: _w, ...noWaypoints } = tripInput("c4")
        const result = await store.importFeed([
          toLine(tripInput("c1")),
          "{not json",
          toLine(tripInput("c2", { currency: "USD" })),
          "",
          toLine(tripInput("c3", { legs: [{ price: 24.555, distance_km: 1, duration_s: 60 }, { price: 1, distance_km: 1, duration_s: 60 }] })),
          toLine(noWaypoints),
          toLine(tripInput("c1")),
          toLine(tripInput("c5", { colour: "red" })),
          toLine(tripInput("c6"))
        ])
        expect(result).toEqual({
          ok: false,
          errors: [
            expect.stringMatching(/^line 2: \(line\): must be valid JSON \(.*position 1\)$/),
            'line 3: currency: must be one of EUR, GBP, CZK, HRK, HUF, INR, MXN, PLN, RON, RSD, RUB, TRY, UAH, got "USD"',
            "line 5: legs[0].price: must have at most 2 decimal digits in EUR, got 24.555",
            "line 6: waypoints: is required",
            'line 7: id: duplicate id "c1", already on line 1',
            "line 8: colour: is not a field of the trip feed"
          ]
        })
        expect(await run(store.trips.changesSince(0))).toEqual({ seq: 0, upserts: [], removed: [] })
      })

      it("refuses a byte that is not UTF-8, by its line and offsets; skips a byte-order mark at the very start", async () => {
        const good = Buffer.from(`${toLine(tripInput("u1"))}\n`)
        const [head, tail] = toLine(tripInput("u2", { comment: "@@" })).split("@@") as [string, string]
        const bad = Buffer.concat([Buffer.from(head), Buffer.from([0xc3, 0x28]), Buffer.from(`${tail}\n`)])
        const at = Buffer.byteLength(head) // "Porte d'Orléans" comes before it: offsets count bytes
        const refused = await store.importFeed([good, bad])
        expect(refused).toEqual({
          ok: false,
          errors: [`line 2: (line): must be valid UTF-8, got byte 0xC3 at offset ${at} of the line (offset ${good.length + at} of the feed)`]
        })
        expect(await run(store.trips.getTrip("u1"))).toEqual(Option.none())
        const bom = Buffer.from([0xef, 0xbb, 0xbf])
        expect(await store.importFeed([Buffer.concat([bom, good.subarray(0, 10)]), good.subarray(10)])).toEqual({ ok: true, imported: 1, unchanged: 0, seq: 1 })
      })

      it("upserts: a re-imported trip that differs gets the next seq; one stored as given keeps its row and seq", async () => {
        await store.importFeed(lines(tripInput("a1"), tripInput("a2")))
        const result = await store.importFeed(lines(tripInput("a2"), tripInput("a1", { seats_left: 0, comment: "full now" })))
        expect(result).toEqual({ ok: true, imported: 2, unchanged: 1, seq: 3 })
        const a1 = Option.getOrThrow(await run(store.trips.getTrip("a1")))
        expect(a1.trip).toMatchObject({ seats_left: 0, comment: "full now" })
        const changes = await run(store.trips.changesSince(2))
        expect({ ...changes, upserts: changes.upserts.map((r) => ({ ...r, shown: new Uint8Array(r.shown!) })) }).toEqual({
          seq: 3,
          upserts: [{ ...toIndexRecord(a1), shown: encodeShown(a1.trip) }],
          removed: []
        })
        expect(await run(store.trips.changesSince(3))).toEqual({ seq: 3, upserts: [], removed: [] })
      })

      it("an import that changes nothing changes nothing: not a row, not a seq, not a meta value", async () => {
        await store.importFeed(lines(tripInput("a1"), tripInput("a2", { car: { ...(tripInput("a2").car as object), color_hexa: "#d8c8a8" } })))
        const before = await store.state()
        // the same trips, defaults spelled out and a colour in another case: the same decoded trips
        const same = lines(tripInput("a2", { car: { ...(tripInput("a2").car as object), color_hexa: "D8C8A8" } }), tripInput("a1", { luggage: "MIDDLE" }))
        expect(await store.importFeed(same)).toEqual({ ok: true, imported: 2, unchanged: 2, seq: 2 })
        expect(await store.importFeed([])).toEqual({ ok: true, imported: 0, unchanged: 0, seq: 2 })
        expect(await store.importFeed(["", "  "])).toEqual({ ok: true, imported: 0, unchanged: 0, seq: 2 })
        expect(await store.state()).toEqual(before)
        expect(await store.importFeed(lines(tripInput("a3")))).toEqual({ ok: true, imported: 1, unchanged: 0, seq: 3 })
        expect(await store.state()).not.toEqual(before)
      })

      it("keeps cancelled trips, which are not scanned and show as removed in changesSince", async () => {
        await store.importFeed(lines(tripInput("a1"), tripInput("a2"), tripInput("x1", { status: "cancelled" })))
        await store.importFeed(lines(tripInput("a2", { status: "cancelled" })))
        const scanned: Array<string> = []
        expect(await run(store.trips.scanIndex((r) => scanned.push(r.id)))).toBe(4)
        expect(scanned).toEqual(["a1"])
        expect(Option.getOrThrow(await run(store.trips.getTrip("a2"))).trip.status).toBe("cancelled")
        const all = await run(store.trips.changesSince(0))
        expect(all.seq).toBe(4)
        expect(all.upserts.map((r) => r.id)).toEqual(["a1"])
        expect(all.removed).toEqual(["x1", "a2"])
        expect(await run(store.trips.changesSince(3))).toEqual({ seq: 4, upserts: [], removed: ["a2"] })
      })

      it("another connection sees a committed import at once", async () => {
        const other = await store.reopenTrips()
        try {
          expect(await run(other.trips.changesSince(0))).toEqual({ seq: 0, upserts: [], removed: [] })
          await store.importFeed(lines(tripInput("a1")))
          const changes = await run(other.trips.changesSince(0))
          expect(changes.seq).toBe(1)
          expect(changes.upserts.map((r) => r.id)).toEqual(["a1"])
        } finally {
          await other.close()
        }
      })
    })

    describe("keys", () => {
      const withKeys = <A>(f: (keys: KeyStore["Type"]) => Effect.Effect<A>) => run(Effect.flatMap(KeyStore, f).pipe(Effect.provide(store.keyStoreLayer())))

      it("finds a key by its plain value; unknown and revoked keys are none", async () => {
        const basic = await store.createKey({ name: "basic one" })
        const prod = await store.createKey({ name: "prod one", tier: "production", dailyLimit: 250_000 })
        const prodDefault = await store.createKey({ name: "prod default", tier: "production" })
        await expect(store.createKey({ name: "bad", tier: "basic", dailyLimit: 5 })).rejects.toThrow(/basic keys/)
        await expect(store.createKey({ name: "bad", tier: "production", dailyLimit: 0 })).rejects.toThrow(/positive integer/)
        expect(basic.key).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/)
        await withKeys((keys) =>
          Effect.gen(function* () {
            expect(yield* keys.find(basic.key)).toEqual(Option.some({ id: basic.id, name: "basic one", tier: "basic", dailyLimit: 10_000, revoked: false }))
            expect(yield* keys.find(prod.key)).toEqual(Option.some({ id: prod.id, name: "prod one", tier: "production", dailyLimit: 250_000, revoked: false }))
            expect(Option.getOrThrow(yield* keys.find(prodDefault.key)).dailyLimit).toBe(1_000_000)
            expect(yield* keys.find("not-a-key")).toEqual(Option.none())
            expect(yield* keys.find(basic.key.slice(0, 31))).toEqual(Option.none())
          })
        )
        expect(await store.revokeKey(prod.id)).toBe(true)
        expect(await store.revokeKey(prod.id)).toBe(false)
        expect(await store.revokeKey("key-unknown")).toBe(false)
        expect((await store.listKeys()).map((k) => [k.id, k.revoked])).toEqual([
          [basic.id, false],
          [prod.id, true],
          [prodDefault.id, false]
        ])
        expect(await withKeys((keys) => keys.find(prod.key))).toEqual(Option.none())
      })

      it("lists keys in the order they were made, those made within one millisecond too", async () => {
        const made: Array<string> = []
        for (let i = 0; i < 30; i++) made.push((await store.createKey({ name: `k${i}` })).id)
        expect((await store.listKeys()).map((k) => k.id)).toEqual(made)
      })

      it("counts usage per day, writes it when the layer is released, and the counts survive reopening", async () => {
        const { id } = await store.createKey({ name: "counter" })
        const first = await withKeys((keys) =>
          Effect.gen(function* () {
            expect(yield* keys.usage(id, "2026-07-15")).toBe(0)
            for (let i = 0; i < 25; i++) yield* keys.count(id, "2026-07-15")
            yield* keys.count(id, "2026-07-16")
            return [yield* keys.usage(id, "2026-07-15"), yield* keys.usage(id, "2026-07-16"), yield* keys.usage(id, "2026-07-17")]
          })
        )
        expect(first).toEqual([25, 1, 0])
        const second = await withKeys((keys) =>
          Effect.gen(function* () {
            const stored = yield* keys.usage(id, "2026-07-15")
            yield* keys.count(id, "2026-07-15")
            return [stored, yield* keys.usage(id, "2026-07-15")]
          })
        )
        expect(second).toEqual([25, 26])
        expect(await store.storedUsage(id)).toEqual([
          { day: "2026-07-15", count: 26 },
          { day: "2026-07-16", count: 1 }
        ])
      })
    })
  })
}
