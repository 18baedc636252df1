import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client"
import type { ResponseFormat } from "./negotiateFormat.js"
import type { ReadRequest } from "./readApiRequest.js"

/** The route label of a request: the two API resources the service is measured on, and the rest. */
export type MetricsRoute = "search" | "details" | "other"

/** The worker pool at scrape time. */
export interface PoolState {
  /** Tasks waiting for a worker. */
  readonly queueDepth: number
  /** Workers running a task. */
  readonly busyWorkers: number
  /** Live workers. */
  readonly workers: number
}

/** Searches refused or never started so far, by reason (as the pool counts them). */
export interface Refusals {
  /** Refused because they would wait (or had waited) for a worker longer than the time bound. */
  readonly queueTime: number
  /** Refused because the queue already held its count of searches. */
  readonly queueCount: number
  /** Never started because their client had gone while they waited. */
  readonly clientGone: number
}

/** One in-memory trip index, as its holder last reported it. */
export interface IndexState {
  /** Who writes it: `main` for the server's own thread (the pool's workers share its index). */
  readonly holder: string
  /** Active trips in the index. */
  readonly trips: number
  /** The store's change sequence the index has applied. */
  readonly appliedSeq: number
}

/**
 * What the app cannot see itself, read at each scrape: the server wires these (the pool, the
 * indexes, the store), so that neither the core nor this package depends on them.
 */
export interface MetricsSources {
  readonly pool?: (() => PoolState) | undefined
  /** The pool's refusals so far: read at each scrape, reported as a counter. */
  readonly refusals?: (() => Refusals) | undefined
  readonly indexes?: (() => ReadonlyArray<IndexState>) | undefined
  /** The store's latest change sequence. */
  readonly storeSeq?: (() => Promise<number>) | undefined
}

export interface ApiMetricsOptions {
  readonly sources?: MetricsSources | undefined
  /** Node's process metrics (`collectDefaultMetrics`); default true. */
  readonly processMetrics?: boolean | undefined
}

/** Latency buckets, in seconds: a search answers in milliseconds, an overloaded one in seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** The route label of a request as `readApiRequest` read it (before it was read: `other`). */
export const metricsRouteOf = (read: ReadRequest | undefined): MetricsRoute => {
  if (read?._tag !== "UseCase") return "other"
  return read.route._tag === "Search" ? "search" : read.route._tag === "Details" ? "details" : "other"
}

/** The format label of a request: the one its answer was written in. */
export const metricsFormatOf = (read: ReadRequest | undefined): ResponseFormat =>
  read === undefined || !("format" in read) ? "json" : read.format

/**
 * The service's Prometheus metrics, in a registry of their own (not prom-client's global one), so
 * that a process may hold several apps, each counting its own requests. Gauges of the pool, the
 * indexes and the store are read from the `sources` when scraped.
 */
export class ApiMetrics {
  readonly registry: Registry
  private readonly requests: Counter<"route" | "status" | "format">
  private readonly latency: Histogram<"route">
  private readonly quotaRejections: Counter<"route">

  constructor(options: ApiMetricsOptions = {}) {
    const registry = new Registry()
    this.registry = registry
    const sources = options.sources ?? {}
    this.requests = new Counter({
      name: "tripsearch_http_requests_total",
      help: "HTTP requests answered, by route (search, details, other), status and response format (json, xml)",
      labelNames: ["route", "status", "format"],
      registers: [registry]
    })
    this.latency = new Histogram({
      name: "tripsearch_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route",
      labelNames: ["route"],
      buckets: LATENCY_BUCKETS,
      registers: [registry]
    })
    this.quotaRejections = new Counter({
      name: "tripsearch_quota_rejections_total",
      help: "Requests refused with 429 because their key's daily quota was spent",
      labelNames: ["route"],
      registers: [registry]
    })
    // Present at 0 from the start, so that a rate over them is defined before the first refusal.
    for (const route of ["search", "details", "other"] as const) this.quotaRejections.inc({ route }, 0)

    const pool = sources.pool
    if (pool !== undefined) {
      new Gauge({
        name: "tripsearch_pool_queue_depth",
        help: "Searches waiting for a worker of the search pool",
        registers: [registry],
        collect() {
          this.set(pool().queueDepth)
        }
      })
      new Gauge({
        name: "tripsearch_pool_busy_workers",
        help: "Workers of the search pool running a task",
        registers: [registry],
        collect() {
          this.set(pool().busyWorkers)
        }
      })
      new Gauge({
        name: "tripsearch_pool_workers",
        help: "Live workers of the search pool",
        registers: [registry],
        collect() {
          this.set(pool().workers)
        }
      })
    }

    const refusals = sources.refusals
    if (refusals !== undefined) {
      new Counter({
        name: "tripsearch_search_refusals_total",
        help: "Searches the pool refused (503) or never started, by reason (queue_time, queue_count, client_gone)",
        labelNames: ["reason"],
        registers: [registry],
        collect() {
          // The pool keeps the totals: the counter is set to them (a counter's only setter is inc).
          const now = refusals()
          this.reset()
          this.inc({ reason: "queue_time" }, now.queueTime)
          this.inc({ reason: "queue_count" }, now.queueCount)
          this.inc({ reason: "client_gone" }, now.clientGone)
        }
      })
    }

    const indexes = sources.indexes
    if (indexes !== undefined) {
      new Gauge({
        name: "tripsearch_index_trips",
        help: "Active trips in each in-memory index, by holder (main: the index the server's worker pool shares)",
        labelNames: ["holder"],
        registers: [registry],
        collect() {
          // A holder gone since the last scrape (a replaced worker) must not linger.
          this.reset()
          for (const index of indexes()) this.set({ holder: index.holder }, index.trips)
        }
      })
      new Gauge({
        name: "tripsearch_index_applied_seq",
        help: "The store change sequence each in-memory index has applied, by holder",
        labelNames: ["holder"],
        registers: [registry],
        collect() {
          this.reset()
          for (const index of indexes()) this.set({ holder: index.holder }, index.appliedSeq)
        }
      })
    }

    const storeSeq = sources.storeSeq
    if (storeSeq !== undefined) {
      new Gauge({
        name: "tripsearch_store_change_seq",
        help: "The store's latest change sequence number",
        registers: [registry],
        async collect() {
          this.set(await storeSeq())
        }
      })
      if (indexes !== undefined) {
        new Gauge({
          name: "tripsearch_index_lag_changes",
          help: "Store change sequence numbers not yet applied by each in-memory index (0: up to date), by holder",
          labelNames: ["holder"],
          registers: [registry],
          async collect() {
            // The store is read before the indexes: a refresh in between can only lower the lag.
            const latest = await storeSeq()
            this.reset()
            for (const index of indexes()) this.set({ holder: index.holder }, Math.max(0, latest - index.appliedSeq))
          }
        })
      }
    }

    if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry })
  }

  /** Counts one answered request; a client that left before its answer counts as status `aborted`. */
  observeRequest(route: MetricsRoute, status: number | "aborted", format: ResponseFormat, seconds: number): void {
    this.requests.inc({ route, status: String(status), format })
    this.latency.observe({ route }, seconds)
    if (status === 429) this.quotaRejections.inc({ route })
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ readonly contentType: string; readonly body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() }
  }
}
