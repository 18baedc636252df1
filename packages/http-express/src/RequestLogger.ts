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

/** A logger that drops everything (tests). */
export const silentLogger: RequestLogger = { info: () => {}, error: () => {} }
