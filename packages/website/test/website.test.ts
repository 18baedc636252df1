import { LOCALES } from "@tripsearch/core"
import { Registry } from "prom-client"
import { describe, expect, it } from "vitest"
import { CampaignCounter, campaignOf, isTrackingParameter } from "../src/campaigns.js"
import { CATALOGUES, escapeHtml, Html, html, pickLocale, translatorOf } from "../src/index.js"
import { en } from "../src/messages/en.js"

describe("html", () => {
  it("escapes every interpolated value but Html", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    expect(html`<p title="${'"><script>'}">${"<b>"}${new Html("<i>ok</i>")}${[new Html("<br>")]}${undefined}${false}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;script&gt;">&lt;b&gt;<i>ok</i><br></p>'
    )
  })
})

describe("pickLocale", () => {
  it("takes the URL's locale, else Accept-Language's best, else en_GB", () => {
    expect(pickLocale("fr_BE", "de")).toBe("fr_BE")
    expect(pickLocale("xx_XX", "de-AT")).toBe("de_AT")
    expect(pickLocale(undefined, "ja, fr;q=0.4, nl-BE;q=0.8")).toBe("nl_BE")
    expect(pickLocale(undefined, "de-CH")).toBe("de_DE")
    expect(pickLocale(undefined, "pt")).toBe("pt_PT")
    expect(pickLocale(undefined, "sr-latn-rs")).toBe("sr_Latn_RS")
    expect(pickLocale(undefined, "fr;q=0, ja")).toBe("en_GB")
    expect(pickLocale(undefined, undefined)).toBe("en_GB")
  })
})

describe("the message catalogue", () => {
  it("falls back to English for a missing string or language, and fills placeholders", () => {
    const fr = translatorOf("fr_FR")
    expect(fr("search_button")).toBe("Rechercher")
    expect(fr("page_of", { page: 2, pages: 5 })).toBe("Page 2 sur 5")
    expect(CATALOGUES.fr!.site_name).toBeUndefined()
    expect(fr("site_name")).toBe(en.site_name)
    expect(translatorOf("pl_PL")("search_button")).toBe("Szukaj")
    // The long texts of the developers' pages are English in Polish.
    expect(CATALOGUES.pl!.key_how).toBeUndefined()
    expect(translatorOf("pl_PL")("key_how")).toBe(en.key_how)
    expect(translatorOf("nl_BE")("search_button")).toBe("Zoeken")
    expect(translatorOf("pt_BR")("search_button")).toBe("Pesquisar")
  })

  it("has no key the English catalogue lacks, and the same placeholders as English", () => {
    for (const [language, catalogue] of Object.entries(CATALOGUES)) {
      for (const [k, text] of Object.entries(catalogue)) {
        expect(Object.keys(en), `${language}.${k}`).toContain(k)
        const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
        expect(names(text!), `${language}.${k}`).toEqual(names(en[k as keyof typeof en]))
      }
    }
  })

  it("puts no preposition before a town's name where the name would have to change after it", () => {
    // Czech, Slovak, Polish, Croatian, Serbian, Russian and Ukrainian decline a town after "z", "od", "из";
    // French elides and contracts "de" and "à" before some (d'Orléans, au Havre). The names are the
    // traveller's or the gazetteer's, in the nominative: they are set apart instead.
    for (const language of ["cs", "sk", "pl", "hr", "sr", "ru", "uk", "fr"]) {
      expect(CATALOGUES[language]!.search_results_title, language).toMatch(/[ \u202f]?: \{from\} → \{to\}$/)
    }
    expect(translatorOf("ru_RU")("search_results_title", { from: "Москва", to: "Тверь" })).toBe("Поездки: Москва → Тверь")
    expect(translatorOf("fr_FR")("search_results_title", { from: "Orléans", to: "Le Havre" })).toBe("Covoiturages\u202f: Orléans → Le Havre")
    for (const k of ["picked_up_along", "dropped_off_along"] as const) expect(CATALOGUES["fr"]![k], k).not.toMatch(/\b(de|à) \{town\}/)
  })

  it("labels every locale of the table in its own language: the labels of the search and trip pages are all there", () => {
    const pageLabels = (Object.keys(en) as Array<keyof typeof en>).filter((k) => !/^(key_|remedy_|developers_intro|errors_intro|site_name|trip_title|labelled)/.test(k))
    for (const locale of LOCALES) {
      const language = locale.slice(0, 2)
      if (language === "en") continue
      const catalogue = CATALOGUES[language]
      expect(catalogue, locale).toBeDefined()
      const missing = pageLabels.filter((k) => catalogue![k] === undefined)
      expect(missing, locale).toEqual([])
      // Translated, not copied: most labels differ from the English ones.
      expect(pageLabels.filter((k) => catalogue![k] !== en[k]).length, locale).toBeGreaterThan(pageLabels.length * 0.7)
    }
    expect(new Set(LOCALES.map((l) => l.slice(0, 2))).size).toBe(Object.keys(CATALOGUES).length)
  })
})

describe("campaigns", () => {
  it("names a request's campaign by svc_cmkt, else utm_campaign, else unnamed for other utm_*", () => {
    expect(campaignOf([["svc_cmkt", "app"], ["utm_campaign", "mail"]])).toBe("app")
    expect(campaignOf([["utm_campaign", "mail"], ["svc_cmkt", " "]])).toBe("mail")
    expect(campaignOf([["utm_source", "forum"]])).toBe("unnamed")
    expect(campaignOf([["utm_source", ""], ["fn", "Paris"]])).toBeUndefined()
    expect(campaignOf([["svc_cmkt", "x".repeat(500)]])).toBe("x".repeat(64))
    expect(isTrackingParameter("utm_term")).toBe(true)
    expect(isTrackingParameter("svc_cmkt")).toBe(true)
    expect(isTrackingParameter("utmost")).toBe(false)
  })

  it("counts the first campaign names under their own label and folds the rest into other", async () => {
    const registry = new Registry()
    const counter = new CampaignCounter(registry, 3)
    for (const name of ["a", "b", "a", "c", "d", "e", "b"]) counter.count(name, "search")
    counter.count("other", "trip")
    const series = (await registry.getSingleMetric("tripsearch_website_campaign_visits_total")!.get()).values.map((v) => [v.labels.campaign, v.labels.page, v.value])
    expect(series).toEqual([
      ["a", "search", 2],
      ["b", "search", 2],
      ["c", "search", 1],
      ["other", "search", 2],
      ["other", "trip", 1]
    ])
  })
})
