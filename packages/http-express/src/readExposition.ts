/** One sample of a Prometheus text exposition. */
export interface Sample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface Exposition {
  /** `# TYPE` of each metric family. */
  readonly types: ReadonlyMap<string, string>
  readonly samples: ReadonlyArray<Sample>
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"/

const unescape = (text: string): string => text.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c))

// As Prometheus reads values (Go's ParseFloat): Inf and NaN in any case (prom-client writes `Nan`).
const number = (text: string): number => {
  const lower = text.toLowerCase()
  if (lower === "+inf" || lower === "inf") return Infinity
  if (lower === "-inf") return -Infinity
  if (lower === "nan") return NaN
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a number: ${text}`)
  return Number(text)
}

/**
 * Reads the Prometheus text format (0.0.4), as `GET /metrics` writes it, strictly enough for tests
 * and tools that check a scrape: every line is a comment
 * (`# HELP`, `# TYPE`), blank, or a sample `name{label="value",...} value [timestamp]`; anything
 * else throws, naming the line.
 */
export const readExposition = (text: string): Exposition => {
  const types = new Map<string, string>()
  const samples: Array<Sample> = []
  text.split("\n").forEach((line, k) => {
    const fail = (why: string): never => {
      throw new Error(`exposition line ${k + 1}: ${why}: ${line}`)
    }
    if (line === "") return
    if (line.startsWith("#")) {
      const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
      if (type !== null) types.set(type[1]!, type[2]!)
      else if (!/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* /.test(line)) fail("unknown comment")
      return
    }
    const name = NAME.exec(line)?.[0] ?? fail("no metric name")
    let rest = line.slice(name.length)
    const labels: Record<string, string> = {}
    if (rest.startsWith("{")) {
      rest = rest.slice(1)
      while (!rest.startsWith("}")) {
        const m = LABEL.exec(rest) ?? fail("bad label")
        labels[m[1]!] = unescape(m[2]!)
        rest = rest.slice(m[0].length)
        if (rest.startsWith(",")) rest = rest.slice(1)
        else if (!rest.startsWith("}")) fail("labels not closed")
      }
      rest = rest.slice(1)
    }
    const parts = rest.split(" ")
    if (parts[0] !== "" || parts.length < 2 || parts.length > 3) fail("bad value")
    samples.push({ name, labels, value: number(parts[1]!) })
  })
  return { types, samples }
}

const sameLabels = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k])
}

/** The value of the sample with exactly these labels, or undefined when there is none. */
export const sampleOf = (exposition: Exposition, name: string, labels: Readonly<Record<string, string>> = {}): number | undefined =>
  exposition.samples.find((s) => s.name === name && sameLabels(s.labels, labels))?.value

/** Every sample of a metric, keyed by its labels (`route=search,status=200`). */
export const seriesOf = (exposition: Exposition, name: string): Map<string, number> => {
  const series = new Map<string, number>()
  for (const s of exposition.samples) {
    if (s.name !== name) continue
    series.set(
      Object.entries(s.labels)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
      s.value
    )
  }
  return series
}
