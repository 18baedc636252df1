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
.selected{font-weight:bold}.facet a[aria-pressed=true]::after{content:" ✕"}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.place{display:flex;flex-direction:column;font-size:.9rem;position:relative}.place input{font-size:1rem}
.suggestions{position:absolute;top:100%;left:0;right:0;z-index:1000;margin:0;padding:0;list-style:none;background:#fff;border:1px solid #7b8794;border-radius:0 0 .3rem .3rem;box-shadow:0 4px 10px #0003}
.suggestions li{padding:.45rem .5rem;cursor:pointer;font-size:1rem}.suggestions li[aria-selected=true],.suggestions li:hover{background:#e1effe}
ol.trips>li.full{background:#f0f2f4;color:#52606d;border-style:dashed}ol.trips>li.full a{color:#3e4c59}
.badge{display:inline-block;background:#52606d;color:#fff;border-radius:.3rem;padding:0 .4rem;font-size:.9rem;font-weight:bold}
.along{color:#1f6f43}
.active-filters ul{display:flex;flex-wrap:wrap;gap:.4rem;list-style:none;padding:0;margin:.3rem 0}.active-filters li{background:#e1effe;border-radius:1rem;padding:.2rem .7rem}
.active-filters h2{font-size:1rem;margin:.5rem 0 0}.active-filters p{margin:.2rem 0}
.filters-button{display:none}
@media (max-width:47.99rem){.filters-button{display:inline-block;margin:.5rem 0;padding:.5rem 1rem;border:1px solid #0b5cad;border-radius:.3rem;text-decoration:none;font-weight:bold}
.results{display:flex;flex-direction:column}.filters-button{order:0;align-self:flex-start}.filters{order:1;display:none;border:1px solid #cbd2d9;border-radius:.4rem;padding:0 .6rem}.list{order:2}
.filters.open,.filters:target{display:block}}
.notice{border-left:4px solid #c2410c;padding:.2rem 1rem;margin:1rem 0;background:#fff7ed}.notice ul{margin:.3rem 0}
.map{height:22rem;max-height:60vh;margin:1rem 0;border:1px solid #cbd2d9;border-radius:.4rem}
.places-map .map{height:13rem}
.leaflet-tooltip.label{font:600 13px/1.3 system-ui,sans-serif;padding:2px 6px;white-space:normal;width:max-content;max-width:min(18rem,70vw);box-sizing:border-box}.leaflet-tooltip.label-pickup,.leaflet-tooltip.label-dropoff,.leaflet-tooltip.label-from,.leaflet-tooltip.label-to{background:#0b5cad;color:#fff;border-color:#0b5cad}.searched{font-weight:bold;color:#0b5cad}.error{border-left:4px solid #c81e1e;padding-left:1rem}
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
  /** Style sheets and scripts the page loads (deferred), by address. */
  readonly styles?: ReadonlyArray<string> | undefined
  readonly scripts?: ReadonlyArray<string> | undefined
  /** The page's description for search engines. */
  readonly description?: string | undefined
  /** The same page in another locale (none: no language list). */
  readonly inLocale?: ((locale: LocaleCode) => string) | undefined
  /** The same page in each currency the locale takes, where it takes more than one (none: no currency list). */
  readonly currencies?: { readonly current: string; readonly links: ReadonlyArray<{ readonly code: string; readonly href: string }> } | undefined
}

/** Each locale's name in its own language (`français (Belgique)`), computed once. */
const LOCALE_NAMES = new Map(
  LOCALES.map((l) => {
    const tag = LOCALE_TABLE[l].bcp47
    return [l, new Intl.DisplayNames([tag], { type: "language" }).of(tag) ?? tag] as const
  })
)

const languages = (current: LocaleCode, t: Translate, inLocale: (locale: LocaleCode) => string): Html =>
  html`<nav aria-label="${t("language")}"><h2>${t("language")}</h2><ul class="languages">${LOCALES.map((l) =>
    l === current
      ? html`<li lang="${LOCALE_TABLE[l].bcp47}"><span aria-current="true">${LOCALE_NAMES.get(l)}</span></li>`
      : html`<li><a href="${inLocale(l)}" hreflang="${LOCALE_TABLE[l].bcp47}" lang="${LOCALE_TABLE[l].bcp47}">${LOCALE_NAMES.get(l)}</a></li>`
  )}</ul></nav>`

const currencyList = (locale: LocaleCode, t: Translate, currencies: NonNullable<PageHead["currencies"]>): Html => {
  const names = new Intl.DisplayNames([LOCALE_TABLE[locale].bcp47], { type: "currency" })
  const name = (code: string) => `${names.of(code) ?? code} (${code})`
  return html`<nav aria-label="${t("currency")}"><h2>${t("currency")}</h2><ul class="languages currencies">${currencies.links.map((c) =>
    c.code === currencies.current ? html`<li><span aria-current="true">${name(c.code)}</span></li>` : html`<li><a href="${c.href}">${name(c.code)}</a></li>`
  )}</ul></nav>`
}

/** The HTML document around a page's content; the page's own language in `lang`. */
export const layout = (locale: LocaleCode, t: Translate, title: string, content: Html, head: PageHead = {}): string =>
  "<!doctype html>\n" +
  html`<html lang="${locale.split("_")[0]!}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${t("site_name")}</title><link rel="icon" href="data:,">${head.canonical !== undefined ? html`<link rel="canonical" href="${head.canonical}">` : ""}${head.extra}${
    head.description !== undefined ? html`<meta name="description" content="${head.description}">` : ""
  }${(head.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}">`)}${(head.scripts ?? []).map((src) => html`<script defer src="${src}"></script>`)}<style>${new Html(STYLE)}</style></head>
<body><a class="skip" href="#content">${t("skip_to_content")}</a><header><a href="/search?locale=${locale}">${t("site_name")}</a><nav aria-label="${t("site_navigation")}"><ul><li><a href="/search?locale=${locale}">${t(
    "search_title"
  )}</a></li><li><a href="/developers?locale=${locale}">${t("developers_title")}</a></li></ul></nav></header>
<main id="content" tabindex="-1">${content}</main>${
    head.inLocale !== undefined || head.currencies !== undefined
      ? html`<footer>${head.currencies !== undefined ? currencyList(locale, t, head.currencies) : ""}${head.inLocale !== undefined ? languages(locale, t, head.inLocale) : ""}</footer>`
      : ""
  }</body></html>`.text
