import { IntlMessageFormat } from "intl-messageformat"
import { LOCALE_TABLE, type LocaleCode } from "@tripsearch/core"
import { cs } from "./cs.js"
import { de } from "./de.js"
import { en, type MessageKey } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { hr } from "./hr.js"
import { hu } from "./hu.js"
import { it } from "./it.js"
import { nl } from "./nl.js"
import { pl } from "./pl.js"
import { pt } from "./pt.js"
import { ro } from "./ro.js"
import { ru } from "./ru.js"
import { sk } from "./sk.js"
import { sr } from "./sr.js"
import { tr } from "./tr.js"
import { uk } from "./uk.js"

/**
 * One catalogue per language of the locale table, by the language part of a locale code (`fr_BE` ->
 * `fr`, `sr_Latn_RS` -> `sr`); pt_BR pages read the Portuguese one.
 */
export const CATALOGUES: Readonly<Record<string, Partial<Readonly<Record<MessageKey, string>>>>> = {
  en,
  cs,
  de,
  es,
  fr,
  hr,
  hu,
  it,
  nl,
  pl,
  pt,
  ro,
  ru,
  sk,
  sr,
  tr,
  uk
}

/** A label function: a string missing from the locale's language (or a language without catalogue) is English. */
export type Translate = (key: MessageKey, vars?: Readonly<Record<string, string | number>>) => string

/** The catalogue text of `key` for the locale's language, English when it has none. */
export const messageOf = (locale: LocaleCode, key: MessageKey): string => CATALOGUES[locale.slice(0, 2)]?.[key] ?? en[key]

// Compiled once per locale and message: pages render the same few counts over and over.
const compiled = new Map<string, IntlMessageFormat>()

/**
 * The messages are ICU MessageFormat (FormatJS `intl-messageformat`): a count is a `plural`
 * argument whose forms follow the CLDR plural rules of the locale's own tag (`pt-BR` reads 0 as
 * "one", `pt-PT` does not), and numbers are written in the locale's way.
 */
export const translatorOf = (locale: LocaleCode): Translate => {
  const tag = LOCALE_TABLE[locale].bcp47
  return (key, vars) => {
    const id = `${locale}\u0000${key}`
    let format = compiled.get(id)
    if (format === undefined) compiled.set(id, (format = new IntlMessageFormat(messageOf(locale, key), tag)))
    return String(format.format(vars ?? {}))
  }
}

export type { MessageKey }
