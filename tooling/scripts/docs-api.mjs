// Writes docs/API.md from the OpenAPI document the server serves (a test fails when it is stale).
import { writeFileSync } from "node:fs"
import { apiReference } from "../../packages/http-express/dist/index.js"
import { scriptArgs } from "./scriptArgs.mjs"

scriptArgs("docs-api", "usage: npm run docs:api\n  Writes docs/API.md from the OpenAPI document the server serves.")

const target = new URL("../../docs/API.md", import.meta.url)
writeFileSync(target, apiReference())
console.log(`wrote ${target.pathname}`)
