import type { LocaleCode } from "@tripsearch/core"
import { Html, html } from "./html.js"
import type { Translate } from "./messages/catalogue.js"

const STYLE = `body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1f2933;overflow-wrap:anywhere}
a{color:#0b5cad}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #c2410c;outline-offset:2px}
.skip{position:absolute;left:-100rem}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:baseline;border-bottom:1px solid #cbd2d9;padding-bottom:.5rem}
header nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
form{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem 1rem;margin-bottom:1rem}
label{display:flex;flex-direction:column;font-size:.9rem}input,select,button{font:inherit;padding:.3rem}
ol.trips{list-style:none;padding:0}ol.trips>li{border:1px solid #cbd2d9;border-radius:.4rem;padding:.6rem;margin:.5rem 0}
.facets{display:flex;flex-wrap:wrap;gap:1rem}.facets ul{list-style:none;padding:0;margin:0}
.selected{font-weight:bold}.searched{font-weight:bold;color:#0b5cad}.error{border-left:4px solid #c81e1e;padding-left:1rem}
nav.pages a,nav.pages span{display:inline-block;margin-right:.5rem;min-width:1.5rem;padding:.2rem 0}svg.route{max-width:100%;height:auto}
.qa dt{font-weight:bold;margin-top:.6rem}.qa dd{margin-left:1rem}
.table{overflow-x:auto}table{border-collapse:collapse;font-size:.9rem}th,td{border:1px solid #cbd2d9;padding:.2rem .4rem;text-align:left;vertical-align:top}
pre{overflow-x:auto;background:#f5f7fa;padding:.5rem}code{font-size:.9em}
@media (max-width:30rem){body{padding:.5rem}form{grid-template-columns:1fr}}`

/** What a page adds to the document's head. */
export interface PageHead {
  /** The page's address without its tracking parameters (`<link rel="canonical">`). */
  readonly canonical?: string | undefined
  /** Further elements of the head (the app links). */
  readonly extra?: Html | undefined
}

/** The HTML document around a page's content; the page's own language in `lang`. */
export const layout = (locale: LocaleCode, t: Translate, title: string, content: Html, head: PageHead = {}): string =>
  "<!doctype html>\n" +
  html`<html lang="${locale.split("_")[0]!}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${t("site_name")}</title>${head.canonical !== undefined ? html`<link rel="canonical" href="${head.canonical}">` : ""}${head.extra}<style>${new Html(STYLE)}</style></head>
<body><a class="skip" href="#content">${t("skip_to_content")}</a><header><a href="/search?locale=${locale}">${t("site_name")}</a><nav aria-label="${t("site_navigation")}"><ul><li><a href="/search?locale=${locale}">${t(
    "search_title"
  )}</a></li><li><a href="/developers?locale=${locale}">${t("developers_title")}</a></li></ul></nav></header>
<main id="content" tabindex="-1">${content}</main></body></html>`.text
