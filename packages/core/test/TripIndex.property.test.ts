import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_RATES, haversineKm, referenceSearch, segmentAmounts, TripIndex, type IndexRecord, type MatchRequest, type SegmentHit } from "@tripsearch/core"
import { EDGE_HUBS, everyMatch, indexRecord, indexRecords, matchRequest, matchRequestNear, NOW } from "./arbitraries.js"

/** A generated update: trip `t${k}` (existing or not) is replaced, or removed. */
type UpdateOp = readonly [k: number, remove: boolean]
const updateOps = fc.array(fc.tuple(fc.integer({ min: 0, max: 45 }), fc.boolean()), { maxLength: 30 })

/** Plays one update on the index and on the map of live trips the reference searches. */
const applyUpdate = (index: TripIndex, live: Map<string, IndexRecord>, [k, remove]: UpdateOp, replacement: IndexRecord): void => {
  const id = `t${k}`
  if (remove) {
    index.remove(id)
    live.delete(id)
  } else {
    const r = { ...replacement, id }
    index.upsert(r)
    live.set(id, r)
  }
}

describe("TripIndex against the brute-force reference", () => {
  it("gives the reference's total, page, top trips, facets and aggregates", () => {
    fc.assert(
      fc.property(indexRecords(60), matchRequest, (records, req) => {
        const index = TripIndex.from(records)
        expect(index.search(req)).toEqual(referenceSearch(records, req))
        // The generated page is empty in most runs (an offset past the total, a limit of 0): every
        // match shown too, so that each one's segment and rank are compared, not only counted.
        const all = everyMatch(req)
        expect(index.search(all)).toEqual(referenceSearch(records, all))
      }),
      { numRuns: 400 }
    )
  })

  it("agrees with the reference astride the antimeridian and by the pole", () => {
    fc.assert(
      fc.property(indexRecords(60, EDGE_HUBS), matchRequestNear(EDGE_HUBS), (records, req) => {
        const index = TripIndex.from(records)
        expect(index.search(req)).toEqual(referenceSearch(records, req))
      }),
      { numRuns: 300 }
    )
  })

  it("agrees with the reference on trips of up to 24 waypoints (stop-overs past the 15th near a place)", () => {
    fc.assert(
      fc.property(indexRecords(30, undefined, 24), matchRequest, (records, req) => {
        const index = TripIndex.from(records)
        expect(index.search(req)).toEqual(referenceSearch(records, req))
      }),
      { numRuns: 200 }
    )
  })

  it("agrees with the reference on waypoints exactly on the radius or a hair inside or outside it", () => {
    // The grid's chord test keeps a margin on either side of the radius, and skips the haversine
    // for waypoints well inside it: the radius is set here at a waypoint's own distance, give or
    // take the last bits of a double, so both margins are crossed.
    const hair = fc.constantFrom(0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 3e-5, -3e-5, 3e-4, -3e-4)
    fc.assert(
      fc.property(indexRecords(40), matchRequest, fc.nat(), fc.nat(), hair, hair, (records, req, pick, k, hairF, hairT) => {
        fc.pre(records.length > 0)
        const r = records[pick % records.length]!
        const at = (place: NonNullable<MatchRequest["from"]>, w: number, hairKm: number) => ({
          ...place,
          radiusKm: Math.max(1e-6, haversineKm(place.lat, place.lon, r.lat[w]!, r.lon[w]!) * (1 + hairKm))
        })
        const n = r.lat.length
        const edged: MatchRequest = {
          ...req,
          ...(req.from !== undefined ? { from: at(req.from, k % (n - 1), hairF) } : {}),
          ...(req.to !== undefined ? { to: at(req.to, 1 + (k % (n - 1)), hairT) } : {})
        }
        expect(TripIndex.from(records).search(edged)).toEqual(referenceSearch(records, edged))
      }),
      { numRuns: 300 }
    )
  })

  it("agrees with the reference on one place with two of a trip's waypoints at nearly the same distance from it", () => {
    // One place only: the nearest of a trip's waypoints near it decides, and the index tells the
    // nearest by a coarse rank of its chord where the gap is wide. Two waypoints are set here on
    // either side of the place, one of them farther by `hair` (relative), ties included, so that
    // their ranks are equal, adjacent or apart, and both inside the radius or one at its edge.
    const hair = fc.constantFrom(0, 1e-15, -1e-15, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 0.01, -0.01, 0.02, -0.02, 0.05, -0.05, 0.3, -0.3)
    const offset = fc.record({ dLat: fc.double({ min: -0.8, max: 0.8, noNaN: true }), dLon: fc.double({ min: -0.8, max: 0.8, noNaN: true }) })
    fc.assert(
      fc.property(indexRecords(30), matchRequest, fc.nat(), fc.boolean(), offset, hair, fc.constantFrom(1.001, 1.2, 3), (records, req, pick, departure, { dLat, dLon }, h, widen) => {
        const place = req.from ?? req.to
        const eligible = records.filter((r) => r.lat.length >= 3)
        fc.pre(place !== undefined && eligible.length > 0 && Math.abs(place.lat) < 80)
        const r = eligible[pick % eligible.length]!
        // Departure only compares waypoints before the last; arrival only, after the first.
        const [a, b] = departure ? [0, 1] : [1, 2]
        const lat = [...r.lat]
        const lon = [...r.lon]
        lat[a] = place!.lat + dLat
        lon[a] = place!.lon + dLon
        lat[b] = place!.lat - dLat * (1 + h)
        lon[b] = place!.lon - dLon * (1 + h)
        const moved: IndexRecord = { ...r, lat, lon }
        const all = records.map((x) => (x === r ? moved : x))
        const far = Math.max(haversineKm(place!.lat, place!.lon, lat[a]!, lon[a]!), haversineKm(place!.lat, place!.lon, lat[b]!, lon[b]!))
        const one = { ...place!, radiusKm: Math.max(1, far * widen) }
        const { from: _f, to: _t, ...rest } = req
        const single: MatchRequest = departure ? { ...rest, from: one } : { ...rest, to: one }
        expect(TripIndex.from(all).search(single)).toEqual(referenceSearch(all, single))
      }),
      { numRuns: 400 }
    )
  })

  it("agrees with the reference on a pair whose trip has two waypoints at nearly the same distance from each place", () => {
    // A pair's segment is the least sum of the two distances: two waypoints around each place, one
    // farther by a hair (ties included), so that sums nearly tie too.
    const hair = fc.constantFrom(0, 1e-15, -1e-15, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 0.01, -0.01, 0.02, -0.02, 0.05, -0.05, 0.3, -0.3)
    const offset = fc.record({ dLat: fc.double({ min: -0.6, max: 0.6, noNaN: true }), dLon: fc.double({ min: -0.6, max: 0.6, noNaN: true }) })
    const shift = fc.record({ lat: fc.double({ min: -3, max: 3, noNaN: true }), lon: fc.double({ min: -3, max: 3, noNaN: true }) })
    fc.assert(
      fc.property(
        indexRecords(30),
        matchRequest,
        fc.nat(),
        shift,
        offset,
        offset,
        hair,
        hair,
        fc.constantFrom(1.001, 1.2, 3),
        (records, req, pick, away, o1, o2, h1, h2, widen) => {
          const from = req.from ?? req.to
          const eligible = records.filter((r) => r.lat.length >= 4)
          fc.pre(from !== undefined && eligible.length > 0 && Math.abs(from.lat) < 75)
          const to = { lat: from!.lat + away.lat, lon: from!.lon + away.lon }
          const r = eligible[pick % eligible.length]!
          const lat = [...r.lat]
          const lon = [...r.lon]
          const around = (p: { lat: number; lon: number }, a: number, b: number, { dLat, dLon }: { dLat: number; dLon: number }, h: number) => {
            lat[a] = p.lat + dLat
            lon[a] = p.lon + dLon
            lat[b] = p.lat - dLat * (1 + h)
            lon[b] = p.lon - dLon * (1 + h)
            return Math.max(haversineKm(p.lat, p.lon, lat[a]!, lon[a]!), haversineKm(p.lat, p.lon, lat[b]!, lon[b]!))
          }
          const n = lat.length
          const farF = around(from!, 0, 1, o1, h1)
          const farT = around(to, n - 2, n - 1, o2, h2)
          const all = records.map((x) => (x === r ? { ...r, lat, lon } : x))
          const pair: MatchRequest = {
            ...req,
            from: { ...from!, radiusKm: Math.max(1, farF * widen) },
            to: { ...to, radiusKm: Math.max(1, farT * widen) }
          }
          expect(TripIndex.from(all).search(pair)).toEqual(referenceSearch(all, pair))
        }
      ),
      { numRuns: 400 }
    )
  })

  it("ranks top trips in one total order, zero distances last, whatever the order of the trips", () => {
    // A zero-price segment over 1 m, a zero-price one and a priced one over 0 m: compared as bare
    // cross products these form a cycle (0·1 = 0·0, 0·0 = p·0, 0·0 < p·1), and the ranking then
    // depended on the order in which trips were loaded.
    const trip = (id: string, offsetMin: number, legPriceMinor: number, legDistanceM: number): IndexRecord => ({
      id,
      departureMs: NOW,
      lat: [45, 45.1],
      lon: [5, 5.1],
      offsetMin: [offsetMin, offsetMin + 30],
      zoneOffsetMin: [0, 0],
      legPriceMinor: [legPriceMinor],
      legDistanceM: [legDistanceM],
      legDurationS: [1800],
      currency: "EUR",
      seats: 3,
      seatsLeft: 1,
      autoBooking: true,
      bookingType: "no_booking",
      short: false,
      hasPhoto: false,
      experience: 0,
      comfortStars: 1
    })
    // (A zero price comes from rounding a converted price; a zero leg price stands for it here.)
    const records = [trip("a", 1, 0, 0), trip("b", 1, 0, 1), trip("c", 0, 500, 0)]
    const req: MatchRequest = {
      from: { lat: 45, lon: 5, radiusKm: 1 },
      nowMs: NOW,
      photoOnly: false,
      autoOnly: false,
      includeShort: false,
      currency: "EUR",
      priceMode: "net",
      rates: DEFAULT_RATES,
      sort: "trip_date",
      order: "asc",
      offset: 0,
      limit: 0,
      withTopTrips: true
    }
    for (const order of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
      const shuffled = order.map((k) => records[k]!)
      expect(TripIndex.from(shuffled).search(req).top.map((h) => h.id)).toEqual(["b", "c", "a"])
      expect(referenceSearch(shuffled, req).top.map((h) => h.id)).toEqual(["b", "c", "a"])
    }
  })

  it("returns only segments that satisfy every filter of the search parameters", () => {
    const satisfies = (r: IndexRecord, h: SegmentHit, req: MatchRequest): void => {
      const n = r.lat.length - 1
      expect(h.i).toBeLessThan(h.j)
      if (req.from) expect(haversineKm(req.from.lat, req.from.lon, r.lat[h.i]!, r.lon[h.i]!)).toBeLessThanOrEqual(req.from.radiusKm)
      else expect(h.i).toBe(0)
      if (req.to) expect(haversineKm(req.to.lat, req.to.lon, r.lat[h.j]!, r.lon[h.j]!)).toBeLessThanOrEqual(req.to.radiusKm)
      else expect(h.j).toBe(n)
      const utc = r.departureMs + r.offsetMin[h.i]! * 60_000
      const local = new Date(utc + r.zoneOffsetMin[h.i]! * 60_000)
      expect(utc).toBeGreaterThanOrEqual(req.nowMs)
      if (req.localFromMs !== undefined) expect(local.getTime()).toBeGreaterThanOrEqual(req.localFromMs)
      if (req.localToMs !== undefined) expect(local.getTime()).toBeLessThanOrEqual(req.localToMs)
      if (req.hourFrom !== undefined) expect(local.getUTCHours()).toBeGreaterThanOrEqual(req.hourFrom)
      if (req.hourTo !== undefined) expect(local.getUTCHours()).toBeLessThan(req.hourTo)
      if (req.seats !== undefined) expect(r.seatsLeft).toBeGreaterThanOrEqual(req.seats)
      if (req.photoOnly) expect(r.hasPhoto).toBe(true)
      if (req.autoOnly) expect(r.autoBooking).toBe(true)
      if (!req.includeShort) expect(r.short).toBe(false)
      const net = r.legPriceMinor.slice(h.i, h.j).reduce((a, b) => a + b, 0)
      const price = segmentAmounts(net, r.currency, r.bookingType, req.currency, req.priceMode, req.rates).price
      if (req.priceMinMinor !== undefined) expect(price).toBeGreaterThanOrEqual(req.priceMinMinor)
      if (req.priceMaxMinor !== undefined) expect(price).toBeLessThanOrEqual(req.priceMaxMinor)
    }
    fc.assert(
      fc.property(indexRecords(60), matchRequest, (records, req) => {
        const byId = new Map(records.map((r) => [r.id, r]))
        const result = TripIndex.from(records).search(everyMatch(req))
        for (const h of [...result.page, ...result.top]) satisfies(byId.get(h.id)!, h, req)
        expect(new Set(result.page.map((h) => h.id)).size).toBe(result.page.length)
      }),
      { numRuns: 300 }
    )
  })

  it("pages partition the whole result in sort order", () => {
    fc.assert(
      fc.property(indexRecords(60), matchRequest, fc.integer({ min: 1, max: 7 }), (records, req, limit) => {
        const index = TripIndex.from(records)
        const all = index.search(everyMatch(req))
        const paged = []
        for (let offset = 0; offset < all.total + limit; offset += limit) paged.push(...index.search({ ...req, offset, limit }).page)
        expect(paged).toEqual(all.page)
        expect(all.page.length).toBe(all.total)
      }),
      { numRuns: 150 }
    )
  })

  it("renumbers a bulk load that replaced and removed trips before it ended, and keeps following updates", () => {
    fc.assert(
      fc.property(
        indexRecords(40),
        updateOps,
        fc.array(indexRecord("x"), { minLength: 60, maxLength: 60 }),
        matchRequest,
        (records, ops, replacements, req) => {
          const index = new TripIndex()
          const live = new Map<string, IndexRecord>()
          const play = (op: UpdateOp, n: number): void => applyUpdate(index, live, op, replacements[n]!)
          index.beginLoad()
          for (const r of records) {
            index.upsert(r)
            live.set(r.id, r)
          }
          // Dead slots left inside the load must be dropped by the renumbering, not revived.
          ops.forEach(play)
          index.endLoad()
          expect(index.size).toBe(live.size)
          expect(index.search(req)).toEqual(referenceSearch([...live.values()], req))
          ops.forEach(([k, remove], n) => play([(k * 7) % 46, !remove], n + 30))
          expect(index.size).toBe(live.size)
          expect(index.search(req)).toEqual(referenceSearch([...live.values()], req))
        }
      ),
      { numRuns: 150 }
    )
  })

  it("follows updates and removals like a rebuilt index, through grid rebuilds and compactions", () => {
    fc.assert(
      fc.property(
        fc.constantFrom({}, { rebuildAfter: 1, compactAfter: 1 }, { rebuildAfter: 5, compactAfter: 3 }),
        indexRecords(40),
        updateOps,
        fc.array(indexRecord("x"), { minLength: 30, maxLength: 30 }),
        matchRequest,
        (options, records, ops, replacements, req) => {
          const index = TripIndex.from(records, options)
          const live = new Map(records.map((r) => [r.id, r]))
          ops.forEach((op, n) => applyUpdate(index, live, op, replacements[n]!))
          expect(index.size).toBe(live.size)
          expect(index.search(req)).toEqual(referenceSearch([...live.values()], req))
        }
      ),
      { numRuns: 150 }
    )
  })

  it("refuses a record whose seats left, experience or currency it cannot hold, and keeps the trip it had", () => {
    fc.assert(
      fc.property(
        indexRecords(20),
        fc.constantFrom<Partial<IndexRecord>>({ seatsLeft: 256 }, { seatsLeft: -1 }, { experience: 8 }, { comfortStars: 1.5 }, { currency: "XXX" as IndexRecord["currency"] }),
        matchRequest,
        (records, bad, req) => {
          fc.pre(records.length > 0)
          const index = TripIndex.from(records)
          expect(() => index.upsert({ ...records[0]!, ...bad })).toThrow(RangeError)
          expect(index.size).toBe(records.length)
          expect(index.search(req)).toEqual(referenceSearch(records, req))
        }
      ),
      { numRuns: 60 }
    )
  })
})
