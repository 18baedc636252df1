import { createWriteStream, mkdirSync, type WriteStream } from "node:fs"
import { randomUUID } from "node:crypto"
import { createServer as createHttpServer, type IncomingMessage, type Server, ServerResponse, STATUS_CODES } from "node:http"
import type { AddressInfo, Socket } from "node:net"
import type { Duplex } from "node:stream"
import { dirname } from "node:path"
import { InMemoryTripMatcher, KeyStore, PlaceNames, PlaceResolver, TripStore } from "@tripsearch/core"
import { GeoPoolService, type IndexLoad, PoolTripMatcher, searchOn } from "@tripsearch/geo-pool"
import { GazetteerPlaceNames, GazetteerPlaceResolver } from "@tripsearch/gazetteer"
import {
  ALLOWED_METHODS,
  ApiMetrics,
  type AppServices,
  corsHeaders,
  createRequestListener,
  errorBody,
  type ErrorReply,
  fdLines,
  gatheredLines,
  jsonLineLogger,
  redactPath,
  type RequestLogger,
  supportLinkOf,
  varyHeader
} from "@tripsearch/http-express"
import { keyStoreLayer, tripStoreLayer } from "@tripsearch/store"
import { withWebsite } from "@tripsearch/website"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { type ApiConfig, DEFAULT_MATCHER_MAX_QUEUE, DEFAULT_MATCHER_MAX_WAIT_MS } from "./config.js"

/** Matching defaults when a caller (a test, the replay tool) leaves them out: as `loadConfig`'s. */
const DEFAULT_MATCHER_THREADS = 2
/**
 * How long a connection whose search was refused at the door is not read (see `refusalHoldMs` of
 * `createRequestListener`): a fifth of the wait bound, so that a client asking again at once waits
 * well inside what an admitted search may, and at most the 1 s of the refusal's `Retry-After`
 * (under the 5 s keep-alive timeout). Measured in docs/PERFORMANCE.md (Overload): with 1,024
 * clients retrying at once, 100 ms kept the searches served and their p99 under a second where,
 * without it, the refusals fed on themselves.
 */
const refusalHoldMs = (maxWaitMs: number): number => Math.min(1_000, Math.round(maxWaitMs / 5))
/** How long a shutdown waits for request logs still queued for stdout. */
const LOG_DRAIN_MS = 2_000
/**
 * How long a log line waits for others before they are written together (request log and query
 * log): a write per request, each a round trip through libuv's thread pool, cost about 2.5 of
 * the server's 6.4 voluntary context switches per request (docs/PERFORMANCE.md).
 */
const LOG_GATHER_MS = 20
/**
 * A request line that is HTTP/1.x in form (a token, a target, a version) but whose method Node's
 * parser does not know (`BREW`, `DESCRIBE`): a method the service does not allow, not garbage.
 */
const UNKNOWN_METHOD_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S+) HTTP\/1\.[01]\r?\n/

/**
 * Which store the server uses: `db`, a SQLite file's path or a `postgres://` URL (`ApiConfig.db`).
 * `dbPath` is the name it had when it could only be a path, still taken.
 */
export type StoreLocation = { readonly db: string } | { /** @deprecated the former name of `db` */ readonly dbPath: string }

const dbOf = (location: StoreLocation): string => ("db" in location ? location.db : location.dbPath)

export const apiLayer = (
  config: StoreLocation &
    Pick<ApiConfig, "productionDailyLimit"> &
    Partial<Pick<ApiConfig, "matcherThreads" | "matcherMaxQueue" | "matcherMaxWaitMs" | "indexSnapshotPath" | "indexSnapshotShared">>
): Layer.Layer<AppServices> => {
  const threads = config.matcherThreads ?? DEFAULT_MATCHER_THREADS
  // A SQLite file or a PostgreSQL database, by the form of TRIPSEARCH_DB.
  const db = dbOf(config)
  const store = tripStoreLayer(db)
  // The pool runs whole searches on worker threads over one shared index, which this thread's
  // writer keeps fresh from the store; the workers open no store (the shown trips are kept beside
  // the index). This thread resolves the searches' place names with the process's one gazetteer
  // (`searchOn`), loaded at start so that the first name search does not stall it.
  const matcher =
    threads === 0
      ? InMemoryTripMatcher.layer
      : PoolTripMatcher.layerWithPool({
          // Unused: the pool's writer follows the layer's TripStore, whichever it is.
          dbPath: db,
          threads,
          maxQueue: config.matcherMaxQueue ?? DEFAULT_MATCHER_MAX_QUEUE,
          // A config that leaves the key out gets the default; `undefined` written out is `off`.
          ...("matcherMaxWaitMs" in config
            ? config.matcherMaxWaitMs === undefined
              ? {}
              : { maxWaitMs: config.matcherMaxWaitMs }
            : { maxWaitMs: DEFAULT_MATCHER_MAX_WAIT_MS }),
          search: true,
          ...(config.indexSnapshotPath !== undefined ? { snapshotPath: config.indexSnapshotPath } : {}),
          ...(config.indexSnapshotShared === true ? { sharedSnapshot: true } : {})
        })
  const places = GazetteerPlaceResolver.layer
  const matcherAndStore = matcher.pipe(Layer.provideMerge(store))
  const keys =
    config.productionDailyLimit === undefined
      ? keyStoreLayer(db)
      : productionLimitOverride(config.productionDailyLimit).pipe(Layer.provide(keyStoreLayer(db)))
  return Layer.mergeAll(matcherAndStore, keys, places, GazetteerPlaceNames.layer)
}

/** The KeyStore with `PRODUCTION_DAILY_LIMIT` as the daily limit of every production-tier key. */
const productionLimitOverride = (limit: number): Layer.Layer<KeyStore, never, KeyStore> =>
  Layer.effect(
    KeyStore,
    Effect.map(KeyStore, (keys) => ({
      ...keys,
      find: (plainKey: string) =>
        Effect.map(
          keys.find(plainKey),
          Option.map((key) => (key.tier === "production" ? { ...key, dailyLimit: limit } : key))
        )
    }))
  )

export interface ApiServer {
  /** The HTTP server, not listening yet. */
  readonly server: Server
  readonly runtime: ManagedRuntime.ManagedRuntime<AppServices, never>
  /** Starts listening; resolves with the bound address (port 0: an ephemeral port). */
  readonly listen: (port: number, host: string) => Promise<AddressInfo>
  /**
   * Stops accepting connections, lets in-flight requests finish (idle keep-alive connections are
   * closed at once; after `graceMs` the remaining ones are cut), then disposes the runtime (closes
   * the store) and the query log.
   */
  readonly close: (graceMs?: number) => Promise<void>
  /** How the pool's index was loaded (none without a pool). */
  readonly indexLoad: IndexLoad | undefined
  /**
   * Starts draining: `/health` answers 503 `draining` and every response closes its connection,
   * while requests are still served; resolves after `ms`, when the caller `close`s. A load
   * balancer that checks `/health` stops sending requests here meanwhile.
   */
  readonly drain: (ms: number) => Promise<void>
  /** The bound address when the server was asked to listen before its index was loaded (`listenFirst`). */
  readonly address: AddressInfo | undefined
}

/** Where to listen while the index loads, and who to tell once it does. */
export interface ListenFirst {
  readonly port: number
  readonly host: string
  readonly onListening?: (address: AddressInfo) => void
}

export interface CreateServerOptions {
  readonly config: Omit<ApiConfig, "db" | "port" | "host" | "seedTrips" | "demoKeyPath" | "matcherThreads" | "matcherMaxQueue" | "matcherMaxWaitMs" | "metrics" | "corsOrigins" | "indexSnapshotPath" | "indexSnapshotShared" | "drainMs" | "appLinks" | "mapTiles"> &
    StoreLocation &
    Partial<Pick<ApiConfig, "matcherThreads" | "matcherMaxQueue" | "matcherMaxWaitMs" | "metrics" | "corsOrigins" | "indexSnapshotPath" | "indexSnapshotShared" | "drainMs" | "appLinks" | "mapTiles">>
  readonly logger?: RequestLogger
  /**
   * Listen at once, before the runtime (the store, the index) is built: until it is, `/health`
   * answers 503 `{"status":"starting"}` and every other request 503 `service.error` with
   * `Retry-After`, so that a load balancer checking `/health` sends nothing here yet.
   */
  readonly listenFirst?: ListenFirst
}

/** `/health` as the API routes read it: any case, one optional trailing slash, any query. */
const HEALTH_TARGET = /^\/health\/?(\?.*)?$/i

/**
 * Builds the runtime (the layers are built now, so the first request does not pay for the
 * gazetteer or the index) and the HTTP server around the Express app. Does not listen, unless
 * `listenFirst` asks it to before the runtime is built.
 */
export const createServer = async ({ config, logger, listenFirst }: CreateServerOptions): Promise<ApiServer> => {
  // The app's own default, so that parser-level errors link to the same help pages.
  const supportLink = supportLinkOf({ websiteBaseUrl: config.websiteBaseUrl })
  const corsOrigins = config.corsOrigins ?? "*"
  // Until the app is built, requests get the starting answer; then the app's listener.
  let ready: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  let draining = false
  const starting = (req: IncomingMessage, res: ServerResponse): void => {
    const reply: ErrorReply = { status: 503, token: "service.error", message: "The server is starting: its index is not loaded yet", retryAfterSeconds: 1 }
    const body = HEALTH_TARGET.test(req.url ?? "") ? JSON.stringify({ status: "starting" }) : JSON.stringify(errorBody(reply, supportLink(reply.token)))
    res.writeHead(503, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(body),
      "Cache-Control": "no-store",
      "Retry-After": "1",
      ...corsHeaders(req.headers.origin, corsOrigins)
    })
    res.end(req.method === "HEAD" ? undefined : body)
  }
  // Incomplete requests checked every second rather than Node's every 30: a client whose headers
  // are not in after `headersTimeout` gets its 408 then, not up to 30 s later.
  const server = createHttpServer({ maxHeaderSize: 16 * 1024, connectionsCheckingInterval: 1_000 }, (req, res) => {
    // A draining server's connections end with their response: a balancer's kept-alive ones too.
    if (draining) res.shouldKeepAlive = false
    ;(ready ?? starting)(req, res)
  })
  const listen = (port: number, host: string): Promise<AddressInfo> =>
    new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error)
      server.once("error", onError)
      server.listen(port, host, () => {
        server.off("error", onError)
        resolve(server.address() as AddressInfo)
      })
    })
  let address: AddressInfo | undefined
  if (listenFirst !== undefined) {
    address = await listen(listenFirst.port, listenFirst.host)
    listenFirst.onListening?.(address)
  }
  const runtime = ManagedRuntime.make(apiLayer(config))
  try {
    await runtime.runtime()
  } catch (e) {
    if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()))
    throw e
  }

  let queryLog: WriteStream | undefined
  if (config.queryLogPath !== undefined) {
    mkdirSync(dirname(config.queryLogPath), { recursive: true })
    queryLog = createWriteStream(config.queryLogPath, { flags: "a" })
  }
  const queryLines = queryLog === undefined ? undefined : gatheredLines(queryLog, LOG_GATHER_MS)
  // Request logs go to stdout asynchronously (a slow log reader must not stall requests), a
  // request's line with those of the next few milliseconds; errors go to stderr at once.
  const requestLines = fdLines(1, undefined, LOG_GATHER_MS)
  // With a pool, a search runs whole in a worker: this thread parses, admits, dispatches, writes.
  const pool = Option.getOrUndefined(await runtime.runPromise(Effect.serviceOption(GeoPoolService)))
  const latestStoreSeq = Effect.flatMap(TripStore, (store) => store.changesSince(Number.MAX_SAFE_INTEGER)).pipe(Effect.map((changes) => changes.seq))
  // The pool and its workers' indexes are the server's to report; with no pool (MATCHER_THREADS=0)
  // the in-thread index keeps its state to itself, and only the store's sequence is reported.
  const metrics =
    config.metrics === false
      ? undefined
      : new ApiMetrics({
          sources: {
            storeSeq: () => runtime.runPromise(latestStoreSeq),
            ...(pool === undefined
              ? {}
              : {
                  pool: () => ({ queueDepth: pool.queueSize, busyWorkers: pool.busyWorkers, workers: pool.threadIds.length }),
                  refusals: () => pool.refusals,
                  // One index per process, written in this thread and shared by every worker.
                  indexes: () => [{ holder: "main", trips: pool.indexState.trips, appliedSeq: pool.indexState.seq }]
                })
          }
        })
  const requestLogger = logger ?? jsonLineLogger(requestLines, process.stderr)
  const useCases = pool === undefined ? undefined : { searchTrips: searchOn(pool, await runtime.runPromise(PlaceResolver)) }
  const api = createRequestListener({
    runtime,
    metrics,
    useCases,
    // A search the pool's admission would refuse is answered 503 before its key is looked up.
    shedSearch: pool?.admission === undefined ? undefined : (key) => pool.shed(key),
    refusalHoldMs: pool?.admission === undefined ? 0 : refusalHoldMs(pool.admission.maxWaitMs),
    draining: () => draining,
    config: {
      apiBaseUrl: config.publicBaseUrl,
      websiteBaseUrl: config.websiteBaseUrl,
      queryLog: queryLines,
      logger: requestLogger,
      corsOrigins
    }
  })
  // The website's pages run the API's own use-cases, so that they show what the API answers, and
  // suggest towns as `GET /api/v2/places` does (the same PlaceNames, the same loaded gazetteer).
  const placeNames = await runtime.runPromise(PlaceNames)
  // They count their campaigns in the app's metrics and log the searches they run in its query log.
  const app = withWebsite(api.app, {
    runtime,
    apiBaseUrl: config.publicBaseUrl,
    websiteBaseUrl: config.websiteBaseUrl,
    useCases,
    metricsRegistry: metrics?.registry,
    queryLog: queryLines,
    appLinks: config.appLinks,
    mapTiles: config.mapTiles,
    placeSuggester: { suggest: (q, locale, limit = 10) => placeNames.suggest(q, locale, limit) }
  })
  // Searches are answered by the API's listener itself, refusals first; the rest by Express.
  ready = api.listenerBefore(app)
  // Requests Node's parser refuses (a request target without a leading slash, bad header bytes,
  // oversized headers) never reach Express: they get the Error object all the same.
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy()
      return
    }
    const packet = error.rawPacket?.toString("latin1") ?? ""
    const requestLine = UNKNOWN_METHOD_LINE.exec(packet)
    const unknownMethod = requestLine !== null && (error.code === "HPE_INVALID_METHOD" || error.code === "HPE_INVALID_CONSTANT")
    const reply: ErrorReply =
      error.code === "HPE_HEADER_OVERFLOW"
        ? { status: 431, token: "request.headers_too_large", message: "The request headers are larger than 16 KiB" }
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? { status: 408, token: "request.timeout", message: "The request was not received in time" }
          : unknownMethod
            ? { status: 405, token: "method.not_allowed", message: `Method ${requestLine[1]} is not allowed: the service answers ${ALLOWED_METHODS}` }
            : { status: 400, token: "request.malformed", message: "The request line or its headers are not valid HTTP" }
    const body = JSON.stringify(errorBody(reply, supportLink(reply.token)))
    // A response to HEAD carries the headers of the body, never the body.
    const head = packet.startsWith("HEAD ")
    // The request was not parsed, but its Origin header is often readable: a page still gets to
    // read why its request failed.
    const origin = /\r\norigin:[ \t]*([^\r\n]*?)[ \t]*\r\n/i.exec(packet)?.[1]
    const cors = Object.entries(corsHeaders(origin, corsOrigins))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
    const requestId = randomUUID()
    socket.end(
      `HTTP/1.1 ${reply.status} ${STATUS_CODES[reply.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nVary: ${varyHeader(corsOrigins)}\r\n${cors}` +
        `${unknownMethod ? `Allow: ${ALLOWED_METHODS}\r\n` : ""}X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${head ? "" : body}`
    )
    // Logged like the requests Express answers, from what can be read of the request line.
    const line = /^(\S{1,32}) (\S+)/.exec(packet)
    const path = line === null ? "" : redactPath(line[2]!.split("?")[0]!)
    requestLogger.info({
      event: "request",
      request_id: requestId,
      method: line === null ? "" : line[1]!,
      path: path.length > 512 ? `${path.slice(0, 512)}...` : path,
      status: reply.status,
      duration_ms: 0,
      refused_by: "parser"
    })
  })
  // Node hands a CONNECT request to a 'connect' listener with the bare socket, and without one
  // closes the socket unanswered: the app answers it as any other method it does not allow (405
  // with `Allow`, logged), through a response bound to that socket, which then closes.
  server.on("connect", (req: IncomingMessage, socket: Duplex) => {
    // Node removed its own listeners from the socket before handing it over: a reset must not
    // become an uncaught 'error'.
    socket.on("error", () => socket.destroy())
    // Express routes by the target's path, and an authority-form target (`example.com:443`) has
    // none: it is routed as `/`, while the app reads and logs the target as received.
    if (!(req.url ?? "").startsWith("/")) {
      Object.assign(req, { originalUrl: req.url })
      req.url = "/"
    }
    const res = new ServerResponse(req)
    res.shouldKeepAlive = false
    res.assignSocket(socket as Socket)
    res.on("finish", () => {
      res.detachSocket(socket as Socket)
      socket.end()
    })
    app(req, res)
  })
  server.keepAliveTimeout = 5_000
  server.headersTimeout = 10_000
  server.requestTimeout = 30_000

  let closing: Promise<void> | undefined
  const close = (graceMs = 10_000): Promise<void> =>
    (closing ??= (async () => {
      if (server.listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        server.closeIdleConnections()
        const force = setTimeout(() => server.closeAllConnections(), graceMs)
        force.unref()
        await closed
        clearTimeout(force)
      }
      await runtime.dispose()
      // The last request logs, unless stdout's reader is stalled: shutdown does not wait on it.
      await new Promise<void>((resolve) => {
        const giveUp = setTimeout(resolve, LOG_DRAIN_MS)
        void requestLines.drain().then(() => {
          clearTimeout(giveUp)
          resolve()
        })
      })
      if (queryLog !== undefined) {
        const stream = queryLog
        await new Promise<void>((resolve) => stream.end(() => resolve()))
      }
    })())

  const drain = (ms: number): Promise<void> => {
    draining = true
    // Idle kept-alive connections would otherwise carry a balancer's next request.
    server.closeIdleConnections()
    return new Promise((resolve) => setTimeout(resolve, ms))
  }

  return { server, runtime, listen, close, drain, address, indexLoad: pool?.indexLoad }
}
