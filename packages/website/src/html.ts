/** Text made safe for HTML element content and quoted attribute values. */
export const escapeHtml = (text: string | number): string =>
  String(text).replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))

/** Markup already escaped: `html` templates insert it as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

type Slot = Html | string | number | undefined | null | false | ReadonlyArray<Html>

/**
 * A template whose interpolated values are escaped unless they are `Html` (or arrays of it):
 * data and query text can only ever reach the page as text.
 */
export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Slot>): Html => {
  let out = strings[0]!
  values.forEach((value, k) => {
    out +=
      value === undefined || value === null || value === false
        ? ""
        : value instanceof Html
          ? value.text
          : Array.isArray(value)
            ? value.map((v: Html) => v.text).join("")
            : escapeHtml(value as string | number)
    out += strings[k + 1]!
  })
  return new Html(out)
}
