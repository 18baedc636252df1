import { LOCALE_COUNTRIES, type LocaleCode } from "@tripsearch/core"
import { Gazetteer, type GazetteerCity, localeCityName, normalizeName, zoneOf } from "@tripsearch/gazetteer"
import { NEIGHBOUR_COUNTRIES } from "./countryProfiles.js"
import { haversineKm } from "./haversineKm.js"
import type { Random } from "./Random.js"

/** Places trips start, stop and end at: towns big enough to have carpoolers. */
const MIN_POPULATION = 2000
/** City sections, historical, abandoned or destroyed places are not trip ends. */
const EXCLUDED_FEATURES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"])
const CELL_DEG = 0.5
const LON_CELLS = 360 / CELL_DEG

let shared: FeedWorld | undefined

/**
 * The city tables the generator draws from, built once: flat arrays, a spatial grid for "a town
 * near this point", and per-country cumulative weights for "a town of this country".
 */
export class FeedWorld {
  static shared(): FeedWorld {
    if (shared === undefined) {
      const gazetteer = Gazetteer.shared()
      // Not `gazetteer.nameIn`: `localName` remembers the names itself, and nameIn's own memo (a
      // Map per town) made the meeting point feed about 7% slower, against 3% without it.
      shared = new FeedWorld(gazetteer.cities, (city, locale) => localeCityName(gazetteer.entriesOf(city), locale))
    }
    return shared
  }

  readonly size: number
  readonly lat: Float64Array
  readonly lon: Float64Array
  readonly population: Float64Array
  readonly name: ReadonlyArray<string>
  readonly country: ReadonlyArray<string>
  readonly slug: ReadonlyArray<string>
  private readonly zones: Array<string | undefined>
  private readonly cities: ReadonlyArray<GazetteerCity>
  /** Per locale, each town's name in it, filled as asked. */
  private readonly localNames = new Map<LocaleCode, Array<string | undefined>>()
  private readonly grid = new Map<number, Array<number>>()
  private readonly byCountry = new Map<string, { readonly indices: Int32Array; readonly cumulative: Float64Array }>()
  // Scratch buffers of `near`, reused so that a query allocates nothing.
  private scratchIndex = new Int32Array(4096)
  private scratchWeight = new Float64Array(4096)

  /**
   * `nameIn`: a city's name in a locale, `undefined` when it has none (`localeCityName`); without
   * it, every town keeps its GeoNames name in every locale.
   */
  constructor(
    cities: ReadonlyArray<GazetteerCity>,
    private readonly nameIn: (city: GazetteerCity, locale: LocaleCode) => string | undefined = () => undefined
  ) {
    const countries = new Set([...LOCALE_COUNTRIES, ...NEIGHBOUR_COUNTRIES])
    const kept = cities
      .filter((c) => c.population >= MIN_POPULATION && countries.has(c.country) && !EXCLUDED_FEATURES.has(c.featureCode))
      .sort((a, b) => a.id - b.id)
    this.size = kept.length
    this.cities = kept
    this.lat = Float64Array.from(kept, (c) => c.lat)
    this.lon = Float64Array.from(kept, (c) => c.lon)
    this.population = Float64Array.from(kept, (c) => c.population)
    this.name = kept.map((c) => c.name)
    this.country = kept.map((c) => c.country)
    this.slug = kept.map((c) => slugOf(c.name) || `c${c.id}`)
    this.zones = new Array<string | undefined>(kept.length)
    const members = new Map<string, Array<number>>()
    kept.forEach((c, i) => {
      const key = cellKey(c.lat, c.lon)
      let cell = this.grid.get(key)
      if (cell === undefined) this.grid.set(key, (cell = []))
      cell.push(i)
      let list = members.get(c.country)
      if (list === undefined) members.set(c.country, (list = []))
      list.push(i)
    })
    for (const [country, list] of members) {
      const cumulative = new Float64Array(list.length)
      let total = 0
      list.forEach((i, k) => {
        // Sub-linear: big cities dominate without leaving small towns out.
        total += this.population[i]! ** 0.85
        cumulative[k] = total
      })
      this.byCountry.set(country, { indices: Int32Array.from(list), cumulative })
    }
  }

  /** IANA zone of a city, computed once per city. */
  zone(i: number): string {
    let z = this.zones[i]
    if (z === undefined) this.zones[i] = z = zoneOf(this.lat[i]!, this.lon[i]!)
    return z
  }

  /**
   * A town's name as the locale's language writes it (München, Beograd in `sr_Latn_RS`), its
   * GeoNames name where GeoNames has no translation in that language; `undefined` (a language
   * without a catalogue) is the GeoNames name too. Looked up once per town and locale.
   */
  localName(i: number, locale: LocaleCode | undefined): string {
    if (locale === undefined) return this.name[i]!
    let names = this.localNames.get(locale)
    if (names === undefined) this.localNames.set(locale, (names = new Array<string | undefined>(this.size)))
    let name = names[i]
    if (name === undefined) names[i] = name = this.nameIn(this.cities[i]!, locale) ?? this.name[i]!
    return name
  }

  hasCountry(country: string): boolean {
    return this.byCountry.has(country)
  }

  /** A city of `country`, drawn by population. */
  cityOf(country: string, rng: Random): number {
    const table = this.byCountry.get(country)
    if (table === undefined) throw new Error(`no city of ${country} in the gazetteer`)
    return table.indices[rng.cumulative(table.cumulative)]!
  }

  distanceKm(i: number, j: number): number {
    return haversineKm(this.lat[i]!, this.lon[i]!, this.lat[j]!, this.lon[j]!)
  }

  /** Calls `visit` with every city within `radiusKm` of a point (equirectangular distance). */
  forEachWithin(lat: number, lon: number, radiusKm: number, visit: (i: number) => void): void {
    const dLat = radiusKm / 111.2
    const dLon = radiusKm / (111.2 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)))
    const kmPerDegLon = 111.2 * Math.cos((lat * Math.PI) / 180)
    const r2 = radiusKm * radiusKm
    for (let r = Math.floor((lat - dLat + 90) / CELL_DEG); r <= Math.floor((lat + dLat + 90) / CELL_DEG); r++) {
      for (let c = Math.floor((lon - dLon + 180) / CELL_DEG); c <= Math.floor((lon + dLon + 180) / CELL_DEG); c++) {
        const cell = this.grid.get(r * LON_CELLS + ((c + LON_CELLS) % LON_CELLS))
        if (cell === undefined) continue
        for (const i of cell) {
          const dy = (this.lat[i]! - lat) * 111.2
          const dx = (this.lon[i]! - lon) * kmPerDegLon
          if (dx * dx + dy * dy <= r2) visit(i)
        }
      }
    }
  }

  /**
   * A city within `radiusKm` of a point that `accept` takes, drawn with weight population^exponent;
   * -1 when there is none.
   */
  near(lat: number, lon: number, radiusKm: number, exponent: number, rng: Random, accept: (i: number) => boolean): number {
    const dLat = radiusKm / 111.2
    const dLon = radiusKm / (111.2 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)))
    const r0 = Math.floor((lat - dLat + 90) / CELL_DEG)
    const r1 = Math.floor((lat + dLat + 90) / CELL_DEG)
    const c0 = Math.floor((lon - dLon + 180) / CELL_DEG)
    const c1 = Math.floor((lon + dLon + 180) / CELL_DEG)
    // Equirectangular distances: within a few tens of km they are as good as great-circle ones
    // and the hot loop stays free of trigonometry.
    const kmPerDegLon = 111.2 * Math.cos((lat * Math.PI) / 180)
    const r2 = radiusKm * radiusKm
    let n = 0
    let total = 0
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = this.grid.get(r * LON_CELLS + ((c + LON_CELLS) % LON_CELLS))
        if (cell === undefined) continue
        for (const i of cell) {
          const dy = (this.lat[i]! - lat) * 111.2
          const dx = (this.lon[i]! - lon) * kmPerDegLon
          if (dx * dx + dy * dy > r2 || !accept(i)) continue
          if (n === this.scratchIndex.length) this.grow()
          total += this.population[i]! ** exponent
          this.scratchIndex[n] = i
          this.scratchWeight[n] = total
          n++
        }
      }
    }
    if (n === 0) return -1
    const x = rng.next() * total
    for (let k = 0; k < n; k++) if (this.scratchWeight[k]! > x) return this.scratchIndex[k]!
    return this.scratchIndex[n - 1]!
  }

  private grow(): void {
    const index = new Int32Array(this.scratchIndex.length * 2)
    index.set(this.scratchIndex)
    const weight = new Float64Array(this.scratchWeight.length * 2)
    weight.set(this.scratchWeight)
    this.scratchIndex = index
    this.scratchWeight = weight
  }
}

const cellKey = (lat: number, lon: number): number =>
  Math.floor((lat + 90) / CELL_DEG) * LON_CELLS + (Math.floor((lon + 180) / CELL_DEG) % LON_CELLS)

/** `Saint-Étienne` -> `saint-etienne`, at most 24 characters, for trip ids like the site's. */
const slugOf = (name: string): string =>
  normalizeName(name)
    .replace(/[^a-z0-9 ]/g, "")
    .trim()
    .replace(/ +/g, "-")
    .slice(0, 24)
    .replace(/-+$/, "")
