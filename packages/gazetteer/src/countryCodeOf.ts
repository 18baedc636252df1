import { normalizeName } from "./normalizeName.js"

/** Languages of the locale table and of the neighbours users most often name countries in. */
const LANGUAGES = ["en", "fr", "de", "es", "it", "pt", "nl", "pl", "cs", "sk", "hu", "ro", "hr", "sr-Latn", "ru", "uk", "tr"]

/** Common names Intl does not give (older or informal forms). */
const EXTRA_NAMES: Readonly<Record<string, string>> = {
  uk: "GB", "great britain": "GB", england: "GB", scotland: "GB", wales: "GB", "northern ireland": "GB",
  britain: "GB", "czech republic": "CZ", holland: "NL", turkey: "TR", "russian federation": "RU", usa: "US",
  "united states of america": "US"
}

/**
 * Region codes Intl names that are not countries (groupings, pseudo-regions, exceptional
 * reservations). Deprecated codes (SU, YU, ...) are skipped by canonicalization instead.
 */
const NOT_COUNTRIES = new Set(["ZZ", "EU", "EZ", "UN", "QO", "XA", "XB", "AC", "CP", "DG", "EA", "IC", "TA"])

let table: ReadonlyMap<string, string> | undefined

const build = (): ReadonlyMap<string, string> => {
  const names = new Map<string, string>()
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
  const displays = LANGUAGES.map((lang) => new Intl.DisplayNames([lang], { type: "region", fallback: "none" }))
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b
      // Unassigned codes have no display name in English; they are not countries.
      if (displays[0]!.of(code) === undefined || NOT_COUNTRIES.has(code)) continue
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue
      names.set(code.toLowerCase(), code)
      for (const display of displays) {
        const name = display.of(code)
        if (name === undefined) continue
        const key = normalizeName(name)
        // First language wins on a clash, so English names keep their usual meaning.
        if (key !== "" && !names.has(key)) names.set(key, code)
      }
    }
  }
  for (const [name, code] of Object.entries(EXTRA_NAMES)) if (!names.has(name)) names.set(name, code)
  return names
}

/**
 * The ISO 3166-1 alpha-2 code a text names, if it is a country code ("fr", "FR") or a country name
 * in one of the supported languages ("France", "Frankreich", "Франция").
 */
export const countryCodeOf = (text: string): string | undefined => {
  table ??= build()
  return table.get(normalizeName(text))
}
