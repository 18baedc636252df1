import type { FacetCounts, MatchRequest } from "../MatchRequest.js"

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

// Filter bits: a trip failing exactly one faceted filter still counts in that facet (docs/API.md, Facets).
const F_SEATS = 1
const F_DATE = 2
const F_HOUR = 4
const F_PRICE = 8
const F_PHOTO = 16

const yyyymmdd = (day: number): number => {
  const d = new Date(day * DAY_MS)
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

/** The day of a local epoch-ms instant: whole days since the epoch. */
export const dayOf = (local: number): number => Math.floor(local / DAY_MS)

/**
 * The milliseconds of a local epoch-ms instant since the start of its day (`day`, `dayOf`'s).
 * Without `%`, which V8 compiles for doubles to a call of C's fmod (this runs once per candidate).
 */
export const msInDay = (local: number, day: number): number => local - day * DAY_MS

/** The hour (0-23) of a time of day in milliseconds (`msInDay`'s). */
const hourIn = (inDay: number): number => Math.floor(inDay / HOUR_MS)

/** The hour (0-23) of a local epoch-ms instant. */
export const localHour = (local: number): number => hourIn(msInDay(local, dayOf(local)))

/**
 * Counts per integer key, for one search at a time: keys in [0, size) go to a typed array kept
 * between searches (a Map update per candidate cost a tenth of a large search), any other key to
 * a Map. `take` answers the counts in key order and leaves the tally empty.
 */
export class Tally {
  private readonly counts: Int32Array
  private readonly used: Array<number> = []
  private readonly more = new Map<number, number>()

  constructor(size: number) {
    this.counts = new Int32Array(size)
  }

  add(key: number): void {
    if (key >= 0 && key < this.counts.length) {
      if (this.counts[key]!++ === 0) this.used.push(key)
    } else this.more.set(key, (this.more.get(key) ?? 0) + 1)
  }

  take(): Array<readonly [number, number]> {
    const out: Array<readonly [number, number]> = [...this.more.entries()]
    for (const key of this.used) {
      out.push([key, this.counts[key]!])
      this.counts[key] = 0
    }
    this.used.length = 0
    this.more.clear()
    return out.sort((a, b) => a[0] - b[0])
  }
}

/**
 * The faceted filters of one search and their facet counts (docs/API.md: Searching, Facets). `check` tests a
 * segment that passed every other rule: 0 when it passes every filter, a bit per failed filter
 * otherwise; a segment failing at most one is counted in the facets that filter allows; only a
 * segment failing none is a match (`matched` counts it in the facets without a filter).
 */
export class FacetTally {
  private readonly seatsMin: number
  private readonly localFrom: number
  private readonly localTo: number
  private readonly hourFrom: number
  private readonly hourTo: number
  private readonly priceMin: number
  private readonly priceMax: number
  private readonly photoOnly: boolean
  private readonly dayBase: number
  /** Segments by seats left, 4 standing for 4 or more: the facet's "at least v" counts are their sums. */
  private readonly bySeats = new Int32Array(5)
  private readonly photo = [0, 0]
  private readonly experience = [0, 0, 0, 0, 0]
  private readonly comfort = [0, 0, 0, 0]
  private readonly hours = new Array<number>(24).fill(0)

  /**
   * `days` and `prices` are tallies kept by the index between searches (emptied here, should an
   * earlier search have thrown halfway); `unit` is minor units per price-facet step.
   */
  constructor(
    req: MatchRequest,
    private readonly days: Tally,
    private readonly prices: Tally,
    private readonly unit: number
  ) {
    // An absent bound is one nothing fails: the loop then reads the same fields for every request.
    this.seatsMin = req.seats ?? 0
    this.localFrom = req.localFromMs ?? -Infinity
    this.localTo = req.localToMs ?? Infinity
    this.hourFrom = req.hourFrom ?? 0
    this.hourTo = req.hourTo ?? Infinity
    this.priceMin = req.priceMinMinor ?? -Infinity
    this.priceMax = req.priceMaxMinor ?? Infinity
    this.photoOnly = req.photoOnly
    // Days are counted from the day before `nowMs` (no matched departure is earlier, local time
    // included), prices from 0.
    this.dayBase = Math.floor(req.nowMs / DAY_MS) - 1
    days.take()
    prices.take()
  }

  /**
   * Tests the filters and counts the segment in the facets it belongs to; 0 means it matches. Its
   * local departure comes as its day (`dayOf`) and the milliseconds since that day began
   * (`msInDay`), two small integers, rather than as the instant: the search loop's call is not always inlined, and an
   * instant (a double past the small integers) is then boxed at every candidate.
   */
  check(seatsLeft: number, day: number, inDay: number, price: number, photo: boolean): number {
    // The departure's instant (an integer of milliseconds: exact), and `localHour`.
    const local = day * DAY_MS + inDay
    const hour = hourIn(inDay)
    let mask = 0
    if (seatsLeft < this.seatsMin) mask |= F_SEATS
    if (local < this.localFrom || local > this.localTo) mask |= F_DATE
    if (hour < this.hourFrom || hour >= this.hourTo) mask |= F_HOUR
    if (price < this.priceMin || price > this.priceMax) mask |= F_PRICE
    if (this.photoOnly && !photo) mask |= F_PHOTO
    if ((mask & (mask - 1)) !== 0) return mask
    if ((mask & ~F_SEATS) === 0) this.bySeats[seatsLeft < 4 ? seatsLeft : 4]!++
    if ((mask & ~F_DATE) === 0) this.days.add(day - this.dayBase)
    if ((mask & ~F_HOUR) === 0) this.hours[hour]!++
    if ((mask & ~F_PRICE) === 0) this.prices.add(Math.floor(price / this.unit))
    if ((mask & ~F_PHOTO) === 0) this.photo[photo ? 1 : 0]!++
    return mask
  }

  /** Counts a match in the facets no filter narrows. */
  matched(experience: number, comfortStars: number): void {
    this.experience[experience]!++
    this.comfort[comfortStars - 1]!++
  }

  counts(): FacetCounts {
    return {
      seats: [1, 2, 3, 4].map((v) => this.bySeats.subarray(v).reduce((a, b) => a + b, 0)),
      dates: this.days.take().map(([day, n]) => [yyyymmdd(this.dayBase + day), n] as const),
      hours: this.hours.flatMap((n, h) => (n > 0 ? [[h, n] as const] : [])),
      prices: this.prices.take(),
      photo: this.photo,
      experience: this.experience,
      comfort: this.comfort
    }
  }
}
