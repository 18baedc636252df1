// The baseline: a bare Express route answering every GET with one constant JSON body of the
// given size, the same content type as the API. Prints its port.
import express from "express"
import { parseArgs } from "node:util"

const { values } = parseArgs({ options: { bytes: { type: "string", default: "8000" } } })
const size = Number(values.bytes)
const body = JSON.stringify({ pad: "x".repeat(Math.max(0, size - 10)) })
const app = express()
app.disable("x-powered-by")
app.get("/{*any}", (_req, res) => {
  res.type("application/json; charset=utf-8").send(body)
})
const server = app.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`))
