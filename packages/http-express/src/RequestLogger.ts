import { write as writeFd } from "node:fs"

/** Where log lines go: a process stream, a file stream, or an in-memory array in tests. */
export interface LineSink {
  readonly write: (line: string) => unknown
}

/** One structured entry; `http-express` never puts a key or a query string in it. */
export type LogEntry = Readonly<Record<string, string | number | boolean | undefined>>

/** Structured logs of the HTTP adapter. */
export interface RequestLogger {
  readonly info: (entry: LogEntry) => void
  readonly error: (entry: LogEntry) => void
}

const line = (level: string, entry: LogEntry): string => JSON.stringify({ time: new Date().toISOString(), level, ...entry }) + "\n"

/** A logger writing one JSON object per line (`time`, `level`, then the entry's fields). */
export const jsonLineLogger = (sink: LineSink, errorSink: LineSink = sink): RequestLogger => ({
  info: (entry) => void sink.write(line("info", entry)),
  error: (entry) => void errorSink.write(line("error", entry))
})

/** Queued bytes past which a gathering `fdLines` writes without waiting longer. */
const GATHER_BYTES = 64 * 1024

/** A `LineSink` whose queued lines can be waited for. */
export interface DrainableSink extends LineSink {
  /** Resolves once every line written so far has been handed to the file descriptor. */
  readonly drain: () => Promise<void>
}

/**
 * Writes lines to a file descriptor (1: standard output) with asynchronous `fs.write`, in order,
 * one write in flight at a time; lines arriving meanwhile go out together in the next write. Node
 * writes to a piped stdout synchronously, so a log reader that falls behind (a full pipe) would
 * otherwise stall the event loop, and every request with it. Past `maxQueuedBytes` waiting, lines
 * are dropped and counted, and a line saying how many follows once the reader catches up. A write
 * error (the reader is gone) drops the lines: logging never stops the service.
 *
 * With `gatherMs`, a line that finds nothing being written waits up to that long for others
 * (`GATHER_BYTES` at most) before the write starts: each asynchronous write is a hop to libuv's
 * thread pool and back (two thread wake-ups): a write per request cost about 2.5 of the server's
 * 6.4 voluntary context switches per request (docs/PERFORMANCE.md). `drain` writes at once.
 */
export const fdLines = (fd: number, maxQueuedBytes = 16 * 1024 * 1024, gatherMs = 0): DrainableSink => {
  let queued: Array<string> = []
  let queuedBytes = 0
  let dropped = 0
  let writing = false
  let gathering: ReturnType<typeof setTimeout> | undefined
  const waiting: Array<() => void> = []
  const pump = (): void => {
    if (gathering !== undefined) {
      clearTimeout(gathering)
      gathering = undefined
    }
    if (writing) return
    if (dropped > 0 && queuedBytes < maxQueuedBytes / 2) {
      queued.push(`${JSON.stringify({ time: new Date().toISOString(), level: "error", event: "log_lines_dropped", count: dropped })}\n`)
      dropped = 0
    }
    if (queued.length === 0) {
      for (const resolve of waiting.splice(0)) resolve()
      return
    }
    const buffer = Buffer.from(queued.join(""))
    queued = []
    queuedBytes = 0
    writing = true
    const writeFrom = (offset: number): void => {
      writeFd(fd, buffer, offset, buffer.length - offset, null, (error, written) => {
        // A non-blocking pipe that is full: try again shortly.
        if (error?.code === "EAGAIN") {
          setTimeout(() => writeFrom(offset), 5)
          return
        }
        if (error === null && offset + written < buffer.length) {
          writeFrom(offset + written)
          return
        }
        writing = false
        pump()
      })
    }
    writeFrom(0)
  }
  return {
    write: (line) => {
      if (queuedBytes + line.length > maxQueuedBytes) dropped++
      else {
        queued.push(line)
        queuedBytes += line.length
      }
      if (gatherMs <= 0 || queuedBytes >= GATHER_BYTES) pump()
      // A write in flight takes the lines queued meanwhile when it ends.
      else if (!writing && gathering === undefined) gathering = setTimeout(pump, gatherMs)
    },
    drain: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve)
        pump()
      })
  }
}

/** A logger that drops everything (tests). */
export const silentLogger: RequestLogger = { info: () => {}, error: () => {} }

/**
 * Lines into a Node writable stream (the query log's file), written together: the first line
 * corks the stream and the lines of the next `gatherMs` go out in one write when it uncorks (each
 * write of a file stream is a hop to libuv's thread pool and back). Ending the stream writes what
 * is corked.
 */
export const gatheredLines = (stream: { cork(): void; uncork(): void; write(line: string): unknown }, gatherMs: number): LineSink => {
  let corked = false
  const uncork = () => {
    corked = false
    stream.uncork()
  }
  return {
    write: (line) => {
      if (!corked) {
        corked = true
        stream.cork()
        setTimeout(uncork, gatherMs)
      }
      return stream.write(line)
    }
  }
}
