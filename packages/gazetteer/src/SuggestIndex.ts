import { LOCALE_COUNTRIES } from "@tripsearch/core"
import { byPopulation } from "./byPopulation.js"
import type { Gazetteer } from "./Gazetteer.js"
import type { GazetteerCity } from "./GazetteerCity.js"

/** A range of more names than this is not scanned for a suggestion: its best are kept beforehand. */
const SCANNED_RANGE = 1500
/** How many suggestions the kept best of a long range can answer. */
export const SUGGEST_MAX_LIMIT = 10

/** The best cities offered so far, best first: exact name, then `country`, then population, then id. */
class Best {
  readonly cities: Array<GazetteerCity> = []
  readonly exact: Array<boolean> = []
  constructor(
    private readonly limit: number,
    private readonly country: string
  ) {}

  offer(city: GazetteerCity, isExact: boolean): void {
    const { cities, exact, limit } = this
    if (cities.length === limit && !outranks(city, isExact, cities[limit - 1]!, exact[limit - 1]!, this.country)) return
    let at = cities.length === limit ? limit - 1 : cities.length
    while (at > 0 && outranks(city, isExact, cities[at - 1]!, exact[at - 1]!, this.country)) {
      cities[at] = cities[at - 1]!
      exact[at] = exact[at - 1]!
      at--
    }
    cities[at] = city
    exact[at] = isExact
  }
}

/**
 * What a long range's suggestions are drawn from: its best cities by exact name then population,
 * and the same within each locale country. For any locale, the best `SUGGEST_MAX_LIMIT` are among
 * the first list's cities of other countries and the second list of the locale's country: a city
 * of another country that the locale's ranking keeps is outranked by no more cities without it.
 */
interface KeptBest {
  readonly overall: Best
  readonly byCountry: ReadonlyMap<string, Best>
}

/**
 * The normalized names of every city, sorted, so that the names starting with a prefix are one
 * range found by two binary searches. A range of up to `SCANNED_RANGE` names is scanned for the
 * best few cities; the best of the longer ranges (the prefixes of one or two letters) are kept
 * when the index is built (see docs/PERFORMANCE.md, Place suggestions).
 */
export class SuggestIndex {
  private readonly keys: Array<string>
  /** The city of each key, as its position in `cities`. */
  private readonly slots: Int32Array
  private readonly cities: ReadonlyArray<GazetteerCity>
  /** The query that last met each city: a city is ranked once per query. */
  private readonly seen: Int32Array
  private stamp = 0
  private readonly kept = new Map<string, KeptBest>()

  constructor(gazetteer: Pick<Gazetteer, "cities" | "nameKeys">) {
    const pairs = [...gazetteer.nameKeys()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1].id - b[1].id))
    const slot = new Map<GazetteerCity, number>()
    gazetteer.cities.forEach((city, k) => slot.set(city, k))
    this.cities = gazetteer.cities
    this.keys = pairs.map((p) => p[0])
    this.slots = Int32Array.from(pairs, (p) => slot.get(p[1])!)
    this.seen = new Int32Array(gazetteer.cities.length)
    this.keep("", 0, this.keys.length)
  }

  /** Keeps the best of `prefix`'s range when it is long, then of its longer prefixes'. */
  private keep(prefix: string, start: number, end: number): void {
    if (end - start <= SCANNED_RANGE) return
    if (prefix !== "") {
      const overall = new Best(SUGGEST_MAX_LIMIT, "")
      const byCountry = new Map(LOCALE_COUNTRIES.map((c) => [c, new Best(SUGGEST_MAX_LIMIT, "")]))
      this.scan(prefix, start, end, (city, isExact) => {
        overall.offer(city, isExact)
        byCountry.get(city.country)?.offer(city, isExact)
      })
      this.kept.set(prefix, { overall, byCountry })
    }
    let k = start
    while (k < end && this.keys[k]!.length === prefix.length) k++
    while (k < end) {
      const child = this.keys[k]!.slice(0, prefix.length + 1)
      const childEnd = this.lowerBound(child + "\uffff")
      this.keep(child, k, childEnd)
      k = childEnd
    }
  }

  private lowerBound(key: string): number {
    let lo = 0
    let hi = this.keys.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.keys[mid]! < key) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Each city of a range once, with whether one of its names is the prefix itself. */
  private scan(prefix: string, start: number, end: number, visit: (city: GazetteerCity, isExact: boolean) => void): void {
    const stamp = ++this.stamp
    for (let k = start; k < end; k++) {
      const slot = this.slots[k]!
      // The exact keys come first in the range, so a city's first key is its best.
      if (this.seen[slot] === stamp) continue
      this.seen[slot] = stamp
      visit(this.cities[slot]!, this.keys[k]!.length === prefix.length)
    }
  }

  top(prefix: string, country: string, limit: number): ReadonlyArray<GazetteerCity> {
    const best = new Best(limit, country)
    const kept = limit <= SUGGEST_MAX_LIMIT ? this.kept.get(prefix) : undefined
    if (kept !== undefined) {
      const { cities, exact } = kept.overall
      for (let k = 0; k < cities.length; k++) if (cities[k]!.country !== country) best.offer(cities[k]!, exact[k]!)
      const own = kept.byCountry.get(country)
      if (own !== undefined) for (let k = 0; k < own.cities.length; k++) best.offer(own.cities[k]!, own.exact[k]!)
      return best.cities
    }
    const start = this.lowerBound(prefix)
    // Every key starting with the prefix sorts below the prefix followed by the last code unit.
    this.scan(prefix, start, this.lowerBound(prefix + "\uffff"), (city, isExact) => best.offer(city, isExact))
    return best.cities
  }
}

const outranks = (a: GazetteerCity, aExact: boolean, b: GazetteerCity, bExact: boolean, country: string): boolean => {
  if (aExact !== bExact) return aExact
  const ca = a.country === country
  const cb = b.country === country
  if (ca !== cb) return ca
  return byPopulation(a, b) < 0
}

