/**
 * The process's Prometheus metrics (prom-client), one registry per server, and how the reported
 * figures (figures.ts) move them. Metric names, labels and units are listed in
 * docs/observability.md. Label values are bounded: `repository` x `branch` pairs beyond
 * {@link MAX_BRANCH_SERIES} are counted under branch `__other__`; `code` is one of the engine's
 * dequeue codes (docs/domain.md §3.9); `rpc` one of the served methods or `unmatched`.
 */
import { ciInsightsMetrics, type CiInsightsMetrics } from "./ci-insights-metrics.js";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { OutboxFigures, QueueFigures, ReplicaFigures, RequestFigures } from "./figures.js";
import { registerReplicaGauges } from "./replica-gauges.js";

/** Most distinct (repository, branch) pairs labelled by name; the rest share branch `__other__`. */
export const MAX_BRANCH_SERIES = 1000;
/** The branch label of the pairs beyond {@link MAX_BRANCH_SERIES}. */
export const OTHER_BRANCH = "__other__";

/** Queue time buckets, seconds: 1 minute to 1 day. */
const QUEUE_TIME_BUCKETS = [60, 300, 600, 1800, 3600, 7200, 14_400, 28_800, 86_400];
/** Request duration buckets, seconds: 1 ms to 10 s. */
const REQUEST_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** The metrics of one server: record figures, and render the registry for a scrape. */
export interface Metrics {
  readonly registry: Registry;
  /** Moves the queue figures of a committed runner round. */
  observeRound(figures: QueueFigures): void;
  /** Counts one answered request and its duration. */
  observeRequest(figures: RequestFigures): void;
  /** Counts one failed insert of relayed events into ClickHouse. */
  ingestFailed(): void;
  /** The text exposition format of every metric, and its media type. */
  scrape(): Promise<{ contentType: string; text: string }>;
  /** CI Insights' test runs and quarantines (ci-insights-metrics.ts). */
  readonly ciInsights: CiInsightsMetrics;
}

/**
 * Creates the registry with every metric of docs/observability.md and the process metrics of
 * prom-client (`process_*`, `nodejs_*`).
 * @param outbox reads the outbox at each scrape; a failure leaves the outbox gauges at -1 for that scrape
 * @param replica reads this process's place among the queue runner's replicas at each scrape (where the queue runs)
 */
export function createMetrics(outbox?: () => Promise<OutboxFigures>, replica?: () => ReplicaFigures): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (replica) registerReplicaGauges(registry, replica);
  const queue = ["repository", "branch"] as const;
  const waiting = new Gauge({
    name: "yardmaster_queue_pull_requests_waiting",
    help: "Queued pull requests not in a batch being checked, after the latest round.",
    labelNames: queue,
    registers: [registry],
  });
  const checking = new Gauge({
    name: "yardmaster_queue_batches_checking",
    help: "Batches whose speculative or in-place check is running or pending, after the latest round.",
    labelNames: queue,
    registers: [registry],
  });
  const queueTime = new Histogram({
    name: "yardmaster_queue_time_seconds",
    help: "Seconds from entering the merge queue to leaving it (merged or dequeued).",
    labelNames: queue,
    buckets: QUEUE_TIME_BUCKETS,
    registers: [registry],
  });
  const ciRuns = counter(registry, "yardmaster_queue_ci_runs_started_total", "CI runs (checks) started.", queue);
  const merges = counter(registry, "yardmaster_queue_merges_total", "Pull requests merged by the queue.", queue);
  const dequeues = counter(registry, "yardmaster_queue_dequeues_total", "Pull requests that left without merging.", [
    ...queue,
    "code",
  ]);
  const bisections = counter(registry, "yardmaster_queue_bisections_total", "Failed batches bisected.", queue);
  const ingestErrors = new Counter({
    name: "yardmaster_clickhouse_ingest_errors_total",
    help: "Failed inserts of relayed outbox events into ClickHouse (each retried later).",
    registers: [registry],
  });
  const requests = new Histogram({
    name: "yardmaster_rpc_duration_seconds",
    help: "Duration of answered RPC requests, by protocol, RPC and status.",
    labelNames: ["protocol", "rpc", "status"],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  if (outbox) {
    const read = memoizedRead(outbox);
    new Gauge({
      name: "yardmaster_outbox_events",
      help: "Activity log events in the outbox, not yet in ClickHouse (-1: PostgreSQL did not answer).",
      registers: [registry],
      async collect() {
        this.set((await read())?.waiting ?? -1);
      },
    });
    new Gauge({
      name: "yardmaster_outbox_oldest_event_age_seconds",
      help: "Age of the oldest event in the outbox, seconds; 0 when empty (-1: PostgreSQL did not answer).",
      registers: [registry],
      async collect() {
        this.set((await read())?.oldestAgeSeconds ?? -1);
      },
    });
  }
  const pairs = new Set<string>();
  const branchLabel = (repository: string, branch: string): string => {
    const key = `${repository}\u001f${branch}`;
    if (pairs.has(key)) return branch;
    if (pairs.size >= MAX_BRANCH_SERIES) return OTHER_BRANCH;
    pairs.add(key);
    return branch;
  };
  return {
    registry,
    ciInsights: ciInsightsMetrics(registry),
    observeRound(f) {
      const labels = (branch: string) => ({ repository: f.repository, branch: branchLabel(f.repository, branch) });
      for (const b of f.branches) {
        waiting.set(labels(b.branch), b.waiting);
        checking.set(labels(b.branch), b.checking);
      }
      for (const c of f.ciRunsStarted) ciRuns.inc(labels(c.branch));
      for (const m of f.merges) merges.inc(labels(m.branch));
      for (const d of f.dequeues) dequeues.inc({ ...labels(d.branch), code: d.code });
      for (const t of f.queueTimes) queueTime.observe(labels(t.branch), t.seconds);
      for (const b of f.bisections) bisections.inc(labels(b.branch));
    },
    observeRequest(r) {
      requests.observe({ protocol: r.protocol, rpc: r.rpc, status: r.status }, r.seconds);
    },
    ingestFailed() {
      ingestErrors.inc();
    },
    async scrape() {
      return { contentType: registry.contentType, text: await registry.metrics() };
    },
  };
}

function counter<L extends string>(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

/** One read of the outbox per scrape, shared by its two gauges; undefined when it failed. */
function memoizedRead(read: () => Promise<OutboxFigures>): () => Promise<OutboxFigures | undefined> {
  let pending: Promise<OutboxFigures | undefined> | undefined;
  return () => {
    if (!pending) {
      pending = read().catch(() => undefined);
      const clear = () => void (pending = undefined);
      void pending.then(clear);
    }
    return pending;
  };
}
