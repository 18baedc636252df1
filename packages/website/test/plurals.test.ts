import { LOCALE_TABLE, LOCALES, type LocaleCode } from "@tripsearch/core"
import { parse, TYPE, type MessageFormatElement, type PluralElement } from "@formatjs/icu-messageformat-parser"
import { describe, expect, it } from "vitest"
import { type MessageKey, messageOf, translatorOf } from "../src/messages/catalogue.js"
import { en } from "../src/messages/en.js"

const COUNTS = [0, 1, 2, 5, 21, 101] as const

/** Every plural argument of a parsed message, nested ones included. */
const pluralsOf = (elements: ReadonlyArray<MessageFormatElement>): Array<PluralElement> =>
  elements.flatMap((e) =>
    e.type === TYPE.plural ? [e, ...Object.values(e.options).flatMap((o) => pluralsOf(o.value))] : e.type === TYPE.select ? Object.values(e.options).flatMap((o) => pluralsOf(o.value)) : []
  )

/** The literal text of a branch, `#` written as the count in the locale's way. */
const branchText = (elements: ReadonlyArray<MessageFormatElement>, count: string): string =>
  elements.map((e) => (e.type === TYPE.literal ? e.value : e.type === TYPE.pound ? count : "")).join("")

// The messages that count something, found in the English catalogue (every other catalogue must
// count them too): a message whose argument is a number of things.
const COUNTED = (Object.keys(en) as Array<MessageKey>).filter((key) => pluralsOf(parse(en[key])).length > 0)

describe("plurals in every locale", () => {
  it("counts rides, seats, stars, filters, pages and drivers", () => {
    expect(COUNTED.sort()).toEqual(["comfort_stars", "filters_on", "filters_scope", "page_past_last", "results", "seats_left", "without_photo_count"])
  })

  for (const locale of LOCALES) {
    it(`${locale}: each count message takes the locale's plural form for ${COUNTS.join(", ")}`, () => {
      const tag = LOCALE_TABLE[locale].bcp47
      const rules = new Intl.PluralRules(tag)
      const t = translatorOf(locale)
      for (const key of COUNTED) {
        const plurals = pluralsOf(parse(messageOf(locale, key)))
        expect(plurals.length, `${locale} ${key} has no plural`).toBeGreaterThan(0)
        for (const plural of plurals) {
          // Every category the rules give a whole number has its own branch (or `other` when the
          // language writes them alike, which the hand-picked forms below check).
          const needed = new Set([...Array(200).keys()].map((n) => rules.select(n)))
          for (const category of needed) expect(Object.keys(plural.options), `${locale} ${key} lacks ${category}`).toContain(category)
          for (const n of COUNTS) {
            const vars = Object.fromEntries(plurals.map((p) => [p.value, n]).concat([["left", n], ["seats", n], ["total", n], ["stars", n], ["count", n], ["pages", n], ["page", n]]))
            const out = t(key, vars)
            const formatted = new Intl.NumberFormat(tag).format(n)
            const branch = plural.options[`=${n}`] ?? plural.options[rules.select(n)] ?? plural.options.other!
            expect(out, `${locale} ${key} ${n}`).toContain(branchText(branch.value, formatted).trim())
          }
        }
      }
    })
  }

  const forms: ReadonlyArray<readonly [LocaleCode, MessageKey, Record<string, number>, string]> = [
    ["fr_FR", "seats_left", { left: 1, seats: 2 }, "1 place libre sur 2"],
    ["fr_FR", "seats_left", { left: 0, seats: 3 }, "0 place libre sur 3"],
    ["fr_BE", "results", { total: 2 }, "2 trajets"],
    ["en_GB", "results", { total: 1 }, "1 ride"],
    ["en_GB", "seats_left", { left: 1, seats: 1 }, "1 of 1 seat left"],
    ["en_IN", "results", { total: 101 }, "101 rides"],
    ["de_DE", "results", { total: 1 }, "1 Fahrt"],
    ["de_AT", "results", { total: 21 }, "21 Fahrten"],
    ["ru_RU", "results", { total: 21 }, "21 поездка"],
    ["ru_RU", "results", { total: 5 }, "5 поездок"],
    ["ru_RU", "results", { total: 2 }, "2 поездки"],
    ["ru_RU", "seats_left", { left: 101, seats: 200 }, "101 свободное место из 200"],
    ["uk_UA", "results", { total: 21 }, "21 поїздка"],
    ["uk_UA", "results", { total: 5 }, "5 поїздок"],
    ["cs_CZ", "results", { total: 2 }, "2 jízdy"],
    ["cs_CZ", "results", { total: 5 }, "5 jízd"],
    ["cs_CZ", "results", { total: 21 }, "21 jízd"],
    ["sk_SK", "results", { total: 2 }, "2 jazdy"],
    ["sk_SK", "results", { total: 5 }, "5 jázd"],
    ["pl_PL", "results", { total: 1 }, "1 przejazd"],
    ["pl_PL", "results", { total: 22 }, "22 przejazdy"],
    ["pl_PL", "results", { total: 21 }, "21 przejazdów"],
    ["pl_PL", "results", { total: 5 }, "5 przejazdów"],
    ["hr_HR", "results", { total: 21 }, "21 vožnja"],
    ["hr_HR", "results", { total: 3 }, "3 vožnje"],
    ["hr_HR", "results", { total: 5 }, "5 vožnji"],
    ["sr_Latn_RS", "results", { total: 101 }, "101 vožnja"],
    ["sr_Latn_RS", "results", { total: 12 }, "12 vožnji"],
    ["ro_RO", "results", { total: 1 }, "1 cursă"],
    ["ro_RO", "results", { total: 5 }, "5 curse"],
    ["ro_RO", "results", { total: 21 }, "21 de curse"],
    ["ro_RO", "results", { total: 101 }, "101 curse"],
    ["pt_BR", "results", { total: 0 }, "0 viagem"],
    ["pt_PT", "results", { total: 0 }, "0 viagens"],
    ["es_MX", "comfort_stars", { stars: 1 }, "1 estrella de comodidad"],
    ["it_IT", "filters_on", { count: 2 }, "2 filtri attivi"],
    ["nl_BE", "results", { total: 1 }, "1 rit"],
    ["hu_HU", "results", { total: 5 }, "5 fuvar"],
    ["tr_TR", "results", { total: 5 }, "5 yolculuk"],
    ["en_GB", "results", { total: 1234 }, "1,234 rides"],
    ["en_GB", "page_past_last", { page: 999, pages: 1 }, "Page 999 is past the end: the results fill 1 page."],
    ["de_DE", "page_past_last", { page: 999, pages: 30 }, "Seite 999 liegt hinter dem Ende: Die Ergebnisse füllen 30 Seiten."],
    ["cs_CZ", "page_past_last", { page: 9, pages: 3 }, "Stránka 9 je až za koncem: výsledky mají 3 stránky."],
    ["cs_CZ", "without_photo_count", { count: 5 }, "5 řidičů bez fotky"],
    ["pl_PL", "page_past_last", { page: 30, pages: 22 }, "Strona 30 jest poza końcem: wyniki mieszczą się na 22 stronach."],
    ["ru_RU", "without_photo_count", { count: 21 }, "21 водитель без фото"],
    ["ru_RU", "without_photo_count", { count: 3 }, "3 водителя без фото"],
    ["uk_UA", "page_past_last", { page: 9, pages: 5 }, "Сторінка 9 поза межами результатів: їх 5 сторінок."],
    ["ro_RO", "without_photo_count", { count: 21 }, "21 de șoferi fără fotografie"],
    ["hr_HR", "page_past_last", { page: 9, pages: 3 }, "Stranica 9 je iza kraja: rezultati imaju 3 stranice."],
    ["fr_FR", "without_photo_count", { count: 268 }, "268 conducteurs sans photo"],
    ["pt_BR", "without_photo_count", { count: 0 }, "0 motorista sem foto"],
    ["de_DE", "results", { total: 1234 }, "1.234 Fahrten"],
    ["en_GB", "filters_scope", { count: 1000, total: 1214 }, "These filters cover the first 1,000 of 1,214 rides."],
    ["ru_RU", "filters_scope", { count: 10, total: 21 }, "Эти фильтры учитывают только первые 10 из 21 поездки."],
    ["ru_RU", "filters_scope", { count: 10, total: 22 }, "Эти фильтры учитывают только первые 10 из 22 поездок."],
    ["pl_PL", "filters_scope", { count: 10, total: 22 }, "Te filtry obejmują tylko pierwsze 10 z 22 przejazdów."],
    ["cs_CZ", "filters_scope", { count: 10, total: 21 }, "Tyto filtry zahrnují jen prvních 10 z 21 jízd."],
    ["hr_HR", "filters_scope", { count: 10, total: 21 }, "Ovi filtri obuhvaćaju samo prvih 10 od 21 vožnje."],
    ["fr_FR", "filters_scope", { count: 10, total: 12 }, "Ces filtres ne portent que sur les 10 premiers des 12 trajets."]
  ]
  it("writes the forms a reader expects", () => {
    for (const [locale, key, vars, expected] of forms) expect(translatorOf(locale)(key, vars), `${locale} ${key}`).toBe(expected)
  })

  it("parses every message of every catalogue as ICU MessageFormat", () => {
    for (const locale of LOCALES) for (const key of Object.keys(en) as Array<MessageKey>) expect(() => parse(messageOf(locale, key)), `${locale} ${key}`).not.toThrow()
  })
})
