import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { NearHits } from "../src/search/tripIndex/NearHits.js"

/** A stop `k` of trip `slot` found near a place, as `GeoGrid.scanNear` reports it (`near`: its squared chord over the bound). */
type Hit = readonly [slot: number, k: number, sure: 0 | 1, near: number]

// Slots over 11 bits (two passes of the slot sort), many hits on a few of them.
const SLOTS = 5000
const hit = fc.tuple(
  fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: SLOTS - 1 })),
  // A waypoint's place among the waypoints, or 256 + a stop along the road's among its trip's
  // stops along the road (from 1, 255 for any later one).
  fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 257, max: 511 })), fc.constantFrom(0 as const, 1 as const), fc.double({ min: 0, max: 1, noNaN: true }))
const hits = fc.array(hit, { maxLength: 200 })

/** The word the matcher's rule reads, built directly: bit k (and 16 + k when sure) below 15, else OVERFLOW. */
const bit = (k: number, sure: number): number => (k < 15 ? (1 << k) | (sure << (16 + k)) : 0x8000)
const words = (list: ReadonlyArray<Hit>): Map<number, number> => {
  const out = new Map<number, number>()
  for (const [slot, k, sure] of list) out.set(slot, (out.get(slot) ?? 0) | (k < 256 ? bit(k, sure) : 0))
  return out
}
/** Each slot's first and last place among its stops along the road that were hit, as `first | last << 8`, 0 for none. */
const spans = (list: ReadonlyArray<Hit>): Map<number, number> => {
  const lo = new Map<number, number>()
  const hi = new Map<number, number>()
  for (const [slot, k] of list) {
    if (k < 256) continue
    lo.set(slot, Math.min(lo.get(slot) ?? 255, k - 256))
    hi.set(slot, Math.max(hi.get(slot) ?? 0, k - 256))
  }
  return new Map([...lo].map(([slot, first]) => [slot, first | (hi.get(slot)! << 8)]))
}

/** What one search should answer: the candidates in slot order and each one's words per side. */
const expected = (first: ReadonlyArray<Hit>, second: ReadonlyArray<Hit> | undefined) => {
  const a = words(first)
  const b = second === undefined ? undefined : words(second)
  const slots = [...a.keys()].filter((s) => b === undefined || b.has(s)).sort((x, y) => x - y)
  return { slots, a, b }
}

type Shape = "only" | "mark" | "then" | "span"
const callbacks = (near: NearHits, shape: Shape, side: 1 | 2) =>
  shape === "only" ? (side === 1 ? near.onlyFrom : near.onlyTo)
  : shape === "mark" ? (side === 1 ? near.markFrom : near.markTo)
  : shape === "then" ? (side === 1 ? near.thenFrom : near.thenTo)
  : () => {} // the walk again for spans takes stops only

/**
 * `list`'s hits given as the two scans give them: a waypoint to `GeoGrid.scanNear`'s callback, a run
 * of consecutive stops along the road as `AlongGrid.scanNear` gives one meeting point's stops
 * (`span`: the stops only, as the searcher walks a pair's first place again).
 */
const scan = (near: NearHits, shape: Shape, side: 1 | 2, list: ReadonlyArray<Hit>): void => {
  const take = callbacks(near, shape, side)
  const stops = near.stops(shape, side, false)
  for (let h = 0; h < list.length; ) {
    const [slot, k, sure, n] = list[h]!
    if (k < 256) {
      take(slot, k, sure, n)
      h++
      continue
    }
    let end = h
    while (end < list.length && list[end]![1] >= 256) end++
    const run = list.slice(h, end)
    stops(Int32Array.from(run, ([s]) => s), Uint8Array.from(run, ([, kk]) => kk - 256), 0, run.length, sure, n)
    h = end
  }
}

/**
 * One place, `list` as the searcher gives it: its waypoints first, then its stops along the road,
 * a meeting point's run after another; with `once` (a wide radius), those taken once per trip.
 */
const scanOne = (near: NearHits, side: 1 | 2, list: ReadonlyArray<Hit>, once: boolean): void => {
  const take = once ? (side === 1 ? near.onlyFromOnce : near.onlyToOnce) : callbacks(near, "only", side)
  for (const [slot, k, sure, n] of list) if (k < 256) take(slot, k, sure, n)
  const stops = near.stops("only", side, once)
  const run = list.filter(([, k]) => k >= 256)
  for (let h = 0; h < run.length; ) {
    const [, , sure, n] = run[h]!
    const end = Math.min(run.length, h + 1 + (h % 3))
    stops(Int32Array.from(run.slice(h, end), ([s]) => s), Uint8Array.from(run.slice(h, end), ([, k]) => k - 256), 0, end - h, sure, n)
    h = end
  }
}

/** One place: the trips whose stops along the road are listed, those without a waypoint surely within the radius. */
const unsure = (list: ReadonlyArray<Hit>): ReadonlyArray<Hit> => {
  const sure = new Set(list.filter(([, k, s]) => k < 256 && s === 1).map(([slot]) => slot))
  return list.filter(([slot]) => !sure.has(slot))
}

/**
 * A pair's second place given `list` as the searcher gives it when it reads the stops along the
 * road of the first place's trips rather than its meeting points' lists (`thenByTrip`): its
 * waypoints to `GeoGrid.scanNear`'s callback, then each trip's own stops, over columns made so
 * that trip `slot`'s stop at place p is at a meeting point near the place exactly when `list` has
 * that hit (meeting point 1, in `mpNear`; the others at meeting point 0).
 */
const scanByTrip = (near: NearHits, side: 1 | 2, list: ReadonlyArray<Hit>, once: boolean): void => {
  const take = callbacks(near, "then", side)
  for (const [slot, k, sure, n] of list) if (k < 256) take(slot, k, sure, n)
  const wpStart = new Int32Array(SLOTS)
  const wpCount = new Uint16Array(SLOTS).fill(2)
  // Two waypoints per trip, its stops along the road between them: 255 places for each trip hit, none for the others.
  const hitTrips = [...new Set(list.filter(([, k]) => k >= 256).map(([slot]) => slot))]
  const wAlong = new Int32Array(2 * SLOTS + 2)
  const aMp = new Int32Array(255 * hitTrips.length)
  hitTrips.forEach((slot, b) => {
    wpStart[slot] = 2 * slot + 2
    wAlong[2 * slot + 2] = 255 * b
    wAlong[2 * slot + 3] = 255 * (b + 1)
  })
  for (const [slot, k] of list) if (k >= 256) aMp[wAlong[2 * slot + 2]! + k - 256 - 1] = 1
  near.thenByTrip(wpStart, wpCount, wAlong, aMp, Int32Array.of(0b10), side, once)
}

/** One search of `shape`, the place scanned first (`firstSide`) given `first`, the other `second`. */
const search = (near: NearHits, firstSide: 1 | 2, first: ReadonlyArray<Hit>, second: ReadonlyArray<Hit> | undefined, byTrip: boolean, once: boolean) => {
  near.begin(SLOTS)
  const otherSide = firstSide === 1 ? 2 : 1
  if (second === undefined) scanOne(near, firstSide, first, once)
  else {
    scan(near, "mark", firstSide, first)
    if (byTrip) scanByTrip(near, otherSide, second, once)
    else scan(near, "then", otherSide, second)
    scan(near, "span", firstSide, first)
  }
  return [...near.candidates()]
}

const searchSpec = fc.record({
  firstSide: fc.constantFrom(1 as const, 2 as const),
  first: hits,
  second: fc.option(hits, { nil: undefined }),
  // A search that stops after its scans (a throw), before asking its candidates; a pair's, before
  // or after its first place's walk again.
  abandoned: fc.boolean(),
  spanned: fc.boolean(),
  // A pair's second place's stops along the road read from its trips' own stops (`thenByTrip`),
  // each trip's first hit only (`once`: its span is then not read). One place: a wide radius's
  // scans (`scanOnce`), whose span is not read either.
  byTrip: fc.boolean(),
  once: fc.boolean()
})

describe("NearHits (the scan's hits per candidate trip)", () => {
  it("answers, search after search, the candidates and words a direct tally gives, abandoned searches leaving nothing behind", () => {
    fc.assert(
      fc.property(fc.array(searchSpec, { minLength: 1, maxLength: 8 }), (searches) => {
        const near = new NearHits()
        for (const { firstSide, first, second, abandoned, spanned, byTrip, once: onceAsked } of searches) {
          const once = (second === undefined || byTrip) && onceAsked
          if (abandoned) {
            near.begin(SLOTS)
            if (second === undefined) scanOne(near, firstSide, first, once)
            else scan(near, "mark", firstSide, first)
            if (second !== undefined) {
              if (byTrip) scanByTrip(near, firstSide === 1 ? 2 : 1, second, once)
              else scan(near, "then", firstSide === 1 ? 2 : 1, second)
            }
            if (second !== undefined && spanned) scan(near, "span", firstSide, first)
            continue
          }
          const got = search(near, firstSide, first, second, byTrip, once)
          const want = expected(first, second)
          expect(got).toEqual(want.slots)
          const otherSide = firstSide === 1 ? 2 : 1
          for (const slot of got) {
            expect(near.wordOf(slot, firstSide)).toBe(want.a.get(slot))
            // One place: a trip with a waypoint surely within the radius lists no stop along the road.
            if (want.b !== undefined) expect(near.spanOf(slot, firstSide)).toBe(spans(first).get(slot) ?? 0)
            else if (!once) expect(near.spanOf(slot, firstSide)).toBe(spans(unsure(first)).get(slot) ?? 0)
            if (want.b !== undefined) {
              expect(near.wordOf(slot, otherSide)).toBe(want.b.get(slot))
              if (!once) expect(near.spanOf(slot, otherSide)).toBe(spans(second!).get(slot) ?? 0)
            }
          }
        }
      }),
      { numRuns: 500, endOnFailure: true }
    )
  })
})
