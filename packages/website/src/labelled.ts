import { type Html, html } from "./html.js"
import type { Translate } from "./messages/catalogue.js"

/**
 * A label and its value as the language writes them (`Départ\u202f: …` in French), the value's
 * own markup kept: the message is filled with a marker that no text carries, then cut there.
 */
export const labelled = (t: Translate, label: string, value: Html): Html => {
  const [before = "", after = ""] = t("labelled", { label, value: "\uE000" }).split("\uE000")
  return html`${before}${value}${after}`
}
