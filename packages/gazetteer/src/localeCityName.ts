import type { LocaleCode } from "@tripsearch/core"
import { CITY_NAME_LANGUAGES, type CityNameEntries } from "./cityNames.js"
import { inScript, type Script } from "./inScript.js"
import { serbianToLatin } from "./serbianToLatin.js"

interface Reading {
  /** Columns of `CITY_NAME_LANGUAGES`, first that counts wins. */
  readonly columns: ReadonlyArray<number>
  readonly script: Script
  readonly serbian: boolean
}

const column = (language: string): number => (CITY_NAME_LANGUAGES as ReadonlyArray<string>).indexOf(language)

const readingOf = (locale: LocaleCode): Reading => {
  const language = locale.slice(0, locale.indexOf("_"))
  return {
    columns: locale === "pt_BR" ? [column("pt_BR"), column("pt")] : [column(language)],
    script: language === "ru" || language === "uk" ? "Cyrillic" : "Latin",
    serbian: language === "sr"
  }
}
const READINGS = new Map<string, Reading>()

/**
 * A locale's name for a city (docs/API.md, Place names): the locale's catalogue (`pt_BR`, then
 * `pt`), Serbian transliterated to Latin, and only an entry whose letters are all of the locale's
 * script. `undefined`: no name in that locale.
 */
export const localeCityName = (entries: CityNameEntries | undefined, locale: LocaleCode): string | undefined => {
  if (entries === undefined) return undefined
  let reading = READINGS.get(locale)
  if (reading === undefined) READINGS.set(locale, (reading = readingOf(locale)))
  for (const k of reading.columns) {
    const entry = entries[k]
    if (entry === undefined || entry === "") continue
    const name = reading.serbian ? serbianToLatin(entry) : entry
    if (inScript(name, reading.script)) return name
  }
  return undefined
}
