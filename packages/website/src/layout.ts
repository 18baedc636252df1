import { LOCALE_TABLE, LOCALES, type LocaleCode } from "@tripsearch/core"
import { Html, html } from "./html.js"
import type { Translate } from "./messages/catalogue.js"

const STYLE = `body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1f2933;overflow-wrap:anywhere}
a{color:#0b5cad}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
.skip{position:absolute;left:-100rem}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;border-bottom:1px solid #cbd2d9;padding-bottom:.5rem}
header nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
form,.more .fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem 1rem;margin-bottom:1rem}
.more{grid-column:1/-1}.more summary,.facet summary{cursor:pointer;padding:.2rem 0}.more .fields{margin:.5rem 0 0}
summary h3{display:inline}
label{display:flex;flex-direction:column;font-size:.9rem}input,select,button{font:inherit;padding:.3rem}
ol.trips{list-style:none;padding:0}ol.trips>li{border:1px solid #cbd2d9;border-radius:.4rem;padding:.6rem;margin:.5rem 0}
.facets{display:flex;flex-wrap:wrap;gap:1rem}.facets ul{list-style:none;padding:0;margin:0}.facets h3{margin:.3rem 0;font-size:1rem}
.top-trips ul{padding-left:1.2rem}
@media (min-width:48rem){.results{display:grid;grid-template-columns:13rem 1fr;gap:1.5rem}.filters{grid-column:1;grid-row:1}.list{grid-column:2}.facets{flex-direction:column}}
.selected{font-weight:bold}.searched{font-weight:bold;color:#0b5cad}.error{border-left:4px solid #c81e1e;padding-left:1rem}
nav.pages a,nav.pages span{display:inline-block;margin-right:.5rem;min-width:1.5rem;padding:.2rem 0}svg.route{max-width:100%;height:auto}
.qa dt{font-weight:bold;margin-top:.6rem}.qa dd{margin-left:1rem}
.table{overflow-x:auto}table{border-collapse:collapse;font-size:.9rem}th,td{border:1px solid #cbd2d9;padding:.2rem .4rem;text-align:left;vertical-align:top}
pre{overflow-x:auto;background:#f5f7fa;padding:.5rem}code{font-size:.9em}
footer{margin-top:2rem;border-top:1px solid #cbd2d9}footer h2{font-size:1rem}.languages{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0}
@media (max-width:30rem){body{padding:.5rem}form,.more .fields{grid-template-columns:1fr}}`

/** What a page adds to the document's head. */
export interface PageHead {
  /** The page's address without its tracking parameters (`<link rel="canonical">`). */
  readonly canonical?: string | undefined
  /** Further elements of the head (the app links). */
  readonly extra?: Html | undefined
  /** The same page in another locale (none: no language list). */
  readonly inLocale?: ((locale: LocaleCode) => string) | undefined
}

/** Each locale's name in its own language (`français (Belgique)`), computed once. */
const LOCALE_NAMES = new Map(
  LOCALES.map((l) => {
    const tag = LOCALE_TABLE[l].bcp47
    return [l, new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag] as const
  })
)

const languages = (current: LocaleCode, t: Translate, inLocale: (locale: LocaleCode) => string): Html =>
  html`<footer><nav aria-label="${t("language")}"><h2>${t("language")}</h2><ul class="languages">${LOCALES.map((l) =>
    l === current
      ? html`<li lang="${LOCALE_TABLE[l].bcp47}"><span aria-current="true">${LOCALE_NAMES.get(l)}</span></li>`
      : html`<li><a href="${inLocale(l)}" hreflang="${LOCALE_TABLE[l].bcp47}" lang="${LOCALE_TABLE[l].bcp47}">${LOCALE_NAMES.get(l)}</a></li>`
  )}</ul></nav></footer>`

/** The HTML document around a page's content; the page's own language in `lang`. */
export const layout = (locale: LocaleCode, t: Translate, title: string, content: Html, head: PageHead = {}): string =>
  "<!doctype html>\n" +
  html`<html lang="${locale.split("_")[0]!}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${t("site_name")}</title>${head.canonical !== undefined ? html`<link rel="canonical" href="${head.canonical}">` : ""}${head.extra}<style>${new Html(STYLE)}</style></head>
<body><a class="skip" href="#content">${t("skip_to_content")}</a><header><a href="/search?locale=${locale}">${t("site_name")}</a><nav aria-label="${t("site_navigation")}"><ul><li><a href="/search?locale=${locale}">${t(
    "search_title"
  )}</a></li><li><a href="/developers?locale=${locale}">${t("developers_title")}</a></li></ul></nav></header>
<main id="content" tabindex="-1">${content}</main>${head.inLocale !== undefined ? languages(locale, t, head.inLocale) : ""}</body></html>`.text
