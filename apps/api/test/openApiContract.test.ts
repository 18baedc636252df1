import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { ContractViolation } from "@tripsearch/openapi-contract"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// The server's tests get the OpenAPI check through their setup file (openApiContract.setup.ts):
// this proves it is there, on a server that answers what the document does not describe.
describe("every fetch of the server's tests is checked against the OpenAPI document", () => {
  let body = ""
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" })
    res.end(body)
  })
  let base = ""

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it("passes a health answer the document describes, and fails one with an undocumented field", async () => {
    body = JSON.stringify({ status: "ok", store: "reachable", data_version: 3 })
    expect((await fetch(`${base}/health`)).status).toBe(200)
    body = JSON.stringify({ status: "ok", store: "reachable", data_version: 3, uptime_s: 12 })
    await expect(fetch(`${base}/health`)).rejects.toThrow(ContractViolation)
    await expect(fetch(`${base}/health`)).rejects.toThrow(/must NOT have additional properties \(uptime_s\)/)
  })
})
