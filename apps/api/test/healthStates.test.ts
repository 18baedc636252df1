import { Agent, request } from "node:http"
import { connectPostgres, migrate, MIGRATION_LOCK } from "@tripsearch/storage-postgres"
import { freshDatabase } from "@tripsearch/store-tests"
import { describe, expect, it } from "vitest"
import { createServer } from "../src/createServer.js"
import { timeUntil } from "./timeUntil.js"

/** One GET, on a connection of its own unless an agent is given: status, `Connection` header, body. */
const get = (port: number, path: string, agent: Agent | false = false): Promise<{ status: number; connection: string | undefined; body: string }> =>
  new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      let body = ""
      res.on("data", (c: Buffer) => (body += c.toString()))
      res.on("end", () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }))
    })
    req.on("error", reject)
    req.end()
  })

/**
 * `/health` as a load balancer reads it: 503 `starting` from the moment the server listens until
 * its index is loaded (other requests 503 too), 200 while it serves, 503 `draining` after it was
 * told to drain, while requests are still answered (each closing its connection).
 */
describe("/health while a server starts, serves and drains", () => {
  it("answers 503 starting before the index is loaded, 200 once it is, 503 draining while it drains", async () => {
    const database = await freshDatabase()
    const sql = connectPostgres(database.url)
    await migrate(sql)
    // The server's start waits for the migrations' lock, held here: it stays starting until released.
    let release = () => {}
    let locked = () => {}
    const isLocked = new Promise<void>((r) => (locked = r))
    const holding = sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`
      locked()
      await new Promise<void>((r) => (release = r))
    })
    await isLocked
    let port = 0
    const starting = createServer({
      config: { db: database.url, publicBaseUrl: "http://api.test", websiteBaseUrl: "http://www.test", queryLogPath: undefined, productionDailyLimit: undefined, matcherThreads: 1, matcherMaxQueue: 16 },
      logger: { info: () => {}, error: () => {} },
      listenFirst: { port: 0, host: "127.0.0.1", onListening: (a) => (port = a.port) }
    })
    expect(await timeUntil(async () => port, (p) => p !== 0, 10_000)).toBeLessThan(10_000)
    try {
      for (let i = 0; i < 3; i++) expect(await get(port, "/health")).toMatchObject({ status: 503, body: JSON.stringify({ status: "starting" }) })
      const search = await get(port, "/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris")
      expect(search.status).toBe(503)
      expect(JSON.parse(search.body)).toMatchObject({ error: { code: "503", "developper-message": "service.error" } })
    } finally {
      release()
      await holding
    }
    const api = await starting
    try {
      expect(api.address?.port).toBe(port)
      const serving = await get(port, "/health")
      expect(serving.status).toBe(200)
      expect(JSON.parse(serving.body)).toMatchObject({ status: "ok", store: "reachable" })

      const keepAlive = new Agent({ keepAlive: true })
      // A kept-alive connection is kept while the server serves...
      expect((await get(port, "/api/v2/openapi.json", keepAlive)).connection).toBe("keep-alive")
      const draining = api.drain(300)
      const health = await get(port, "/health")
      expect(health.status).toBe(503)
      expect(JSON.parse(health.body)).toEqual({ status: "draining" })
      // ...and closed after its answer once the server drains; requests are still served.
      const served = await get(port, "/api/v2/openapi.json", keepAlive)
      expect(served.status).toBe(200)
      expect(served.connection).toBe("close")
      await draining
      keepAlive.destroy()
    } finally {
      await api.close()
      await sql.end()
      await database.drop()
    }
  }, 60_000)
})
