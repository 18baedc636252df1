import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigError, DEFAULT_MAP_TILES, loadConfig, REPO_ROOT } from "../src/config.js"

// An existing folder for the store paths that must be accepted.
const TMP = tmpdir()

describe("loadConfig", () => {
  it("has defaults for every variable, paths under the repository root", () => {
    const config = loadConfig({})
    expect(config).toEqual({
      port: 3000,
      host: "127.0.0.1",
      db: resolve(REPO_ROOT, "data/tripsearch.db"),
      demoKeyPath: resolve(REPO_ROOT, "data/demo-key.json"),
      publicBaseUrl: "http://localhost:3000",
      websiteBaseUrl: "http://localhost:3000",
      queryLogPath: resolve(REPO_ROOT, "data/query-log.ndjson"),
      productionDailyLimit: undefined,
      seedTrips: 50_000,
      matcherThreads: 2,
      matcherMaxQueue: 2048,
      matcherMaxWaitMs: 500,
      metrics: true,
      corsOrigins: "*",
      indexSnapshotPath: resolve(REPO_ROOT, "data/tripsearch.db.index"),
      indexSnapshotShared: false,
      drainMs: 0,
      appLinks: {},
      mapTiles: DEFAULT_MAP_TILES
    })
    expect(resolve(REPO_ROOT, "apps/api/src/config.ts")).toBe(resolve(import.meta.dirname, "../src/config.ts"))
  })

  it("reads every variable", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      TRIPSEARCH_DB: join(TMP, "trips.db"),
      PUBLIC_BASE_URL: "https://api.example.com/base/",
      WEBSITE_BASE_URL: "https://www.example.com",
      QUERY_LOG: "logs/q.ndjson",
      PRODUCTION_DAILY_LIMIT: "250000",
      SEED_TRIPS: "1000",
      MATCHER_THREADS: "0",
      MATCHER_MAX_QUEUE: "16",
      MATCHER_MAX_WAIT_MS: "250",
      METRICS: "off",
      INDEX_SNAPSHOT: "snapshots/trips.index",
      DRAIN_MS: "3000",
      ANDROID_APP_ID: "com.example.rides",
      ANDROID_APP_CERT_SHA256: ` ${"ab:".repeat(31)}CD , ${"01:".repeat(31)}02`,
      IOS_APP_ID: "ABCDE12345.com.example.rides"
    })
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      db: join(TMP, "trips.db"),
      demoKeyPath: join(TMP, "demo-key.json"),
      publicBaseUrl: "https://api.example.com/base",
      websiteBaseUrl: "https://www.example.com",
      queryLogPath: resolve(REPO_ROOT, "logs/q.ndjson"),
      productionDailyLimit: 250_000,
      seedTrips: 1000,
      matcherThreads: 0,
      matcherMaxQueue: 16,
      matcherMaxWaitMs: 250,
      metrics: false,
      indexSnapshotPath: resolve(REPO_ROOT, "snapshots/trips.index"),
      indexSnapshotShared: false,
      drainMs: 3000,
      appLinks: {
        android: { packageName: "com.example.rides", certFingerprints: [`${"AB:".repeat(31)}CD`, `${"01:".repeat(31)}02`] },
        ios: { appId: "ABCDE12345.com.example.rides" }
      }
    })
    expect(loadConfig({ PORT: "4000" }).publicBaseUrl).toBe("http://localhost:4000")
    // The snapshot follows the store unless named; off keeps none.
    expect(loadConfig({ TRIPSEARCH_DB: join(TMP, "trips.db") }).indexSnapshotPath).toBe(join(TMP, "trips.db.index"))
    expect(loadConfig({ INDEX_SNAPSHOT: " OFF " }).indexSnapshotPath).toBeUndefined()
    // A PostgreSQL URL is kept as given; its snapshot is the database's unless a file is named, or off.
    const postgres = loadConfig({ TRIPSEARCH_DB: " postgres://api:secret@db.internal:5432/trips " })
    expect(postgres).toMatchObject({ db: "postgres://api:secret@db.internal:5432/trips", indexSnapshotPath: undefined, indexSnapshotShared: true })
    expect(loadConfig({ TRIPSEARCH_DB: "postgresql://db/trips", INDEX_SNAPSHOT: "/var/lib/trips.index" })).toMatchObject({ indexSnapshotPath: "/var/lib/trips.index", indexSnapshotShared: false })
    expect(loadConfig({ TRIPSEARCH_DB: "postgresql://db/trips", INDEX_SNAPSHOT: "off" })).toMatchObject({ indexSnapshotPath: undefined, indexSnapshotShared: false })
    expect(() => loadConfig({ DRAIN_MS: "soon" })).toThrow(/DRAIN_MS must be an integer from 0 to 600000/)
    expect(() => loadConfig({ TRIPSEARCH_DB: "postgres://" })).toThrow(/TRIPSEARCH_DB must be a SQLite file path or a URL such as postgres:\/\/user@host:5432\/database/)
    // off: the wait for a worker is bounded by MATCHER_MAX_QUEUE only.
    expect(loadConfig({ MATCHER_MAX_WAIT_MS: "off" }).matcherMaxWaitMs).toBeUndefined()
    expect(() => loadConfig({ MATCHER_MAX_WAIT_MS: "0" })).toThrow(/MATCHER_MAX_WAIT_MS must be an integer from 1 to 60000/)
  })

  it("refuses a SQLite store in a folder that does not exist, naming it and how to make it, but not the default's data/", () => {
    const dir = mkdtempSync(join(tmpdir(), "tripsearch-config-"))
    try {
      const missing = join(dir, "no such", "folder")
      let error: unknown
      try {
        loadConfig({ TRIPSEARCH_DB: join(missing, "trips.db") })
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(ConfigError)
      expect((error as ConfigError).problems).toEqual([
        `TRIPSEARCH_DB "${join(missing, "trips.db")}" is in a folder that does not exist, ${missing}: create it (mkdir -p '${missing}') or give a path in an existing folder`
      ])
      // Relative paths are taken from the repository root, and so is the folder named.
      expect(() => loadConfig({ TRIPSEARCH_DB: "no-such-folder/trips.db" })).toThrow(`a folder that does not exist, ${resolve(REPO_ROOT, "no-such-folder")}: create it (mkdir -p ${resolve(REPO_ROOT, "no-such-folder")})`)
      writeFileSync(join(dir, "file"), "")
      expect(() => loadConfig({ TRIPSEARCH_DB: join(dir, "file", "trips.db") })).toThrow(`is in ${join(dir, "file")}, which is not a folder`)
      expect(() => loadConfig({ TRIPSEARCH_DB: join(dir, "file", "sub", "trips.db") })).toThrow(/which is not a folder/)
      // The store's file need not exist (the first start makes it); its folder must.
      expect(loadConfig({ TRIPSEARCH_DB: join(dir, "trips.db") }).db).toBe(join(dir, "trips.db"))
      // data/ is not in the repository: a fresh clone's first start makes it, named or by default.
      expect(loadConfig({ TRIPSEARCH_DB: "data/tripsearch.db" }).db).toBe(resolve(REPO_ROOT, "data/tripsearch.db"))
      expect(loadConfig({}).db).toBe(resolve(REPO_ROOT, "data/tripsearch.db"))
      // A PostgreSQL URL names no folder.
      expect(loadConfig({ TRIPSEARCH_DB: "postgres://db.internal/trips" }).db).toBe("postgres://db.internal/trips")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("reads the apps of the deep links: each platform alone, and refuses an Android app without its certificates", () => {
    expect(loadConfig({ IOS_APP_ID: "ABCDE12345.com.example.rides" }).appLinks).toEqual({ ios: { appId: "ABCDE12345.com.example.rides" } })
    const cert = `${"0A:".repeat(31)}0B`
    expect(loadConfig({ ANDROID_APP_ID: "com.example.rides", ANDROID_APP_CERT_SHA256: cert }).appLinks).toEqual({
      android: { packageName: "com.example.rides", certFingerprints: [cert] }
    })
    expect(() => loadConfig({ ANDROID_APP_ID: "com.example.rides" })).toThrow(/ANDROID_APP_CERT_SHA256 must list the app's SHA-256 certificate fingerprints/)
    expect(() => loadConfig({ ANDROID_APP_CERT_SHA256: cert })).toThrow(/ANDROID_APP_ID must be an Android package name such as com.example.rides \(ANDROID_APP_CERT_SHA256 is set\)/)
    expect(() => loadConfig({ ANDROID_APP_ID: "rides", ANDROID_APP_CERT_SHA256: cert })).toThrow(/ANDROID_APP_ID must be an Android package name/)
    expect(() => loadConfig({ ANDROID_APP_ID: "com.example.rides", ANDROID_APP_CERT_SHA256: "AB:CD" })).toThrow(/ANDROID_APP_CERT_SHA256/)
    expect(() => loadConfig({ IOS_APP_ID: "com.example.rides" })).toThrow(/IOS_APP_ID must be TEAMID.bundle.id/)
  })

  it("reads CORS_ORIGINS: * or a comma-separated list of origins, as browsers write them", () => {
    expect(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins).toBe("*")
    expect(loadConfig({ CORS_ORIGINS: " https://app.example.com, http://LOCALHOST:8080/ ,," }).corsOrigins).toEqual([
      "https://app.example.com",
      "http://localhost:8080"
    ])
    for (const bad of ["https://app.example.com/path", "app.example.com", "ftp://x.example", "https://x.example:443", ",", "https://a.example, *"]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/)
    }
  })

  it("reads MAP_TILES_URL: a URL template with {z}, {x} and {y}, off, or OpenStreetMap's by default", () => {
    expect(DEFAULT_MAP_TILES.url).toBe("https://tile.openstreetmap.org/{z}/{x}/{y}.png")
    expect(loadConfig({ MAP_TILES_URL: "http://127.0.0.1:9/t/{z}/{x}/{y}.png", MAP_TILES_ATTRIBUTION: "Local" }).mapTiles).toEqual({
      url: "http://127.0.0.1:9/t/{z}/{x}/{y}.png",
      attribution: "Local"
    })
    expect(loadConfig({ MAP_TILES_URL: "OFF" }).mapTiles).toBe("off")
    expect(() => loadConfig({ MAP_TILES_URL: "https://tiles.example.com/{z}/{x}.png" })).toThrow(/MAP_TILES_URL must be an http\(s\) URL template/)
    expect(() => loadConfig({ MAP_TILES_URL: "ftp://tiles.example.com/{z}/{x}/{y}.png" })).toThrow(/MAP_TILES_URL/)
  })

  it("turns the query log off with an empty value or off", () => {
    expect(loadConfig({ QUERY_LOG: "" }).queryLogPath).toBeUndefined()
    expect(loadConfig({ QUERY_LOG: "off" }).queryLogPath).toBeUndefined()
  })

  it("turns metrics off with off in any case, and on with on", () => {
    expect(loadConfig({ METRICS: " OFF " }).metrics).toBe(false)
    expect(loadConfig({ METRICS: "on" }).metrics).toBe(true)
    expect(loadConfig({ METRICS: "" }).metrics).toBe(true)
    expect(() => loadConfig({ METRICS: "false" })).toThrow(/METRICS must be on or off, got "false"/)
  })

  it("fails with one clear message listing every problem", () => {
    let error: unknown
    try {
      loadConfig({ PORT: "http", PUBLIC_BASE_URL: "ftp://x", WEBSITE_BASE_URL: "not a url", SEED_TRIPS: "-5", PRODUCTION_DAILY_LIMIT: "1.5" })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    const { problems, message } = error as ConfigError
    expect(problems).toHaveLength(5)
    for (const name of ["PORT", "PUBLIC_BASE_URL", "WEBSITE_BASE_URL", "SEED_TRIPS", "PRODUCTION_DAILY_LIMIT"]) expect(message).toContain(name)
    expect(() => loadConfig({ PORT: "70000" })).toThrow(/PORT must be an integer from 0 to 65535/)
    expect(() => loadConfig({ PUBLIC_BASE_URL: "https://api.example.com/?x=1" })).toThrow(/PUBLIC_BASE_URL/)
  })
})
