import { type Stats, statSync } from "node:fs"
import { dirname, isAbsolute, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/** Root of the repository (this file is `apps/api/{src,dist}/config.*`). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

/** The seed of the default data set: fixed, so every first start builds the same trips. */
export const DATASET_SEED = 20_180_404

/** The SQLite store when `TRIPSEARCH_DB` is not set. */
export const DEFAULT_DB = resolve(REPO_ROOT, "data/tripsearch.db")

/** Trips of the default data set when `SEED_TRIPS` is not set. */
export const DEFAULT_SEED_TRIPS = 50_000

/** `MATCHER_MAX_WAIT_MS` when not set. */
export const DEFAULT_MATCHER_MAX_WAIT_MS = 500

/** `MATCHER_MAX_QUEUE` when not set. */
export const DEFAULT_MATCHER_MAX_QUEUE = 2048

/**
 * The server's configuration, from the environment: the only module reading `process.env` for it
 * (main.ts reads glibc's own variables, only to warn when the mmap threshold is left dynamic).
 */
export interface ApiConfig {
  /** `PORT`, default 3000 (0: an ephemeral port). */
  readonly port: number
  /** `HOST`, default 127.0.0.1 (set `0.0.0.0` to listen on every interface). */
  readonly host: string
  /**
   * `TRIPSEARCH_DB`: the store. A `postgres://` (or `postgresql://`) URL, kept as given, is a
   * PostgreSQL database; anything else the path of a SQLite file, made absolute, in a folder that
   * must exist; default `data/tripsearch.db` under the repository root (`data/` is made when missing).
   */
  readonly db: string
  /** The demo key of the default data set, next to the database: `demo-key.json`. */
  readonly demoKeyPath: string
  /** `PUBLIC_BASE_URL`, no trailing slash; default `http://localhost:${PORT}`. */
  readonly publicBaseUrl: string
  /** `WEBSITE_BASE_URL`, no trailing slash; default `PUBLIC_BASE_URL`: this server serves the website. */
  readonly websiteBaseUrl: string
  /** `QUERY_LOG`, absolute; default `data/query-log.ndjson`; empty or `off` disables it. */
  readonly queryLogPath: string | undefined
  /** `PRODUCTION_DAILY_LIMIT`: when set, the daily limit of every production-tier key. */
  readonly productionDailyLimit: number | undefined
  /** `SEED_TRIPS`, default 50,000: trips generated on the first start (no database yet). */
  readonly seedTrips: number
  /** `MATCHER_THREADS`, default 2: worker threads of the matching pool; 0 matches in the server's own thread. */
  readonly matcherThreads: number
  /**
   * `MATCHER_MAX_QUEUE`, default 2048: searches that may wait for a worker before 503
   * `service.overloaded`. With `MATCHER_MAX_WAIT_MS` the wait is bounded by time first; the count
   * only bounds memory (clients refused while their search could still be served in time come
   * straight back, and answering them takes the server's thread from the searches).
   */
  readonly matcherMaxQueue: number
  /**
   * `MATCHER_MAX_WAIT_MS`, default 500: the longest a search should wait for a worker; a search that
   * would wait longer is refused at once (503 `service.overloaded`), keys sharing the pool fairly.
   * A search admitted is run, never refused later.
   * `off`: bounded by `MATCHER_MAX_QUEUE` only.
   */
  readonly matcherMaxWaitMs: number | undefined
  /** `METRICS`, default `on`: Prometheus metrics at `GET /metrics`; `off` answers that path 404. */
  readonly metrics: boolean
  /** `CORS_ORIGINS`: `*` (the default, any page) or the comma-separated origins whose pages may read answers. */
  readonly corsOrigins: "*" | ReadonlyArray<string>
  /**
   * `INDEX_SNAPSHOT`, absolute; default the SQLite store's path plus `.index`; `off` keeps none. The
   * pool's index is loaded from it at start when it fits the store, and written after a full load
   * and at shutdown.
   */
  readonly indexSnapshotPath: string | undefined
  /**
   * A PostgreSQL store without `INDEX_SNAPSHOT`: the index starts from the snapshot kept in the
   * database for every replica (left there by the store tool after an import, or by the first
   * replica that had to scan).
   */
  readonly indexSnapshotShared: boolean
  /**
   * `DRAIN_MS`, default 0: after SIGTERM, how long the server goes on serving while `/health`
   * answers 503 `draining`, before it stops listening and finishes its requests: a load balancer
   * checking `/health` takes it out of rotation meanwhile (more than its checks' interval times
   * their fall count).
   */
  readonly drainMs: number
  /**
   * The mobile apps that open the website's links: `ANDROID_APP_ID` (a package name) with
   * `ANDROID_APP_CERT_SHA256` (its signing certificates' SHA-256 fingerprints, comma-separated),
   * and `IOS_APP_ID` (`TEAMID.bundle.id`). Unset: no app link tags, and the two
   * `/.well-known` files answer 404.
   */
  readonly appLinks: AppLinksConfig
  /**
   * `MAP_TILES_URL`: the website's map tiles, an `http(s)` URL template with `{z}`, `{x}` and `{y}`;
   * default OpenStreetMap's standard tiles (`https://tile.openstreetmap.org/{z}/{x}/{y}.png`); `off`:
   * no map, the pages draw the route as an SVG alone. `MAP_TILES_ATTRIBUTION`: the credit shown on
   * the map (HTML), default OpenStreetMap's.
   */
  readonly mapTiles: { readonly url: string; readonly attribution: string } | "off"
}

/** OpenStreetMap's standard tiles and the credit their licence asks for. */
export const DEFAULT_MAP_TILES = {
  url: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'
} as const

/** The apps the website's pages and `/.well-known` files name. */
export interface AppLinksConfig {
  readonly android?: { readonly packageName: string; readonly certFingerprints: ReadonlyArray<string> } | undefined
  readonly ios?: { readonly appId: string } | undefined
}

/** A configuration that cannot be used: the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: ReadonlyArray<string>) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`)
    this.name = "ConfigError"
  }
}

type Env = Readonly<Record<string, string | undefined>>

const trimmed = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

/**
 * Reads and validates the configuration. `env` defaults to `process.env`; relative paths are taken
 * from the repository root, so the server finds its data whatever the working directory.
 */
export const loadConfig = (env: Env = process.env): ApiConfig => {
  const problems: Array<string> = []

  const integer = (name: string, fallback: number | undefined, min: number, max: number): number | undefined => {
    const raw = trimmed(env, name)
    if (raw === undefined) return fallback
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
      return fallback
    }
    return Number(raw)
  }

  const baseUrl = (name: string, fallback: string): string => {
    const raw = trimmed(env, name)
    if (raw === undefined) return fallback
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      problems.push(`${name} must be an absolute http(s) URL, got "${raw}"`)
      return fallback
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      problems.push(`${name} must be an http or https URL, got "${raw}"`)
    } else if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") {
      problems.push(`${name} must be a base URL without query, fragment or credentials, got "${raw}"`)
    }
    return `${url.origin}${url.pathname}`.replace(/\/+$/, "")
  }

  const path = (raw: string): string => (isAbsolute(raw) ? raw : resolve(REPO_ROOT, raw))

  const port = integer("PORT", 3000, 0, 65_535) ?? 3000
  const host = trimmed(env, "HOST") ?? "127.0.0.1"
  if (/\s/.test(host)) problems.push(`HOST must be a host name or address, got "${host}"`)
  const dbRaw = trimmed(env, "TRIPSEARCH_DB") ?? "data/tripsearch.db"
  const postgres = /^postgres(ql)?:\/\//i.test(dbRaw)
  if (postgres) {
    try {
      if (new URL(dbRaw).hostname === "") throw new Error("no host")
    } catch {
      problems.push("TRIPSEARCH_DB must be a SQLite file path or a URL such as postgres://user@host:5432/database")
    }
  }
  const db = postgres ? dbRaw : path(dbRaw)
  // data/ is the server's own and ignored by git, so a fresh clone has none: the first start makes it.
  // A folder named in TRIPSEARCH_DB is the operator's: a typo there would otherwise grow a new tree
  // holding a freshly generated demo store, and the server would serve that instead of theirs.
  if (!postgres && db !== DEFAULT_DB) {
    const problem = folderProblem(dirname(db))
    if (problem !== undefined) problems.push(`TRIPSEARCH_DB "${dbRaw}" is in ${problem}`)
  }
  const publicBaseUrl = baseUrl("PUBLIC_BASE_URL", `http://localhost:${port}`)
  const websiteBaseUrl = baseUrl("WEBSITE_BASE_URL", publicBaseUrl)
  const queryLogRaw = env.QUERY_LOG === undefined ? "data/query-log.ndjson" : env.QUERY_LOG.trim()
  const queryLogPath = queryLogRaw === "" || queryLogRaw.toLowerCase() === "off" ? undefined : path(queryLogRaw)
  const productionDailyLimit = integer("PRODUCTION_DAILY_LIMIT", undefined, 1, Number.MAX_SAFE_INTEGER)
  const seedTrips = integer("SEED_TRIPS", DEFAULT_SEED_TRIPS, 1, 5_000_000) ?? DEFAULT_SEED_TRIPS
  const matcherThreads = integer("MATCHER_THREADS", 2, 0, 64) ?? 2
  const matcherMaxQueue = integer("MATCHER_MAX_QUEUE", DEFAULT_MATCHER_MAX_QUEUE, 1, 1_000_000) ?? DEFAULT_MATCHER_MAX_QUEUE
  const matcherMaxWaitMs =
    trimmed(env, "MATCHER_MAX_WAIT_MS")?.toLowerCase() === "off"
      ? undefined
      : integer("MATCHER_MAX_WAIT_MS", DEFAULT_MATCHER_MAX_WAIT_MS, 1, 60_000)
  const metricsRaw = trimmed(env, "METRICS")?.toLowerCase() ?? "on"
  if (metricsRaw !== "on" && metricsRaw !== "off") problems.push(`METRICS must be on or off, got "${env.METRICS?.trim()}"`)
  const corsOrigins = origins(trimmed(env, "CORS_ORIGINS"), problems)
  const snapshotRaw = trimmed(env, "INDEX_SNAPSHOT")
  const indexSnapshotPath =
    snapshotRaw?.toLowerCase() === "off" ? undefined : snapshotRaw !== undefined ? path(snapshotRaw) : postgres ? undefined : `${db}.index`
  const indexSnapshotShared = postgres && snapshotRaw === undefined
  const drainMs = integer("DRAIN_MS", 0, 0, 600_000) ?? 0

  const appLinks = appLinksOf(env, problems)
  const mapTiles = mapTilesOf(env, problems)

  if (problems.length > 0) throw new ConfigError(problems)
  return {
    port,
    host,
    db,
    demoKeyPath: resolve(postgres ? resolve(REPO_ROOT, "data") : dirname(db), "demo-key.json"),
    publicBaseUrl,
    websiteBaseUrl,
    queryLogPath,
    productionDailyLimit,
    seedTrips,
    matcherThreads,
    matcherMaxQueue,
    matcherMaxWaitMs,
    metrics: metricsRaw !== "off",
    corsOrigins,
    indexSnapshotPath,
    indexSnapshotShared,
    drainMs,
    appLinks,
    mapTiles
  }
}

/** Why the store's `folder` cannot hold it, or undefined when it may. */
const folderProblem = (folder: string): string | undefined => {
  let stats: Stats | undefined
  try {
    stats = statSync(folder, { throwIfNoEntry: false })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return `${folder}, which is not a folder: give a path in a folder`
    return undefined // a folder we may not look into: opening the store says so better than a guess here
  }
  if (stats === undefined) return `a folder that does not exist, ${folder}: create it (mkdir -p ${shellWord(folder)}) or give a path in an existing folder`
  return stats.isDirectory() ? undefined : `${folder}, which is not a folder: give a path in a folder`
}

/** `path` as one shell word, for a command to paste. */
const shellWord = (path: string): string => (/^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`)

/** `MAP_TILES_URL` and `MAP_TILES_ATTRIBUTION`. */
const mapTilesOf = (env: Env, problems: Array<string>): ApiConfig["mapTiles"] => {
  const url = trimmed(env, "MAP_TILES_URL")
  const attribution = trimmed(env, "MAP_TILES_ATTRIBUTION") ?? DEFAULT_MAP_TILES.attribution
  if (url === undefined) return { url: DEFAULT_MAP_TILES.url, attribution }
  if (url.toLowerCase() === "off") return "off"
  let parsed: URL | undefined
  try {
    parsed = new URL(url.replace(/\{[zxys]\}/g, "0"))
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:") || !["{z}", "{x}", "{y}"].every((p) => url.includes(p))) {
    problems.push(`MAP_TILES_URL must be an http(s) URL template with {z}, {x} and {y}, or off, got "${url}"`)
    return { url: DEFAULT_MAP_TILES.url, attribution }
  }
  return { url, attribution }
}

const ANDROID_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/
const SHA256_FINGERPRINT = /^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/
const IOS_APP_ID = /^[A-Z0-9]{10}\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/

/** `ANDROID_APP_ID` with `ANDROID_APP_CERT_SHA256`, and `IOS_APP_ID`; each platform optional. */
const appLinksOf = (env: Env, problems: Array<string>): AppLinksConfig => {
  const packageName = trimmed(env, "ANDROID_APP_ID")
  const certs = trimmed(env, "ANDROID_APP_CERT_SHA256")
  const appId = trimmed(env, "IOS_APP_ID")
  let android: AppLinksConfig["android"]
  if (packageName !== undefined || certs !== undefined) {
    const certFingerprints = (certs ?? "").split(",").map((c) => c.trim().toUpperCase()).filter((c) => c !== "")
    if (packageName === undefined || !ANDROID_PACKAGE.test(packageName)) {
      problems.push(`ANDROID_APP_ID must be an Android package name such as com.example.rides${packageName === undefined ? " (ANDROID_APP_CERT_SHA256 is set)" : `, got "${packageName}"`}`)
    } else if (certFingerprints.length === 0 || !certFingerprints.every((c) => SHA256_FINGERPRINT.test(c))) {
      // Android verifies a site's links against these: without them the file would open no app.
      problems.push(`ANDROID_APP_CERT_SHA256 must list the app's SHA-256 certificate fingerprints (32 hex bytes separated by colons), comma-separated, got "${certs ?? ""}"`)
    } else android = { packageName, certFingerprints }
  }
  if (appId !== undefined && !IOS_APP_ID.test(appId)) problems.push(`IOS_APP_ID must be TEAMID.bundle.id (a 10-character team id), got "${appId}"`)
  return {
    ...(android !== undefined ? { android } : {}),
    ...(appId !== undefined && IOS_APP_ID.test(appId) ? { ios: { appId } } : {})
  }
}

/**
 * `CORS_ORIGINS`: unset or `*` for any origin, else a comma-separated list of origins
 * (`scheme://host[:port]`), each written as browsers send it in `Origin` (lower-case host, no
 * default port, no path), since a listed origin is compared to that header byte for byte.
 */
const origins = (raw: string | undefined, problems: Array<string>): "*" | ReadonlyArray<string> => {
  if (raw === undefined || raw === "*") return "*"
  const list: Array<string> = []
  for (const part of raw.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    let url: URL | undefined
    try {
      url = new URL(part)
    } catch {
      url = undefined
    }
    if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== part.replace(/\/$/, "").toLowerCase()) {
      problems.push(`CORS_ORIGINS must be * or comma-separated origins such as https://app.example.com (no path), got "${part}"`)
    } else list.push(url.origin)
  }
  if (list.length === 0 && !raw.split(",").some((s) => s.trim() !== "")) problems.push(`CORS_ORIGINS lists no origin, got "${raw}"`)
  return list.length === 0 ? "*" : list
}
