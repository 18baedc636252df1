import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { apiReference, ERROR_TOKENS, openApiDocument } from "../src/index.js"

const page = readFileSync(new URL("../../../docs/API.md", import.meta.url), "utf8")

describe("docs/API.md", () => {
  it("is the reference rendered from today's OpenAPI document (else run `npm run docs:api`)", () => {
    expect(page).toBe(apiReference())
  })

  it("names every path, parameter, resource and error token of the document", () => {
    const doc = openApiDocument("http://localhost:3000") as any // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(page).toContain(`### GET ${path}`)
      for (const p of (item as any).get.parameters ?? []) expect(page).toContain(`| \`${p.name}\` |`) // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    for (const name of Object.keys(doc.components.schemas)) expect(page).toContain(`### ${name}\n`)
    for (const token of Object.keys(ERROR_TOKENS)) expect(page).toContain(`\`${token}\``)
    expect(page).not.toContain("../shared")
  })
})

describe("the repository's docs stand alone", () => {
  const root = new URL("../../../", import.meta.url).pathname
  const pages = [
    "README.md",
    ...readdirSync(`${root}docs`).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
    ...["packages", "apps"].flatMap((dir) =>
      readdirSync(`${root}${dir}`)
        .map((p) => `${dir}/${p}/README.md`)
        .filter((f) => {
          try {
            return readFileSync(`${root}${f}`).length > 0
          } catch {
            return false
          }
        })
    )
  ]

  it("never point to documents outside the repository", () => {
    expect(pages.length).toBeGreaterThanOrEqual(6)
    for (const page of pages) {
      const text = readFileSync(`${root}${page}`, "utf8")
      expect(text, page).not.toMatch(/\.\.\/shared|SEMANTICS|trip-search-api\.md/)
    }
  })

  it("the README links the API reference and the served OpenAPI document", () => {
    const readme = readFileSync(`${root}README.md`, "utf8")
    expect(readme).toContain("](docs/API.md)")
    expect(readme).toContain("/api/v2/openapi.json")
  })
})
