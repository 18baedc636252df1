import type { LocaleCode } from "@tripsearch/core"
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

export const translatorOf = (locale: LocaleCode): Translate => {
  const catalogue = CATALOGUES[locale.slice(0, 2)] ?? {}
  return (key, vars) => {
    const text = catalogue[key] ?? en[key]
    return vars === undefined ? text : text.replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all))
  }
}

export type { MessageKey }
