import { realpathSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { displayDb, isPostgresUrl } from "@tripsearch/store"
import { type ApiConfig, ConfigError, loadConfig } from "./config.js"
import { createServer } from "./createServer.js"
import { type DemoKey, ensureDataset, renewNotice } from "./ensureDataset.js"

const say = (line: string): void => void process.stderr.write(`${line}\n`)

export const USAGE = `usage: tripsearch-api [--help]   (npm start)

Serves the trip search API. The first start generates a data set of SEED_TRIPS trips into the
store and creates a demo key; later starts reuse them. Ctrl-C (SIGINT) or SIGTERM stops it cleanly.
Everything else is configured by the environment:
  PORT                     listening port (default 3000)
  HOST                     listening address (default 127.0.0.1; 0.0.0.0 for every interface)
  TRIPSEARCH_DB            the store: a SQLite file, relative to the repository, in an existing folder
                           (default data/tripsearch.db, data/ made at the first start),
                           or a PostgreSQL database, postgres://user@host:port/database
  PUBLIC_BASE_URL          base of _self links (default http://localhost:$PORT)
  WEBSITE_BASE_URL         base of _front links (default PUBLIC_BASE_URL: this server's /search and /trip pages)
  QUERY_LOG                request log for the replay tool (default data/query-log.ndjson; off: none)
  PRODUCTION_DAILY_LIMIT   daily quota of production-tier keys (default: each key's own)
  SEED_TRIPS               trips generated on the first start (default 50000)
  MATCHER_THREADS          worker threads of the search pool (default 2; 0: the server's thread)
  MATCHER_MAX_QUEUE        searches waiting for a worker before a 503 (default 2048)
  MATCHER_MAX_WAIT_MS      longest wait for a worker before a search is refused 503 (default 500; off: none)
  METRICS                  Prometheus metrics at GET /metrics (default on; off: none)
  INDEX_SNAPSHOT           the index's snapshot, for a fast start (default the SQLite store's path + .index;
                           for PostgreSQL, the one kept in the database for every replica; off: none)
  DRAIN_MS                 after SIGTERM, how long to go on serving while /health answers 503, before
                           stopping: a load balancer's time to take the server out (default 0)
  CORS_ORIGINS             origins whose web pages may read answers, comma-separated (default *: any)
  ANDROID_APP_ID           Android app that opens the website's links (a package name; default none)
  ANDROID_APP_CERT_SHA256  that app's SHA-256 certificate fingerprints, comma-separated (needed with ANDROID_APP_ID)
  IOS_APP_ID               iOS app that opens the website's links, TEAMID.bundle.id (default none)
                           (none: no app link tags, /.well-known/assetlinks.json and
                           /.well-known/apple-app-site-association answer 404)
  MAP_TILES_URL            the website's map tiles, an http(s) URL template with {z}, {x} and {y}
                           (default OpenStreetMap's; off: no map, the route drawn as an SVG)
  MAP_TILES_ATTRIBUTION    the credit shown on the map, HTML (default OpenStreetMap's)`

/** The command line takes no arguments but `--help`: anything else is a mistake to report, not ignore. */
export const readCommandLine = (args: ReadonlyArray<string>): "help" | "run" => {
  const { values } = parseArgs({ args: [...args], strict: true, allowPositionals: false, options: { help: { type: "boolean", short: "h" } } })
  return values.help === true ? "help" : "run"
}

const progressPrinter = () => {
  const tty = process.stderr.isTTY === true
  let lastPercent = -1
  return (done: number, total: number) => {
    const percent = Math.min(100, Math.floor((done / total) * 100))
    if (percent === lastPercent) return
    lastPercent = percent
    const line = `  importing trips: ${Math.min(done, total).toLocaleString("en")} / ${total.toLocaleString("en")} (${percent}%)`
    if (tty) process.stderr.write(`\r${line}${percent === 100 ? "\n" : ""}`)
    else if (percent % 10 === 0) say(line)
  }
}

const banner = (config: ApiConfig, address: AddressInfo, demoKey: DemoKey | undefined): string => {
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  const lines = [
    `tripsearch API listening on http://${host}:${address.port} (public base URL ${config.publicBaseUrl}, store ${displayDb(config.db)})`
  ]
  if (demoKey !== undefined) {
    lines.push(
      `demo API key (basic tier, from ${config.demoKeyPath}): ${demoKey.key}`,
      "try:",
      `  curl '${config.publicBaseUrl}/api/v2/trips?locale=fr_FR&cur=EUR&fn=Paris&tn=Lyon' -H 'key: ${demoKey.key}'`
    )
  } else {
    // A PostgreSQL URL is shown with its password masked: the command names the variable the
    // server was started with, so that it can be pasted as it is.
    lines.push(
      isPostgresUrl(config.db) ? "API keys are in the database; to create one:" : `no demo key file at ${config.demoKeyPath}; create a key with:`,
      `  npm run store -- keys create --db ${isPostgresUrl(config.db) ? '"$TRIPSEARCH_DB"' : displayDb(config.db)} --name me`
    )
  }
  return lines.join("\n")
}

/** Starts the API: first-start data set, runtime, listen, graceful shutdown on SIGINT/SIGTERM. */
export const main = async (): Promise<void> => {
  let config: ApiConfig
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      say(error.message)
      process.exit(1)
    }
    throw error
  }

  const startedAt = Date.now()
  // A PostgreSQL store is the operators' own: its trips come from their imports, never a generated set.
  let renewing = false
  const firstStart = isPostgresUrl(config.db) ? { created: false, demoKey: undefined } : await ensureDataset({
    dbPath: config.db, // a SQLite file here: PostgreSQL stores are left out above
    demoKeyPath: config.demoKeyPath,
    trips: config.seedTrips,
    nowMs: startedAt,
    onRenew: (reason) => {
      renewing = true
      say(renewNotice(reason, config.seedTrips, config.db))
    },
    onProgress: (() => {
      let announced = false
      const print = progressPrinter()
      return (done: number, total: number) => {
        if (!announced && !renewing) say(`first start: generating ${total.toLocaleString("en")} trips into ${config.db}`)
        announced = true
        print(done, total)
      }
    })()
  })
  if (firstStart.created) say(`data set ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`)

  // Listening at once: a load balancer sees /health answer 503 until the index is loaded, rather
  // than a refused connection it cannot tell from a dead server.
  const api = await createServer({
    config,
    listenFirst: {
      port: config.port,
      host: config.host,
      onListening: (a) => say(`accepting connections on port ${a.port} while the index loads (/health answers 503 until then)`)
    }
  })
  const load = api.indexLoad
  if (load !== undefined) {
    const how =
      load.from === "snapshot"
        ? `from its snapshot in ${load.where ?? config.indexSnapshotPath} and ${load.changes} later change(s)`
        : `from the store${load.reason !== undefined ? ` (not from a snapshot in ${load.where}: ${load.reason})` : ""}`
    say(`index loaded ${how} in ${(load.ms / 1000).toFixed(1)} s`)
    if (load.from === "store" && glibcThresholdDynamic()) {
      say("note: MALLOC_MMAP_THRESHOLD_ is unset, so glibc keeps what the scan freed: about 160 MB more at 1M trips than with 131072, as npm start sets it (README, Configuration)")
    }
  }
  const address = api.address!
  say(banner(config, address, firstStart.demoKey))

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`${signal} again: exiting now`)
      process.exit(1)
    }
    stopping = true
    const drained =
      config.drainMs > 0
        ? (say(`${signal}: draining for ${config.drainMs} ms (/health answers 503), then stopping`), api.drain(config.drainMs))
        : Promise.resolve()
    drained.then(() => {
      say(`${signal}: no new connections; finishing in-flight requests`)
      return api.close()
    }).then(
      () => {
        say("stopped")
        process.exit(0)
      },
      (error: unknown) => {
        say(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`)
        process.exit(1)
      }
    )
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

const isEntryPoint = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
})()

const commandLine = (): "help" | "run" | "bad" => {
  try {
    return readCommandLine(process.argv.slice(2))
  } catch (error) {
    say(`tripsearch-api: ${error instanceof Error ? error.message : String(error)}\n(--help for the usage; the server is configured by environment variables)`)
    return "bad"
  }
}

if (isEntryPoint) {
  const command = commandLine()
  if (command === "help") process.stdout.write(`${USAGE}\n`)
  else if (command === "bad") process.exitCode = 2
  else main().catch((error: unknown) => {
    // The store not answering is the operator's to fix, not a bug of ours: no stack.
    // (A defect raised while the runtime is built comes wrapped: "(FiberFailure) StoreUnavailable".)
    if (error instanceof Error && /\bStoreUnavailable$/.test(error.name)) {
      say(`tripsearch API failed to start: ${error.message}\n(the server does not wait for its store: start it again once the database answers)`)
    } else say(`tripsearch API failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exit(1)
  })
}

/** Whether glibc's malloc runs here with its mmap threshold left to grow (neither its variable nor its tunable set). */
function glibcThresholdDynamic(): boolean {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
  if (header?.glibcVersionRuntime === undefined) return false
  return process.env.MALLOC_MMAP_THRESHOLD_ === undefined && !(process.env.GLIBC_TUNABLES ?? "").includes("mmap_threshold")
}
