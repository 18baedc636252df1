import { Gazetteer } from "@tripsearch/gazetteer"
import { describe, expect, it } from "vitest"
import { FeedWorld } from "../src/FeedWorld.js"
import { Random } from "../src/Random.js"
import { agglomerationRadiusKm, TripNetwork } from "../src/TripNetwork.js"

const world = FeedWorld.shared()
const network = TripNetwork.shared(world)
const named = (country: string, name: string) => {
  const i = world.name.findIndex((n, k) => n === name && world.country[k] === country)
  expect(i, `${name} in the FeedWorld`).toBeGreaterThanOrEqual(0)
  return i
}
const hubOf = (country: string, name: string) => network.hubsOf(country).findIndex((h) => h.core === named(country, name))

describe("TripNetwork agglomerations", () => {
  it("counts a city's suburbs toward its pull, and keeps them as towns of their own", () => {
    const paris = network.hubsOf("FR")[hubOf("FR", "Paris")]!
    const boulogne = named("FR", "Boulogne-Billancourt")
    expect([...paris.members]).toContain(boulogne)
    expect(paris.population).toBeGreaterThan(3 * world.population[named("FR", "Paris")]!)
    expect(network.hubsOf("FR").some((h) => h.core === boulogne)).toBe(false)
  })

  it("keeps every town within its core's radius, in its own country, in one agglomeration only", () => {
    for (const country of ["FR", "DE", "PL", "BE"]) {
      const seen = new Set<number>()
      for (const hub of network.hubsOf(country)) {
        expect(hub.members[0]).toBe(hub.core)
        for (const i of hub.members) {
          expect(world.country[i]).toBe(country)
          expect(world.distanceKm(i, hub.core)).toBeLessThanOrEqual(agglomerationRadiusKm(world.population[hub.core]!) * 1.01)
          expect(seen.has(i)).toBe(false)
          seen.add(i)
        }
      }
    }
  })

  it("grows the radius with the core's population, from 8 to 25 km", () => {
    expect(agglomerationRadiusKm(2_000)).toBe(8)
    expect(agglomerationRadiusKm(1e5)).toBeLessThan(agglomerationRadiusKm(1e6))
    expect(agglomerationRadiusKm(2e7)).toBe(25)
  })

  it("orders a country's agglomerations by population, the capital region first", () => {
    for (const [country, capital] of [["FR", "Paris"], ["ES", "Madrid"], ["GB", "London"], ["PL", "Warsaw"], ["RU", "Moscow"]] as const) {
      const hubs = network.hubsOf(country)
      expect(hubs[0]!.core).toBe(named(country, capital))
      for (let k = 1; k < hubs.length; k++) expect(hubs[k]!.population).toBeLessThanOrEqual(hubs[k - 1]!.population)
    }
  })
})

describe("TripNetwork gravity", () => {
  it("puts each country's trunk axes among its ten busiest pairs", () => {
    const axes = [["FR", "Paris", "Lyon"], ["ES", "Madrid", "Barcelona"], ["IT", "Milan", "Rome"], ["DE", "Munich", "Berlin"],
      ["GB", "London", "Manchester"], ["PL", "Warsaw", "Kraków"], ["RU", "Moscow", "Saint Petersburg"]] as const
    for (const [country, from, to] of axes) {
      const n = network.hubsOf(country).length
      const shares = Array.from({ length: n * n }, (_, k) => network.share(country, Math.floor(k / n), k % n)).sort((a, b) => b - a)
      const axis = network.share(country, hubOf(country, from), hubOf(country, to))
      expect(axis, `${from} -> ${to}`).toBeGreaterThanOrEqual(shares[9]!)
    }
  })

  it("never joins an agglomeration to itself, and its shares add up to 1", () => {
    const n = network.hubsOf("IT").length
    let total = 0
    for (let a = 0; a < n; a++) {
      expect(network.share("IT", a, a)).toBe(0)
      for (let b = 0; b < n; b++) total += network.share("IT", a, b)
    }
    expect(total).toBeCloseTo(1, 9)
  })

  it("draws trips between towns of two different agglomerations, by the gravity shares", () => {
    const rng = new Random("network-test")
    const hubs = network.hubsOf("ES")
    const hubOfTown = new Map(hubs.flatMap((h, k) => [...h.members].map((i) => [i, k] as const)))
    const counts = new Map<string, number>()
    const draws = 20_000
    for (let d = 0; d < draws; d++) {
      const [origin, destination] = network.drawTrip("ES", rng)
      const a = hubOfTown.get(origin)!
      const b = hubOfTown.get(destination)!
      expect(a).not.toBe(b)
      counts.set(`${a}>${b}`, (counts.get(`${a}>${b}`) ?? 0) + 1)
    }
    const [madrid, barcelona] = [hubOf("ES", "Madrid"), hubOf("ES", "Barcelona")]
    const expected = network.share("ES", madrid, barcelona) * draws
    expect(Math.abs((counts.get(`${madrid}>${barcelona}`) ?? 0) - expected)).toBeLessThan(4 * Math.sqrt(expected))
  })

  it("is the same network when built again from the same gazetteer", () => {
    const again = new TripNetwork(new FeedWorld(Gazetteer.shared().cities))
    for (const country of ["FR", "IN", "SK"]) {
      expect(again.hubsOf(country).map((h) => [h.core, [...h.members], h.population])).toEqual(
        network.hubsOf(country).map((h) => [h.core, [...h.members], h.population])
      )
    }
    expect(again.share("FR", 0, 2)).toBe(network.share("FR", 0, 2))
  })
})
