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

/** A `LineSink` that can be told to write out what it holds. */
export interface FlushableSink extends LineSink {
  readonly flush: () => void
}

/**
 * Gathers lines and hands them to `sink` in one write per turn of the event loop (or as soon as
 * `maxBytes` wait): under load, one system call for many requests instead of one each (the
 * per-request writes to a piped stdout were about 15% of the server thread's profile). A line
 * waits at most one turn; `flush` writes what waits now (on shutdown).
 */
export const batchedLines = (sink: LineSink, maxBytes = 64 * 1024): FlushableSink => {
  let pending: Array<string> = []
  let bytes = 0
  let scheduled = false
  const flush = (): void => {
    if (pending.length === 0) return
    const text = pending.join("")
    pending = []
    bytes = 0
    sink.write(text)
  }
  return {
    write: (line) => {
      pending.push(line)
      bytes += line.length
      if (bytes >= maxBytes) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(() => {
          scheduled = false
          flush()
        })
      }
    },
    flush
  }
}

/** A logger that drops everything (tests). */
export const silentLogger: RequestLogger = { info: () => {}, error: () => {} }
