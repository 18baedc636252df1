import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type ApiKey, KeyStore } from "@tripsearch/core"
import { Effect, Layer, Option } from "effect"
import type { Express } from "express"

/** An in-memory KeyStore with the keys given (plain key -> ApiKey) and inspectable usage. */
export const makeMemoryKeyStore = (keys: Record<string, ApiKey>) => {
  const usage = new Map<string, number>()
  const service: KeyStore["Type"] = {
    find: (plainKey) => Effect.sync(() => Option.fromNullable(Object.hasOwn(keys, plainKey) ? keys[plainKey] : undefined)),
    usage: (keyId, day) => Effect.sync(() => usage.get(`${keyId}/${day}`) ?? 0),
    count: (keyId, day) => Effect.sync(() => void usage.set(`${keyId}/${day}`, (usage.get(`${keyId}/${day}`) ?? 0) + 1))
  }
  return {
    layer: Layer.succeed(KeyStore, service),
    usageOf: (keyId: string, day: string) => usage.get(`${keyId}/${day}`) ?? 0,
    setUsage: (keyId: string, day: string, n: number) => void usage.set(`${keyId}/${day}`, n)
  }
}

export interface Running {
  readonly base: string
  readonly server: Server
  readonly close: () => Promise<void>
}

/** The app on a real listening server, on an ephemeral port of the loopback interface. */
export const listen = (app: Express): Promise<Running> =>
  new Promise((resolve) => {
    const server = createServer(app)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve({
        base: `http://127.0.0.1:${port}`,
        server,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

/** A memory sink of lines (logger, query log). */
export const memorySink = () => {
  const lines: Array<string> = []
  return { lines, write: (line: string) => void lines.push(line) }
}
