import { COUNTRY_PROFILES } from "./countryProfiles.js"
import type { FeedWorld } from "./FeedWorld.js"
import { gravityWeight } from "./gravityWeight.js"
import type { Random } from "./Random.js"

/** Towns per country between which a dense feed's trips run. */
export const DENSE_TOWNS = 100

let shared: DenseNetwork | undefined

/**
 * The dense feed's network (`--dense`): per country, its 100 largest towns, and the ordered pairs
 * of them weighted by the gravity model (`gravityWeight`, on the towns' own populations), so that
 * every trip runs between two big cities and the busy pairs carry hundreds of trips a day.
 */
export class DenseNetwork {
  static shared(world: FeedWorld): DenseNetwork {
    shared ??= new DenseNetwork(world)
    return shared
  }

  private readonly countries = new Map<string, { readonly towns: Int32Array; readonly pairs: Float64Array }>()

  constructor(world: FeedWorld) {
    const byCountry = new Map<string, Array<number>>()
    for (let i = 0; i < world.size; i++) {
      let list = byCountry.get(world.country[i]!)
      if (list === undefined) byCountry.set(world.country[i]!, (list = []))
      list.push(i)
    }
    for (const { country } of COUNTRY_PROFILES) {
      const towns = (byCountry.get(country) ?? []).sort((a, b) => world.population[b]! - world.population[a]! || a - b).slice(0, DENSE_TOWNS)
      const n = towns.length
      if (n < 2) continue
      const pairs = new Float64Array(n * n)
      let total = 0
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          if (a !== b) total += gravityWeight(world.population[towns[a]!]!, world.population[towns[b]!]!, world.distanceKm(towns[a]!, towns[b]!))
          pairs[a * n + b] = total
        }
      }
      if (total > 0) this.countries.set(country, { towns: Int32Array.from(towns), pairs })
    }
  }

  has(country: string): boolean {
    return this.countries.has(country)
  }

  /** A trip's origin and destination: an ordered pair of the country's largest towns, by gravity. */
  drawTrip(country: string, rng: Random): readonly [origin: number, destination: number] {
    const network = this.countries.get(country)
    if (network === undefined) throw new Error(`no dense network in ${country}`)
    const n = network.towns.length
    const pair = rng.cumulative(network.pairs)
    return [network.towns[Math.floor(pair / n)]!, network.towns[pair % n]!]
  }
}
