import { apiMarkdown, ERROR_TOKENS, type ErrorToken, openApiDocument } from "@tripsearch/http-express"
import { type Html, html, Html as Markup } from "./html.js"
import { labelled } from "./labelled.js"
import { inlineMarkdown, markdownToHtml } from "./markdown.js"
import type { MessageKey, Translate } from "./messages/catalogue.js"

// The reference is the same for every request of a server: rendered once per API base URL.
const references = new Map<string, Html>()

const referenceOf = (apiBaseUrl: string): Html => {
  let reference = references.get(apiBaseUrl)
  if (reference === undefined) {
    reference = markdownToHtml(apiMarkdown(openApiDocument(apiBaseUrl)), 1)
    references.set(apiBaseUrl, reference)
  }
  return reference
}

/** Catalogue text written with inline Markdown (`code`, links): the catalogue is ours, not the request's. */
const prose = (t: Translate, key: MessageKey, vars?: Readonly<Record<string, string | number>>): Html => new Markup(inlineMarkdown(t(key, vars)))

/** `/developers`: how to get and send a key, then the API reference rendered from the OpenAPI document the server serves. */
export const developersPage = (apiBaseUrl: string, t: Translate): { readonly title: string; readonly content: Html } => {
  const title = t("developers_title")
  const example = `curl '${apiBaseUrl}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon' -H 'key: YOUR_KEY'`
  return {
    title,
    content: html`<h1>${title}</h1>
<p>${prose(t, "developers_intro")}</p>
<nav aria-label="${t("developers_contents")}"><ul><li><a href="#getting-a-key">${t("key_title")}</a></li><li><a href="#api-reference">${t(
      "api_reference"
    )}</a></li><li><a href="/developers/errors">${t("errors_title")}</a></li><li><a href="${apiBaseUrl}/api/v2/openapi.json">${t("openapi_document")}</a></li></ul></nav>
<section aria-labelledby="getting-a-key"><h2 id="getting-a-key">${t("key_title")}</h2>
<p>${prose(t, "key_how")}</p>
<pre><code>npm run store -- keys create --db data/tripsearch.db --name partner --tier production</code></pre>
<p>${prose(t, "key_send")}</p>
<pre><code>${example}</code></pre>
<p>${prose(t, "key_quota")}</p></section>
<section class="reference">${referenceOf(apiBaseUrl)}</section>`
  }
}

/** What a client can do about each error; the tokens' meanings come from the API itself (`ERROR_TOKENS`). */
const REMEDY: Readonly<Record<ErrorToken, MessageKey>> = {
  "parameter.invalid": "remedy_parameter",
  "parameter.missing": "remedy_parameter",
  "request.malformed": "remedy_request",
  "auth.missing_key": "remedy_key",
  "auth.invalid_key": "remedy_key",
  "place.not_found": "remedy_place",
  "trip.not_found": "remedy_trip",
  "resource.not_found": "remedy_path",
  "method.not_allowed": "remedy_method",
  "request.timeout": "remedy_request",
  "request.body_not_allowed": "remedy_method",
  "request.uri_too_long": "remedy_request",
  "quota.exceeded": "remedy_retry_after",
  "request.headers_too_large": "remedy_request",
  "service.error": "remedy_service_error",
  "service.overloaded": "remedy_retry_after"
}

/**
 * `/developers/errors`: one section per error token the API sends, with the token itself as its
 * anchor, so that an error's `support-link` (`…/developers/errors#{token}`) opens on its explanation.
 */
export const errorsPage = (t: Translate): { readonly title: string; readonly content: Html } => {
  const title = t("errors_title")
  const tokens = Object.keys(ERROR_TOKENS) as Array<ErrorToken>
  return {
    title,
    content: html`<h1>${title}</h1>
<p>${prose(t, "errors_intro")}</p>
<nav aria-label="${t("errors_title")}"><ul class="tokens">${tokens.map((token) => html`<li><a href="#${token}"><code>${token}</code></a></li>`)}</ul></nav>
${tokens.map(
  (token) => html`<section class="token" id="${token}" aria-labelledby="${token}-title"><h2 id="${token}-title"><code>${token}</code></h2>
<p>${labelled(t, t("http_status"), html`<strong>${ERROR_TOKENS[token].status}</strong>`)}</p>
<p>${new Markup(inlineMarkdown(ERROR_TOKENS[token].when))}</p>
<p>${prose(t, REMEDY[token])}</p></section>`
)}
<p><a href="/developers">${t("developers_title")}</a></p>`
  }
}
