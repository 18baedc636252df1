// Writes docs/API.md from the OpenAPI document the server serves (a test fails when it is stale).
import { writeFileSync } from "node:fs"
import { scriptArgs } from "./scriptArgs.mjs"

scriptArgs("docs-api", "usage: npm run docs:api\n  Writes docs/API.md from the OpenAPI document the server serves.")
// Loaded after the command line: --help and a refusal answer at once, without them.
const { apiReference } = await import("../../packages/http-express/dist/index.js")

const target = new URL("../../docs/API.md", import.meta.url)
writeFileSync(target, apiReference())
console.log(`wrote ${target.pathname}`)
