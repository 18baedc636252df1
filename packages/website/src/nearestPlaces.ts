import type { Gazetteer, GazetteerCity } from "@tripsearch/gazetteer"
import { normalizeName } from "@tripsearch/gazetteer"

/** Towns smaller than this are not offered for a misspelt name: the list would be noise. */
const MIN_POPULATION = 5_000

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours), or `max + 1` past `max`. */
export const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev2: Array<number> = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2]! + 1)
      row.push(d)
      rowMin = Math.min(rowMin, d)
    }
    if (rowMin > max) return max + 1
    prev2 = prev
    prev = row
  }
  return Math.min(prev[b.length]!, max + 1)
}

// Normalized once per gazetteer: a misspelt name is compared with tens of thousands of towns.
const keyed = new WeakMap<Gazetteer, ReadonlyArray<{ readonly key: string; readonly city: GazetteerCity }>>()
const keysOf = (gazetteer: Gazetteer) => {
  let keys = keyed.get(gazetteer)
  if (keys === undefined)
    keyed.set(gazetteer, (keys = gazetteer.cities.filter((c) => c.population >= MIN_POPULATION).map((city) => ({ key: normalizeName(city.name), city }))))
  return keys
}

/**
 * The gazetteer's towns whose name is nearest to a name it does not know (a slip of one letter in
 * four, at most two): the fewest edits first, then the locale's country, then the most populous;
 * one town per name and country.
 */
export const nearestPlaces = (gazetteer: Gazetteer, text: string, country: string, limit = 5): ReadonlyArray<GazetteerCity> => {
  const name = normalizeName(text.split(",")[0] ?? "")
  if (name.length < 3) return []
  const max = Math.min(2, Math.max(1, Math.floor(name.length / 4)))
  const found: Array<{ readonly city: GazetteerCity; readonly d: number }> = []
  for (const { key, city } of keysOf(gazetteer)) {
    const d = editDistance(name, key, max)
    if (d <= max) found.push({ city, d })
  }
  found.sort((a, b) => a.d - b.d || Number(b.city.country === country) - Number(a.city.country === country) || b.city.population - a.city.population)
  const seen = new Set<string>()
  const out: Array<GazetteerCity> = []
  for (const { city } of found) {
    const key = `${city.name}|${city.country}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(city)
    if (out.length === limit) break
  }
  return out
}
