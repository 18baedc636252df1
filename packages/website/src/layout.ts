import type { LocaleCode } from "@tripsearch/core"
import { Html, html } from "./html.js"
import type { Translate } from "./messages/catalogue.js"

const STYLE = `body{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1f2933}
a{color:#0b5cad}form{display:grid;grid-template-columns:repeat(auto-fill,minmax(12rem,1fr));gap:.5rem 1rem;margin-bottom:1rem}
label{display:flex;flex-direction:column;font-size:.9rem}input,select,button{font:inherit;padding:.3rem}
ol.trips{list-style:none;padding:0}ol.trips>li{border:1px solid #cbd2d9;border-radius:.4rem;padding:.6rem;margin:.5rem 0}
.facets{display:flex;flex-wrap:wrap;gap:1rem}.facets ul{list-style:none;padding:0;margin:0}
.selected{font-weight:bold}.searched{font-weight:bold;color:#0b6bcb}.error{border-left:4px solid #c81e1e;padding-left:1rem}
nav.pages a,nav.pages span{margin-right:.5rem}svg.route{max-width:100%;height:auto}`

/** The HTML document around a page's content; the page's own language in `lang`. */
export const layout = (locale: LocaleCode, t: Translate, title: string, content: Html): string =>
  "<!doctype html>\n" +
  html`<html lang="${locale.split("_")[0]!}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · ${t("site_name")}</title><style>${new Html(STYLE)}</style></head>
<body><header><a href="/search?locale=${locale}">${t("site_name")}</a></header>
<main>${content}</main></body></html>`.text
