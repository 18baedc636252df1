import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { type ApiKey, InMemoryTripMatcher, KeyStore } from "@tripsearch/core"
import { GazetteerPlaceNames, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import { createKey, type openDatabase, SqliteKeyStore, SqliteTripStore } from "@tripsearch/storage-sqlite"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import type { Express } from "express"
import { stubbedUseCases } from "@tripsearch/openapi-contract"
import { createApp } from "../src/index.js"

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

/** The app (or a node:http listener) on a real listening server, on an ephemeral port of the loopback interface. */
export const listen = (app: Express | RequestListener): Promise<Running> =>
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

/**
 * `listen` for an app whose use-cases the test replaced with stubs: their 200 bodies are
 * placeholders, left out of the OpenAPI contract's check (openApiContract.setup.ts); statuses,
 * types, headers and error bodies are still checked.
 */
export const listenStubbed = async (app: Express | RequestListener): Promise<Running> => {
  const running = await listen(app)
  const undo = stubbedUseCases(running.base)
  return {
    ...running,
    close: async () => {
      undo()
      await running.close()
    }
  }
}

/** A memory sink of lines (logger, query log). */
export const memorySink = () => {
  const lines: Array<string> = []
  return { lines, write: (line: string) => void lines.push(line) }
}

/** The app over the real stack, listening: a basic key, and a `close` that also disposes the runtime. */
export interface RealStack extends Running {
  readonly key: string
}

/**
 * The app over `db` (a SQLite store the test filled) with the real core: the store and key store
 * adapters, the in-thread matcher and the gazetteer (names and place names); links on https://api.test and
 * https://www.test, logs dropped; a basic key named `keyName` created in `db`.
 */
export const listenOverStore = async (db: ReturnType<typeof openDatabase>, keyName: string): Promise<RealStack> => {
  const key = createKey(db, { name: keyName, tier: "basic" }).key
  const store = SqliteTripStore.layerDatabase(db)
  const runtime = ManagedRuntime.make(
    Layer.mergeAll(InMemoryTripMatcher.layer.pipe(Layer.provideMerge(store)), SqliteKeyStore.layerDatabase(db), GazetteerPlaceResolver.layer, GazetteerPlaceNames.layer)
  )
  const running = await listen(
    createApp({ runtime, config: { apiBaseUrl: "https://api.test", websiteBaseUrl: "https://www.test", logger: { info: () => {}, error: () => {} } } })
  )
  return {
    ...running,
    key,
    close: async () => {
      await running.close()
      await runtime.dispose()
    }
  }
}
