/**
 * The queue statistics of a repository (docs/activity-log.md "Queue statistics"): the statements of
 * queue-statistics-sql.ts run against ClickHouse, their at most one row per bucket turned into
 * figures. Durations in seconds; a figure needing a divisor is null when it is zero.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { fillHistogram, histogramLayout } from "./histogram.js";
import type { LogWindow } from "./log-filters.js";
import { DEPTH_BEFORE_SQL, DEPTH_SQL, FIGURES_SQL, REMOVALS_SQL, statisticsParams } from "./queue-statistics-sql.js";

/** The figures of a span (QueueStatistics of activity_log.proto). */
export interface QueueFigures {
  merges: number;
  mergesPerHour: number;
  timeInQueueP50Seconds: number | null;
  timeInQueueP90Seconds: number | null;
  ciRuns: number;
  ciSeconds: number;
  ciRunsPerMerge: number | null;
  ciSecondsPerMerge: number | null;
  concludedRuns: number;
  failedRuns: number;
  flakyRuns: number;
  failureRate: number | null;
  flakeRate: number | null;
  bisections: number;
  removals: number;
  queueDepth: number;
  queueDepthMax: number;
}

/** The statistics of a window: the whole, per bucket (UTC ms), and the removals by dequeue code. */
export interface QueueStatisticsResult {
  window: LogWindow;
  intervalSeconds: number;
  summary: QueueFigures;
  buckets: { startMs: number; endMs: number; figures: QueueFigures }[];
  removalsByCode: { value: string; count: bigint }[];
}

interface FigureRow {
  g: number | string;
  bucket: string;
  merges: string;
  p50_ms: string | number | null;
  p90_ms: string | number | null;
  ci_runs: string;
  ci_ms: string;
  concluded_runs: string;
  failed_runs: string;
  flaky_runs: string;
  bisections: string;
  removals: string;
}

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);
const seconds = (ms: string | number | null) => (ms === null ? null : Number(ms) / 1000);

/** The figures of one row over a span of `hours`, with the depth at its end and its highest. */
function figuresOf(r: FigureRow | undefined, hours: number, depth: { end: number; max: number }): QueueFigures {
  const n = (v: string | undefined) => Number(v ?? 0);
  const merges = n(r?.merges);
  const ciRuns = n(r?.ci_runs);
  const ciSeconds = n(r?.ci_ms) / 1000;
  const concluded = n(r?.concluded_runs);
  const failed = n(r?.failed_runs);
  const flaky = n(r?.flaky_runs);
  return {
    merges,
    mergesPerHour: hours > 0 ? merges / hours : 0,
    timeInQueueP50Seconds: seconds(r?.p50_ms ?? null),
    timeInQueueP90Seconds: seconds(r?.p90_ms ?? null),
    ciRuns,
    ciSeconds,
    ciRunsPerMerge: ratio(ciRuns, merges),
    ciSecondsPerMerge: ratio(ciSeconds, merges),
    concludedRuns: concluded,
    failedRuns: failed,
    flakyRuns: flaky,
    failureRate: ratio(failed, concluded),
    flakeRate: ratio(flaky, concluded),
    bisections: n(r?.bisections),
    removals: n(r?.removals),
    queueDepth: depth.end,
    queueDepthMax: depth.max,
  };
}

async function rows<T>(client: ClickHouseClient, query: string, params: Record<string, unknown>, signal?: AbortSignal) {
  const rs = await client.query({ query, query_params: params, format: "JSONEachRow", abort_signal: signal });
  return rs.json<T>();
}

/**
 * The statistics of `repository`'s queue on `branch` (every branch when null) over `window`, in
 * the buckets AggregateLogs uses for the same window (histogram.ts).
 * @param signal aborts the queries (a read past its deadline)
 * @throws the ClickHouse client's error when a query fails
 */
export async function queueStatistics(
  client: ClickHouseClient,
  repository: string,
  branch: string | null,
  window: LogWindow,
  signal?: AbortSignal,
): Promise<QueueStatisticsResult> {
  const layout = histogramLayout(window);
  const params = statisticsParams(repository, branch, window, layout);
  const [figures, [before], changes, removals] = await Promise.all([
    rows<FigureRow>(client, FIGURES_SQL, params, signal),
    rows<{ depth: string | null }>(client, DEPTH_BEFORE_SQL, params, signal),
    rows<{ bucket: string; change_end: string; change_max: string }>(client, DEPTH_SQL, params, signal),
    rows<{ code: string; n: string }>(client, REMOVALS_SQL, params, signal),
  ]);
  // A leave whose enter is older than the log (or was never logged) cannot make the depth negative.
  const base = Math.max(0, Number(before?.depth ?? 0));
  const byBucket = new Map(figures.filter((r) => Number(r.g) === 0).map((r) => [Number(r.bucket), r]));
  const changeOf = new Map(changes.map((c) => [Number(c.bucket), c]));
  const hours = (ms: number) => ms / 3_600_000;
  let depth = base;
  let max = base;
  const buckets = fillHistogram(layout, new Map()).map((b, i) => {
    const c = changeOf.get(i);
    const startDepth = depth;
    if (c) depth = Math.max(0, base + Number(c.change_end));
    const bucketMax = c ? Math.max(startDepth, base + Number(c.change_max), depth) : depth;
    max = Math.max(max, bucketMax);
    // Figures per hour over the part of the bucket inside the window.
    const span = Math.min(b.endMs, window.toMs) - Math.max(b.startMs, window.fromMs);
    return {
      startMs: b.startMs,
      endMs: b.endMs,
      figures: figuresOf(byBucket.get(i), hours(span), { end: depth, max: bucketMax }),
    };
  });
  const total = figures.find((r) => Number(r.g) === 1);
  return {
    window,
    intervalSeconds: layout.stepMs / 1000,
    summary: figuresOf(total, hours(window.toMs - window.fromMs), { end: depth, max }),
    buckets,
    removalsByCode: removals.map((r) => ({ value: r.code, count: BigInt(r.n) })),
  };
}
