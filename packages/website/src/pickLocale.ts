import { isLocaleCode, LOCALES, type LocaleCode } from "@tripsearch/core"

/** The locale a bare language stands for, where the table has several: its home country's. */
const HOME: Readonly<Record<string, LocaleCode>> = {
  de: "de_DE", en: "en_GB", es: "es_ES", fr: "fr_FR", nl: "nl_NL", pt: "pt_PT", sr: "sr_Latn_RS"
}

const DEFAULT_LOCALE: LocaleCode = "en_GB"

/** `fr-be` -> `fr_BE`, `sr-latn-rs` -> `sr_Latn_RS`: a BCP 47 tag in the table's spelling. */
const asLocaleCode = (tag: string): string => {
  const parts = tag.split(/[-_]/)
  return parts
    .map((p, k) => (k === 0 ? p.toLowerCase() : p.length === 4 ? p[0]!.toUpperCase() + p.slice(1).toLowerCase() : p.toUpperCase()))
    .join("_")
}

/**
 * The page's locale: the URL's `locale` when it is one of the table's, else the best of
 * `Accept-Language` (an exact locale, else the language's home locale), else `en_GB`.
 */
export const pickLocale = (queryLocale: string | undefined, acceptLanguage: string | undefined): LocaleCode => {
  if (queryLocale !== undefined && isLocaleCode(queryLocale)) return queryLocale
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .map((part, order) => {
      const [tag = "", ...params] = part.trim().split(";")
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), order }
    })
    .filter((r) => r.tag !== "" && r.tag !== "*" && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order)
  for (const { tag } of ranges) {
    const code = asLocaleCode(tag)
    if (isLocaleCode(code)) return code
    const language = code.split("_")[0]!
    const home = HOME[language] ?? LOCALES.find((l) => l.startsWith(`${language}_`))
    if (home !== undefined) return home
  }
  return DEFAULT_LOCALE
}
