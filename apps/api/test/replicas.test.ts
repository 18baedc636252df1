import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { feedLines } from "@tripsearch/dataset"
import { freePort } from "@tripsearch/store-tests/free-port"
import { type PostgresCluster, startPostgresCluster } from "@tripsearch/store-tests/postgres-cluster"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { timeUntil } from "./timeUntil.js"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const MAIN = new URL("../dist/main.js", import.meta.url).pathname
const STORE_CLI = new URL("../../../packages/store/dist/cli.js", import.meta.url).pathname
const run = promisify(execFile)


/** Polls `probe` every 10 ms until `done` accepts its value: the ms it took, Infinity after `ms`. */
interface Replica {
  readonly child: ChildProcess
  readonly base: string
  /** Everything the server printed. */
  output: string
}

/** `node apps/api/dist/main.js` on its own free port of 127.0.0.1, resolved once it says it listens. */
const startReplica = async (db: string): Promise<Replica> => {
  const port = await freePort()
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", TRIPSEARCH_DB: db, MATCHER_THREADS: "1", QUERY_LOG: "off" },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const replica: Replica = { child, base: `http://127.0.0.1:${port}`, output: "" }
  await new Promise<void>((resolve, reject) => {
    const watch = (chunk: Buffer) => {
      replica.output += chunk.toString()
      if (replica.output.includes("tripsearch API listening")) resolve()
    }
    child.stdout.on("data", watch)
    child.stderr.on("data", watch)
    child.once("exit", (code) => reject(new Error(`the server exited with ${code} before listening:\n${replica.output.slice(-2000)}`)))
  })
  return replica
}

/**
 * Two API server processes over one PostgreSQL database of a cluster this test owns (it is
 * stopped and started again under them): what one replica's clients do is seen by the other's.
 */
describe("two API replicas over one PostgreSQL", () => {
  const nowMs = Date.now()
  const dir = mkdtempSync(join(tmpdir(), "tripsearch-replicas-"))
  let cluster: PostgresCluster
  let a: Replica
  let b: Replica
  let key: string

  const cli = async (...args: Array<string>): Promise<string> => (await run(process.execPath, [STORE_CLI, ...args])).stdout
  const newKey = async (...options: Array<string>): Promise<{ id: string; key: string }> => {
    const out = await cli("keys", "create", "--db", cluster.url, "--name", "replicas", ...options)
    return { id: /^id:\s+(\S+)/m.exec(out)![1]!, key: /^key:\s+(\S+)/m.exec(out)![1]! }
  }
  let imports = 0
  const importLines = async (lines: ReadonlyArray<string>) => {
    const file = join(dir, `import-${++imports}.ndjson`)
    writeFileSync(file, `${lines.join("\n")}\n`)
    await cli("import", "--db", cluster.url, file)
  }

  const template = JSON.parse([...feedLines({ trips: 1, seed: "replicas-fresh", nowMs })][0]!) as Json
  const tripLine = (id: string): string =>
    JSON.stringify({ ...template, id, status: "active", departure_time: new Date(nowMs + 86_400_000).toISOString() })
  const first = template.waypoints[0]
  const last = template.waypoints[template.waypoints.length - 1]
  const search = (replica: Replica, withKey = key) =>
    fetch(`${replica.base}/api/v2/trips?locale=fr_FR&cur=EUR&fc=${first.lat}%7C${first.lon}&tc=${last.lat}%7C${last.lon}&radius=1&limit=100`, {
      headers: { key: withKey }
    })
  const finds = async (replica: Replica, id: string): Promise<boolean> => {
    const response = await search(replica)
    expect(response.status).toBe(200)
    return ((await response.json()) as { trips: Array<Json> }).trips.some((t) => t.permanent_id === id)
  }

  beforeAll(async () => {
    cluster = await startPostgresCluster()
    await importLines([...feedLines({ trips: 200, seed: "replicas", nowMs })])
    key = (await newKey()).key
    ;[a, b] = await Promise.all([startReplica(cluster.url), startReplica(cluster.url)])
  }, 60_000)

  afterAll(() => {
    for (const replica of [a, b]) replica?.child.kill("SIGKILL")
    cluster?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it("shares a key's daily quota: the limit is reached across both", async () => {
    const limited = await newKey("--tier", "production", "--daily-limit", "6")
    for (const replica of [a, b, a, b, a, b]) expect((await search(replica, limited.key)).status).toBe(200)
    // Each replica has served 3: it refuses the 7th only once it has read the other's counts.
    const refusedBy = async (replica: Replica) => (await search(replica, limited.key)).status === 429
    expect(await timeUntil(() => refusedBy(a), (refused) => refused, 5_000)).toBeLessThan(5_000)
    expect(await timeUntil(() => refusedBy(b), (refused) => refused, 5_000)).toBeLessThan(5_000)
    const refused = await search(b, limited.key)
    expect(refused.status).toBe(429)
    expect(refused.headers.get("x-ratelimit-remaining-day")).toBe("0")
  })

  it("finds a trip imported with the store CLI through both within 1 s", async () => {
    expect(await finds(a, "replicas-1")).toBe(false)
    await importLines([tripLine("replicas-1")])
    const [inA, inB] = await Promise.all([timeUntil(() => finds(a, "replicas-1"), Boolean), timeUntil(() => finds(b, "replicas-1"), Boolean)])
    expect(inA).toBeLessThan(1_000)
    expect(inB).toBeLessThan(1_000)
  })

  it("refuses a key revoked through the CLI on both within the key cache's 1 s", async () => {
    const soon = await newKey()
    for (const replica of [a, b]) expect((await search(replica, soon.key)).status).toBe(200)
    await cli("keys", "revoke", "--db", cluster.url, soon.id)
    const refused = (replica: Replica) => timeUntil(async () => (await search(replica, soon.key)).status, (status) => status === 403, 3_000)
    const [inA, inB] = await Promise.all([refused(a), refused(b)])
    // 1 s of cache, plus a lookup's round trip and this loop's step.
    expect(inA).toBeLessThan(1_200)
    expect(inB).toBeLessThan(1_200)
  })

  it("keeps answering searches while PostgreSQL is stopped and restarted, and follows changes again after", async () => {
    const statuses: Array<number> = []
    let searching = true
    const loop = (async () => {
      while (searching) {
        for (const replica of [a, b]) statuses.push((await search(replica)).status)
        await new Promise((r) => setTimeout(r, 20))
      }
    })()
    await new Promise((r) => setTimeout(r, 200))
    cluster.pause()
    const during = statuses.length
    await new Promise((r) => setTimeout(r, 2_000))
    const whileDown = statuses.length - during
    cluster.resume()
    await importLines([tripLine("replicas-2")])
    const [inA, inB] = await Promise.all([timeUntil(() => finds(a, "replicas-2"), Boolean), timeUntil(() => finds(b, "replicas-2"), Boolean)])
    searching = false
    await loop
    expect(whileDown).toBeGreaterThan(10)
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // The replicas poll the sequence every second while LISTEN reconnects.
    expect(inA).toBeLessThan(1_500)
    expect(inB).toBeLessThan(1_500)
  })

  it("keeps serving through one replica when the other is killed with SIGKILL", async () => {
    a.child.kill("SIGKILL")
    await new Promise((resolve) => a.child.once("exit", resolve))
    await expect(fetch(`${a.base}/health`)).rejects.toThrow()
    expect((await search(b)).status).toBe(200)
    await importLines([tripLine("replicas-3")])
    expect(await timeUntil(() => finds(b, "replicas-3"), Boolean)).toBeLessThan(1_000)
    expect((await fetch(`${b.base}/health`)).status).toBe(200)
  })
})
