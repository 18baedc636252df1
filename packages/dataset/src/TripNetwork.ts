import { COUNTRY_PROFILES } from "./countryProfiles.js"
import type { FeedWorld } from "./FeedWorld.js"
import { gravityWeight } from "./gravityWeight.js"
import type { Random } from "./Random.js"

/**
 * Agglomerations per country between which the gravity model spreads the network trips. Smaller
 * ones are served by the regional trips and the stop-overs: a longer tail of small pairs would
 * thin the trunk axes out without making any of its own pairs busy.
 */
const NETWORK_HUBS = 60
/** Weight of a town among its agglomeration's departures, as `FeedWorld.cityOf` draws towns. */
const MEMBER_EXPONENT = 0.85

/** One agglomeration: a core town and the smaller towns around it. */
export interface Agglomeration {
  readonly core: number
  /** The core and its towns (FeedWorld indices), core first. */
  readonly members: Int32Array
  /** Cumulative member weights, population^0.85. */
  readonly cumulative: Float64Array
  /** Sum of the members' populations: the agglomeration's pull. */
  readonly population: number
}

interface CountryNetwork {
  /** The country's agglomerations, most populous first, at most NETWORK_HUBS. */
  readonly hubs: ReadonlyArray<Agglomeration>
  /** Cumulative gravity weights of the ordered pairs: entry a * hubs.length + b is a -> b. */
  readonly pairs: Float64Array
}

let shared: TripNetwork | undefined

/**
 * Radius of an agglomeration around a core town of `population`: 10 km for a town of 100,000,
 * 20 km for a city of a million, at most 25 km, so that its towns stay within the default search
 * radius of an axis of 250 km or more around the core (docs/API.md, Searching: 10% of the axis).
 */
export const agglomerationRadiusKm = (population: number): number => Math.min(25, Math.max(8, 20 * (population / 1e6) ** 0.3))

/**
 * The network the feed's main trips run on: per country, towns grouped into agglomerations
 * (greedily, largest core first: a town belongs to the first larger core within that core's
 * radius), and a gravity table over the ordered pairs of the largest agglomerations. Built once
 * from the FeedWorld, deterministic (ties by index), in well under a second.
 */
export class TripNetwork {
  static shared(world: FeedWorld): TripNetwork {
    shared ??= new TripNetwork(world)
    return shared
  }

  private readonly countries = new Map<string, CountryNetwork>()
  /** Per town, the core of its agglomeration (itself for a core and outside the locale countries). */
  private readonly cores: Int32Array

  constructor(world: FeedWorld) {
    this.cores = Int32Array.from({ length: world.size }, (_, i) => i)
    const byCountry = new Map<string, Array<number>>()
    for (let i = 0; i < world.size; i++) {
      let list = byCountry.get(world.country[i]!)
      if (list === undefined) byCountry.set(world.country[i]!, (list = []))
      list.push(i)
    }
    const assigned = new Uint8Array(world.size)
    for (const { country } of COUNTRY_PROFILES) {
      const towns = (byCountry.get(country) ?? []).sort((a, b) => world.population[b]! - world.population[a]! || a - b)
      const hubs: Array<Agglomeration> = []
      for (const core of towns) {
        if (assigned[core]) continue
        assigned[core] = 1
        const members = [core]
        world.forEachWithin(world.lat[core]!, world.lon[core]!, agglomerationRadiusKm(world.population[core]!), (i) => {
          if (!assigned[i] && world.country[i] === country) {
            assigned[i] = 1
            this.cores[i] = core
            members.push(i)
          }
        })
        // The grid visits cells in no meaningful order: fix the members' order by index.
        const rest = members.slice(1).sort((a, b) => a - b)
        const ordered = Int32Array.from([core, ...rest])
        const cumulative = new Float64Array(ordered.length)
        let total = 0
        let population = 0
        ordered.forEach((i, k) => {
          total += world.population[i]! ** MEMBER_EXPONENT
          cumulative[k] = total
          population += world.population[i]!
        })
        hubs.push({ core, members: ordered, cumulative, population })
      }
      const top = hubs.sort((a, b) => b.population - a.population || a.core - b.core).slice(0, NETWORK_HUBS)
      const n = top.length
      const pairs = new Float64Array(n * n)
      let total = 0
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          if (a !== b) total += gravityWeight(top[a]!.population, top[b]!.population, world.distanceKm(top[a]!.core, top[b]!.core))
          pairs[a * n + b] = total
        }
      }
      if (n >= 2) this.countries.set(country, { hubs: top, pairs })
    }
  }

  /** The core town of town `i`'s agglomeration (FeedWorld indices). */
  coreOf(i: number): number {
    return this.cores[i]!
  }

  /** Whether `country` has at least two agglomerations to join. */
  has(country: string): boolean {
    return this.countries.has(country)
  }

  /** The country's agglomerations, most populous first. */
  hubsOf(country: string): ReadonlyArray<Agglomeration> {
    return this.countries.get(country)?.hubs ?? []
  }

  /** The share of the country's network trips that go from hub `a` to hub `b` (indices of `hubsOf`). */
  share(country: string, a: number, b: number): number {
    const network = this.countries.get(country)
    if (network === undefined) return 0
    const n = network.hubs.length
    const k = a * n + b
    return (network.pairs[k]! - (k > 0 ? network.pairs[k - 1]! : 0)) / network.pairs[n * n - 1]!
  }

  /** A trip's origin and destination towns: a pair of agglomerations by gravity, a town of each. */
  drawTrip(country: string, rng: Random): readonly [origin: number, destination: number] {
    const network = this.countries.get(country)
    if (network === undefined) throw new Error(`no trip network in ${country}`)
    const n = network.hubs.length
    const pair = rng.cumulative(network.pairs)
    const from = network.hubs[Math.floor(pair / n)]!
    const to = network.hubs[pair % n]!
    return [from.members[rng.cumulative(from.cumulative)]!, to.members[rng.cumulative(to.cumulative)]!]
  }
}
