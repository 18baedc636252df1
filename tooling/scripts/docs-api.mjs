// Writes docs/API.md from the OpenAPI document the server serves (a test fails when it is stale).
import { writeFileSync } from "node:fs"
import { apiReference } from "../../packages/http-express/dist/index.js"

const target = new URL("../../docs/API.md", import.meta.url)
writeFileSync(target, apiReference())
console.log(`wrote ${target.pathname}`)
