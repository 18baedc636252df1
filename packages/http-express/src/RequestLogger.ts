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
 */
export const fdLines = (fd: number, maxQueuedBytes = 16 * 1024 * 1024): DrainableSink => {
  let queued: Array<string> = []
  let queuedBytes = 0
  let dropped = 0
  let writing = false
  const waiting: Array<() => void> = []
  const pump = (): void => {
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
      pump()
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
