import { escapeHtml, Html } from "./html.js"

/** The anchor of a heading, as the API reference's own links spell it (`Trip detail` -> `trip-detail`). */
export const headingAnchor = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "-")

// A placeholder for `\|` inside a table row, so that splitting on `|` leaves it in its cell.
const PIPE = "\u0000"

/** Inline markup: `code`, **strong**, [text](#anchor or http(s) URL); everything else as text. */
export const inlineMarkdown = (text: string): string =>
  text
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.length >= 2 && part.startsWith("`") && part.endsWith("`")) return `<code>${escapeHtml(part.slice(1, -1))}</code>`
      return escapeHtml(part)
        .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
        .replace(/\[([^\]]+)\]\((#[\w.-]*|\/[\w./-]*|https?:\/\/[^)\s]+)\)/g, (_all, label: string, href: string) => `<a href="${href}">${label}</a>`)
    })
    .join("")
    .replaceAll(PIPE, "|")

const cells = (row: string): Array<string> =>
  row
    .replace(/\\\|/g, PIPE)
    .replace(/^\s*\|/, "")
    .replace(/\|\s*$/, "")
    .split("|")
    .map((c) => c.trim())

/**
 * The subset of Markdown the API reference is written in (headings, paragraphs, `-` lists, pipe
 * tables, inline code and links; HTML comments dropped) as HTML. Headings move down `shift`
 * levels, so that the reference sits under the page's own title.
 */
export const markdownToHtml = (markdown: string, shift = 1): Html => {
  const lines = markdown.replace(/<!--[\s\S]*?-->/g, "").split("\n")
  const out: Array<string> = []
  let k = 0
  while (k < lines.length) {
    const line = lines[k]!
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (line.trim() === "") {
      k++
    } else if (heading !== null) {
      const level = Math.min(6, heading[1]!.length + shift)
      out.push(`<h${level} id="${escapeHtml(headingAnchor(heading[2]!))}">${inlineMarkdown(heading[2]!)}</h${level}>`)
      k++
    } else if (line.startsWith("|")) {
      const rows: Array<string> = []
      while (k < lines.length && lines[k]!.startsWith("|")) rows.push(lines[k++]!)
      const [head, , ...body] = rows
      out.push(
        `<div class="table"><table><thead><tr>${cells(head!).map((c) => `<th scope="col">${inlineMarkdown(c)}</th>`).join("")}</tr></thead><tbody>${body
          .map((r) => `<tr>${cells(r).map((c) => `<td>${inlineMarkdown(c)}</td>`).join("")}</tr>`)
          .join("")}</tbody></table></div>`
      )
    } else if (/^\s*- /.test(line)) {
      const items: Array<string> = []
      while (k < lines.length && /^\s*- /.test(lines[k]!)) items.push(lines[k++]!.replace(/^\s*- /, ""))
      out.push(`<ul>${items.map((i) => `<li>${inlineMarkdown(i)}</li>`).join("")}</ul>`)
    } else {
      const para: Array<string> = []
      while (k < lines.length && lines[k]!.trim() !== "" && !/^(#{1,6}\s|\||\s*- )/.test(lines[k]!)) para.push(lines[k++]!)
      out.push(`<p>${inlineMarkdown(para.join(" "))}</p>`)
    }
  }
  return new Html(out.join("\n"))
}
