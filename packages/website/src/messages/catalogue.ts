import type { LocaleCode } from "@tripsearch/core"
import { de } from "./de.js"
import { en, type MessageKey } from "./en.js"
import { es } from "./es.js"
import { fr } from "./fr.js"
import { it } from "./it.js"
import { nl } from "./nl.js"
import { pt } from "./pt.js"

/** The languages with a catalogue, by the language part of a locale code (`fr_BE` -> `fr`). */
export const CATALOGUES: Readonly<Record<string, Partial<Readonly<Record<MessageKey, string>>>>> = { en, fr, de, es, it, nl, pt }

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
