import { execFileSync, spawn } from "node:child_process"
import { closeSync, createWriteStream, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { fdLines, gatheredLines, jsonLineLogger } from "../src/index.js"

describe("fdLines", () => {
  it("writes every line in order to the file descriptor, and drains", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fd-lines-"))
    const path = join(dir, "log.ndjson")
    const fd = openSync(path, "w")
    try {
      const sink = fdLines(fd)
      const lines = Array.from({ length: 5_000 }, (_, k) => `{"n":${k}}\n`)
      for (const line of lines) sink.write(line)
      await sink.drain()
      expect(readFileSync(path, "utf8")).toBe(lines.join(""))
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("carries a JSON-lines logger's entries whole", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fd-lines-"))
    const path = join(dir, "log.ndjson")
    const fd = openSync(path, "w")
    try {
      const sink = fdLines(fd)
      const logger = jsonLineLogger(sink)
      logger.info({ event: "request", status: 200 })
      logger.info({ event: "request", status: 404 })
      await sink.drain()
      const lines = readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(lines.map((l) => l.status)).toEqual([200, 404])
      expect(lines.every((l) => l.level === "info" && typeof l.time === "string")).toBe(true)
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("keeps the event loop free while the reader of a blocking pipe is stalled, then delivers everything", async () => {
    // A FIFO opened for writing without O_NONBLOCK, as an inherited stdout usually is: a
    // synchronous writer would block once its 64 KiB buffer is full, until the reader reads.
    const dir = mkdtempSync(join(tmpdir(), "fd-lines-"))
    const fifo = join(dir, "fifo")
    const out = join(dir, "out.txt")
    execFileSync("mkfifo", [fifo])
    const reader = `const fs = require("fs"); const fd = fs.openSync(${JSON.stringify(fifo)}, "r");` +
      `setTimeout(() => fs.createReadStream(null, { fd }).pipe(fs.createWriteStream(${JSON.stringify(out)})), 600)`
    const child = spawn(process.execPath, ["-e", reader], { stdio: "ignore" })
    const fd = openSync(fifo, "w")
    try {
      const sink = fdLines(fd)
      const line = `${"x".repeat(199)}\n`
      const t0 = performance.now()
      for (let k = 0; k < 5_000; k++) sink.write(line)
      // Far more than the pipe holds is waiting, and the loop still turns at once.
      await new Promise((resolve) => setImmediate(resolve))
      expect(performance.now() - t0).toBeLessThan(300)
      await sink.drain()
      closeSync(fd)
      await new Promise((resolve) => child.on("exit", resolve))
      expect(readFileSync(out, "utf8")).toBe(line.repeat(5_000))
    } finally {
      child.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("drops lines past its queue limit and says how many once the reader catches up", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fd-lines-"))
    const path = join(dir, "log.ndjson")
    const fd = openSync(path, "w")
    try {
      const sink = fdLines(fd, 1_000)
      // The first line goes out at once; the rest queue behind it, up to 1,000 bytes.
      for (let k = 0; k < 30; k++) sink.write(`${String(k).padStart(99, "0")}\n`)
      await sink.drain()
      const lines = readFileSync(path, "utf8").trim().split("\n")
      const kept = lines.filter((l) => !l.startsWith("{"))
      const notice = lines.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { event: string; count: number })
      expect(kept.length).toBeLessThan(30)
      expect(notice).toEqual([expect.objectContaining({ event: "log_lines_dropped", count: 30 - kept.length })])
      expect(kept).toEqual([...kept].sort())
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("with gatherMs, writes a line with those of the next milliseconds, in one write, and drains at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "fd-lines-"))
    const path = join(dir, "log.ndjson")
    const fd = openSync(path, "w")
    try {
      const sink = fdLines(fd, undefined, 200)
      sink.write("a\n")
      await new Promise((r) => setTimeout(r, 50))
      sink.write("b\n")
      // Nothing is written before the first line has waited its 200 ms...
      await new Promise((r) => setTimeout(r, 50))
      expect(readFileSync(path, "utf8")).toBe("")
      // ...then both lines together.
      await new Promise((r) => setTimeout(r, 250))
      expect(readFileSync(path, "utf8")).toBe("a\nb\n")
      sink.write("c\n")
      await sink.drain()
      expect(readFileSync(path, "utf8")).toBe("a\nb\nc\n")
      // 64 KiB waiting go out without waiting longer.
      const big = `${"x".repeat(1023)}\n`
      for (let k = 0; k < 64; k++) sink.write(big)
      await new Promise((r) => setTimeout(r, 50))
      expect(readFileSync(path, "utf8").length).toBe(6 + 64 * 1024)
    } finally {
      closeSync(fd)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("gatheredLines", () => {
  it("writes the lines of a few milliseconds together into a file stream, all of them by its end", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gathered-"))
    const path = join(dir, "query-log.ndjson")
    const stream = createWriteStream(path, { flags: "a" })
    const writes: Array<number> = []
    const write = stream._write.bind(stream)
    const writev = stream._writev?.bind(stream)
    stream._write = (chunk, encoding, callback) => (writes.push(1), write(chunk, encoding, callback))
    if (writev !== undefined) stream._writev = (chunks, callback) => (writes.push(chunks.length), writev(chunks, callback))
    try {
      const sink = gatheredLines(stream, 100)
      for (let k = 0; k < 50; k++) sink.write(`{"n":${k}}\n`)
      await new Promise((r) => setTimeout(r, 30))
      expect(writes).toEqual([])
      await new Promise((r) => setTimeout(r, 150))
      // One write of the 50 lines.
      expect(writes).toEqual([50])
      sink.write("last\n")
      await new Promise<void>((resolve) => stream.end(() => resolve()))
      const lines = readFileSync(path, "utf8").trim().split("\n")
      expect(lines).toEqual([...Array.from({ length: 50 }, (_, k) => `{"n":${k}}`), "last"])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
