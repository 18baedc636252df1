import { readFileSync } from "node:fs"
import { gunzipSync } from "node:zlib"
import type { GazetteerCity } from "./GazetteerCity.js"

/**
 * The catalogues the 23 locales read (docs/API.md, Place names), in the columns of
 * `data/city-names.tsv.gz`. `pt_BR` is read before `pt`; Serbian is Cyrillic in the catalogue.
 */
export const CITY_NAME_LANGUAGES = ["de", "pt_BR", "pt", "cs", "en", "es", "fr", "hr", "hu", "it", "nl", "pl", "ro", "sr", "ru", "sk", "tr", "uk"] as const
export type CityNameLanguage = (typeof CITY_NAME_LANGUAGES)[number]

/** One city's catalogue entries, one per `CITY_NAME_LANGUAGES` column, `""` where there is none. */
export type CityNameEntries = ReadonlyArray<string>

/**
 * GeoNames' translations of city names, by GeoNames id, from the file
 * `tooling/scripts/extract-city-names.mjs` writes (see its header for the format), for the given cities.
 */
export const loadCityNames = (
  cities: ReadonlyArray<GazetteerCity>,
  path: URL | string = new URL("../data/city-names.tsv.gz", import.meta.url)
): ReadonlyMap<number, CityNameEntries> => {
  const nameOf = new Map<number, string>()
  for (const city of cities) nameOf.set(city.id, city.name)
  const lines = gunzipSync(readFileSync(path)).toString("utf8").split("\n")
  const header = lines[0]!.split("\t").slice(1)
  if (header.join(",") !== CITY_NAME_LANGUAGES.join(",")) throw new Error(`city names: columns ${header.join(",")}, expected ${CITY_NAME_LANGUAGES.join(",")}`)
  const names = new Map<number, CityNameEntries>()
  let id = 0
  for (let k = 1; k < lines.length; k++) {
    const line = lines[k]!
    if (line === "") continue
    const fields = line.split("\t")
    id += Number(fields[0])
    const name = nameOf.get(id)
    // A city the file names but the list lacks (a test's small list) has nothing to be named.
    if (name === undefined) continue
    const entries = fields.slice(1)
    for (let c = 0; c < entries.length; c++) if (entries[c] === "=") entries[c] = name
    names.set(id, entries)
  }
  return names
}
