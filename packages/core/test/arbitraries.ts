import { FastCheck as fc } from "effect"
import { CURRENCIES, DEFAULT_RATES, type IndexRecord, type MatchRequest } from "@tripsearch/core"

/** Hubs close enough that radii, stop-overs and sub-trips all come into play. */
export const HUBS = [
  { lat: 48.8566, lon: 2.3522 },
  { lat: 45.764, lon: 4.8357 },
  { lat: 48.3, lon: 2.9 },
  { lat: 46.2, lon: 4.4 },
  { lat: 47.0, lon: 3.6 }
] as const

/** Hubs astride the antimeridian and by the pole, where bounding boxes split or span every longitude. */
export const EDGE_HUBS = [
  { lat: -17.7, lon: 179.9 },
  { lat: -17.9, lon: -179.8 },
  { lat: 89.7, lon: 10 },
  { lat: 89.6, lon: -170 }
] as const

type Hub = { readonly lat: number; readonly lon: number }

export const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)

const pointNear = (hubs: ReadonlyArray<Hub>) =>
  fc
    .record({ hub: fc.integer({ min: 0, max: hubs.length - 1 }), dLat: fc.double({ min: -0.4, max: 0.4, noNaN: true }), dLon: fc.double({ min: -0.4, max: 0.4, noNaN: true }) })
    .map(({ hub, dLat, dLon }) => {
      const lon = hubs[hub]!.lon + dLon
      return { lat: Math.min(90, hubs[hub]!.lat + dLat), lon: lon >= 180 ? lon - 360 : lon < -180 ? lon + 360 : lon }
    })
const point = pointNear(HUBS)

/** A trip of 2 to `maxPoints` waypoints around `hubs`. */
export const indexRecord = (id: string, hubs: ReadonlyArray<Hub> = HUBS, maxPoints = 6): fc.Arbitrary<IndexRecord> =>
  fc
    .record({
      points: fc.array(hubs === HUBS ? point : pointNear(hubs), { minLength: 2, maxLength: maxPoints }),
      departure: fc.integer({ min: -1 * 24 * 60, max: 8 * 24 * 60 }),
      gaps: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: maxPoints - 1, maxLength: maxPoints - 1 }),
      zone: fc.constantFrom(0, 60, 120, -300, 330),
      prices: fc.array(fc.integer({ min: 1, max: 9000 }), { minLength: maxPoints - 1, maxLength: maxPoints - 1 }),
      dists: fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: maxPoints - 1, maxLength: maxPoints - 1 }),
      currency: fc.constantFrom(...CURRENCIES),
      seats: fc.integer({ min: 1, max: 8 }),
      left: fc.integer({ min: 0, max: 8 }),
      auto: fc.boolean(),
      bookingType: fc.constantFrom("online" as const, "onboard" as const, "no_booking" as const),
      short: fc.boolean(),
      photo: fc.boolean(),
      experience: fc.integer({ min: 0, max: 4 }),
      comfort: fc.integer({ min: 1, max: 4 })
    })
    .map((g) => {
      const n = g.points.length
      const offsets = [0]
      for (let k = 1; k < n; k++) offsets.push(offsets[k - 1]! + g.gaps[k - 1]!)
      return {
        id,
        departureMs: NOW + g.departure * 60_000,
        lat: g.points.map((p) => p.lat),
        lon: g.points.map((p) => p.lon),
        offsetMin: offsets,
        zoneOffsetMin: g.points.map(() => g.zone),
        legPriceMinor: g.prices.slice(0, n - 1),
        legDistanceM: g.dists.slice(0, n - 1),
        legDurationS: g.gaps.slice(0, n - 1).map((m) => m * 60),
        currency: g.currency,
        seats: g.seats,
        seatsLeft: Math.min(g.left, g.seats),
        autoBooking: g.auto,
        bookingType: g.bookingType,
        short: g.short,
        hasPhoto: g.photo,
        experience: g.experience,
        comfortStars: g.comfort
      }
    })

/** Ids chosen so that code-unit order matters (`t10` < `t1_0_2` < `t9`). */
export const indexRecords = (max: number, hubs: ReadonlyArray<Hub> = HUBS, maxPoints = 6): fc.Arbitrary<Array<IndexRecord>> =>
  fc.integer({ min: 0, max }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, k) => indexRecord(`t${k}`, hubs, maxPoints))))

const placeNear = (hubs: ReadonlyArray<Hub>) =>
  fc.option(
    fc
      .record({
        p: pointNear(hubs),
        // Now and then a region's radius, up to the API's 500 km.
        radiusKm: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 150 }), weight: 4 }, { arbitrary: fc.integer({ min: 100, max: 500 }), weight: 1 })
      })
      .map(({ p, radiusKm }) => ({ ...p, radiusKm })),
    { nil: undefined }
  )
/** Mostly absent, so that several filters rarely all apply and most runs still match trips. */
const opt = <A>(a: fc.Arbitrary<A>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: a, weight: 1 })
const rarely = fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 })
const DAY = 86_400_000

export const matchRequestNear = (hubs: ReadonlyArray<Hub>): fc.Arbitrary<MatchRequest> => fc
  .record({
    from: placeNear(hubs),
    to: placeNear(hubs),
    fromDay: opt(fc.integer({ min: 0, max: 6 })),
    span: fc.integer({ min: 0, max: 5 }),
    hourFrom: opt(fc.integer({ min: 0, max: 23 })),
    hourTo: opt(fc.integer({ min: 1, max: 24 })),
    seats: opt(fc.integer({ min: 1, max: 8 })),
    photoOnly: rarely,
    autoOnly: rarely,
    includeShort: fc.boolean(),
    price: opt(fc.tuple(fc.integer({ min: 0, max: 40000 }), fc.integer({ min: 0, max: 400000 }))),
    currency: fc.constantFrom(...CURRENCIES),
    priceMode: fc.constantFrom("with" as const, "net" as const),
    sort: fc.constantFrom("trip_date" as const, "trip_price" as const),
    order: fc.constantFrom("asc" as const, "desc" as const),
    offset: fc.integer({ min: 0, max: 30 }),
    limit: fc.integer({ min: 0, max: 40 }),
    withTopTrips: fc.boolean()
  })
  .map((g) => {
    const startDay = Math.floor(NOW / DAY) * DAY
    return {
      ...(g.from ? { from: g.from } : {}),
      ...(g.to ? { to: g.to } : {}),
      nowMs: NOW,
      ...(g.fromDay !== undefined ? { localFromMs: startDay + g.fromDay * DAY, localToMs: startDay + (g.fromDay + g.span) * DAY + DAY - 1000 } : {}),
      ...(g.hourFrom !== undefined ? { hourFrom: g.hourFrom } : {}),
      ...(g.hourTo !== undefined ? { hourTo: g.hourTo } : {}),
      ...(g.seats !== undefined ? { seats: g.seats } : {}),
      photoOnly: g.photoOnly,
      autoOnly: g.autoOnly,
      includeShort: g.includeShort,
      ...(g.price ? { priceMinMinor: Math.min(...g.price), priceMaxMinor: Math.max(...g.price) } : {}),
      currency: g.currency,
      priceMode: g.priceMode,
      rates: DEFAULT_RATES,
      sort: g.sort,
      order: g.order,
      offset: g.offset,
      limit: g.limit,
      withTopTrips: g.withTopTrips
    }
  })

export const matchRequest: fc.Arbitrary<MatchRequest> = matchRequestNear(HUBS)

/** The same search with every match on its page (generated pages are mostly empty: an offset past the total, a limit of 0). */
export const everyMatch = (req: MatchRequest): MatchRequest => ({ ...req, offset: 0, limit: 10_000 })
