import type { Gazetteer, GazetteerCity } from "@tripsearch/gazetteer"
import { normalizeName } from "@tripsearch/gazetteer"
import type { LocaleCode } from "@tripsearch/core"

/** Towns smaller than this are not offered for a misspelt name: the list would be noise. */
const MIN_POPULATION = 5_000

// Three rows of the distance table, reused by every call: a misspelt name is compared with tens of
// thousands of names, and allocating rows for each was most of the time.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)]

/** Edit distance (insertions, deletions, substitutions, swaps of neighbours), or `max + 1` past `max`. */
export const editDistance = (a: string, b: string, max: number): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  if (rows[0]!.length <= b.length) rows = [new Int32Array(b.length + 1), new Int32Array(b.length + 1), new Int32Array(b.length + 1)]
  let prev2 = rows[0]!
  let prev = rows[1]!
  let row = rows[2]!
  for (let j = 0; j <= b.length; j++) prev[j] = j
  for (let i = 1; i <= a.length; i++) {
    row[0] = i
    let rowMin = i
    const ai = a.charCodeAt(i - 1)
    for (let j = 1; j <= b.length; j++) {
      const bj = b.charCodeAt(j - 1)
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (ai === bj ? 0 : 1))
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, prev2[j - 2]! + 1)
      row[j] = d
      if (d < rowMin) rowMin = d
    }
    if (rowMin > max) return max + 1
    const spare = prev2
    prev2 = prev
    prev = row
    row = spare
  }
  return Math.min(prev[b.length]!, max + 1)
}

interface Keyed {
  readonly key: string
  readonly city: GazetteerCity
}

/**
 * Every name of every town of at least `MIN_POPULATION` (the GeoNames name, the translations in
 * the 23 locales' languages in their own scripts, Serbian in Latin too), normalized once per
 * gazetteer and grouped by length: a misspelt name is compared with the names within `max`
 * letters of its own length only.
 */
const keyed = new WeakMap<Gazetteer, ReadonlyArray<ReadonlyArray<Keyed>>>()
const keysOf = (gazetteer: Gazetteer): ReadonlyArray<ReadonlyArray<Keyed>> => {
  let byLength = keyed.get(gazetteer)
  if (byLength === undefined) {
    const lists: Array<Array<Keyed>> = []
    for (const city of gazetteer.cities) {
      if (city.population < MIN_POPULATION) continue
      for (const key of new Set(gazetteer.namesOf(city).map(normalizeName))) {
        if (key === "") continue
        ;(lists[key.length] ??= []).push({ key, city })
      }
    }
    keyed.set(gazetteer, (byLength = Array.from(lists, (l) => l ?? [])))
  }
  return byLength
}

/**
 * The German way of typing without umlauts (`Muenchen`, `Koeln`, `Aepfingen`) read back as the
 * letter itself, which `normalizeName` writes without its dots; `ss` needs nothing, as ß is
 * normalized to it. None when the name has no such pair.
 */
const withoutTransliteration = (name: string): string | undefined => {
  const back = name.replace(/([aou])e/g, "$1")
  return back === name ? undefined : back
}

/**
 * The gazetteer's towns with a name nearest to a name it does not know (a slip of one letter in
 * four, at most two), among every name a town has (the one in the page's language, `Warszawa`,
 * `Москва`, as well as GeoNames'), `ue`, `oe`, `ae` counting as the umlauted letter (`Muenchen` is
 * München with no slip). The fewest edits first, then towns whose name in the page's language is
 * the one matched, then the locale's country, then the most populous, then the smallest id; one
 * town per name (as the page names it) and country. About 10 ms a call on the shared gazetteer
 * (two-core machine under load); `Muenchen` still names no town for a search (docs/API.md): only
 * this list offers München.
 */
export const nearestPlaces = (gazetteer: Gazetteer, text: string, country: string, limit = 5, locale?: LocaleCode): ReadonlyArray<GazetteerCity> => {
  const name = normalizeName(text.split(",")[0] ?? "")
  if (name.length < 3) return []
  const max = Math.min(2, Math.max(1, Math.floor(name.length / 4)))
  const keys = keysOf(gazetteer)
  const best = new Map<GazetteerCity, { d: number; key: string }>()
  const compare = (typed: string, extra: number) => {
    for (let length = Math.max(1, typed.length - max); length <= typed.length + max; length++) {
      for (const { key, city } of keys[length] ?? []) {
        const d = editDistance(typed, key, max) + extra
        if (d > max) continue
        const known = best.get(city)
        if (known === undefined || d < known.d) best.set(city, { d, key })
      }
    }
  }
  compare(name, 0)
  const back = withoutTransliteration(name)
  if (back !== undefined) compare(back, 0)
  const ownName = (city: GazetteerCity): string => (locale === undefined ? city.name : gazetteer.shownName(city, locale))
  // A town matched by its own name in the page's language: a translation that is not the GeoNames
  // name again (many catalogues repeat it, which would favour towns for being translated at all).
  const own = (city: GazetteerCity, key: string): boolean => {
    const local = locale === undefined ? undefined : gazetteer.nameIn(city, locale)
    return local !== undefined && normalizeName(local) === key && key !== normalizeName(city.name)
  }
  const found = [...best].map(([city, { d, key }]) => ({ city, d, own: own(city, key) }))
  found.sort(
    (a, b) =>
      a.d - b.d ||
      Number(b.own) - Number(a.own) ||
      Number(b.city.country === country) - Number(a.city.country === country) ||
      b.city.population - a.city.population ||
      a.city.id - b.city.id
  )
  const seen = new Set<string>()
  const out: Array<GazetteerCity> = []
  for (const { city } of found) {
    const key = `${ownName(city)}|${city.country}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(city)
    if (out.length === limit) break
  }
  return out
}
