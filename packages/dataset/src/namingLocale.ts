import type { LocaleCode } from "@tripsearch/core"
import type { Language } from "./languagePacks.js"

/**
 * The locale whose catalogue of city names (`FeedWorld.localName`) a text in a generator language
 * reads: only the language part counts (`de_AT` and `de_DE` read the same names), but Serbian is
 * written in Latin (`sr_Latn_RS` transliterates GeoNames' Cyrillic) and Brazil reads `pt_BR` before
 * `pt`. Hindi has no catalogue: its texts keep GeoNames' names.
 */
const LOCALE_OF: Readonly<Record<Language, LocaleCode | undefined>> = {
  fr: "fr_FR", de: "de_DE", es: "es_ES", it: "it_IT", en: "en_GB", hi: undefined, pt: "pt_PT", nl: "nl_NL",
  pl: "pl_PL", cs: "cs_CZ", sk: "sk_SK", hu: "hu_HU", ro: "ro_RO", sr: "sr_Latn_RS", hr: "hr_HR", ru: "ru_RU",
  uk: "uk_UA", tr: "tr_TR"
}

/** Where English is a language of the country's own, not the generator's stand-in for one it lacks. */
const ENGLISH_SPEAKING = new Set(["GB", "IE"])

/**
 * The locale that names towns in a text of `language` written in `country` (a meeting point's, a
 * driver's). English stands in for the languages the generator lacks (Danish, Greek, ...): there
 * GeoNames' name is the local one (Malmö, Helsingør) and the English catalogue would write Malmo
 * or Elsinore, so those texts keep it.
 */
export const namingLocale = (language: Language, country: string): LocaleCode | undefined =>
  language === "pt" && country === "BR" ? "pt_BR" : language === "en" && !ENGLISH_SPEAKING.has(country) ? undefined : LOCALE_OF[language]
