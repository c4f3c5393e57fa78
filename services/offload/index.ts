/**
 * Public surface of services/offload (README.md): the process's shared worker pool, created on
 * first use with the default bounds, and what runs in it; the server closes it at shutdown
 * ({@link closeSharedPool}). docs/reliability.md "Hostile input".
 */
import type {
  Configuration,
  EvaluationContext,
  LoadOptions,
  PullRequestSnapshot,
  SimulationSummary,
} from "../config/index.js";
import type { ConfigurationInput, TrafficInput, QueueOutcome } from "../engine/index.js";
import { loadConfigurationIn, type PooledLoadResult } from "./configuration-loader.js";
import { parseJsonBodyIn } from "./json-body-offload.js";
import type { InflateResult } from "./inflate-task.js";
import type { TestReportResult, TestReportTask } from "./test-report-task.js";
import { createWorkerPool, type WorkerPool } from "./worker-pool.js";

export { INLINE_CONFIGURATION_BYTES, loadConfigurationIn, type PooledLoadResult } from "./configuration-loader.js";
export type { TestReportResult, TestReportTask } from "./test-report-task.js";
export { INLINE_JSON_CHARACTERS, parseJsonBodyIn } from "./json-body-offload.js";
export {
  createWorkerPool,
  POOL_DEFAULTS,
  WorkLimitError,
  type WorkerPool,
  type WorkerPoolOptions,
} from "./worker-pool.js";

let shared: WorkerPool | null = null;
const pool = () => (shared ??= createWorkerPool());

/**
 * Time limit of one what-if on recorded traffic (one configuration), milliseconds: a month of a
 * repository merging a few hundred pull requests a day replays in a few seconds (docs/what-if.md "Bounds").
 */
export const TRAFFIC_TIME_LIMIT_MS = 60_000;
let traffic: WorkerPool | null = null;
// Its own pool: its time limit is not the one of configuration texts, and at most four wait.
const trafficPool = () => (traffic ??= createWorkerPool({ timeoutMs: TRAFFIC_TIME_LIMIT_MS, maxQueue: 4 }));

/**
 * Time limit of reading one test report, milliseconds: the largest report allowed (200 MiB of
 * OTLP, half a million cases) reads in well under this on one core (docs/ci-insights.md "Limits").
 */
export const TEST_REPORT_TIME_LIMIT_MS = 60_000;
let reports: WorkerPool | null = null;
// Its own pool: a report's limits are not a configuration text's, and at most four wait.
const reportPool = () =>
  (reports ??= createWorkerPool({ timeoutMs: TEST_REPORT_TIME_LIMIT_MS, maxQueue: 4, maxHeapMb: 1536 }));

/**
 * Reads an uploaded test report in a worker thread (test-report-task.ts); `task.bytes` is
 * transferred to the thread (unusable here afterwards).
 * @throws WorkLimitError past the time or memory limit; DomainError resource_exhausted when other
 *   reports already wait
 */
export function readTestReportBounded(task: TestReportTask): Promise<TestReportResult> {
  const b = task.bytes;
  // A view of part of a buffer (Node's pooled small buffers) is copied: moving it would take its neighbours too.
  const owned = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : b.slice();
  return reportPool().run("testReport", { ...task, bytes: owned }, [owned.buffer as ArrayBuffer]);
}

/**
 * Inflates a gzip body in a report worker thread (inflate-task.ts), stopping at `max` bytes; the
 * input moves to the thread and the output back.
 * @returns the bytes, or "too_large" past `max`, or the reason the data does not inflate
 * @throws WorkLimitError; DomainError resource_exhausted when other reports already wait
 */
export async function inflateBounded(
  bytes: Uint8Array,
  max: number,
): Promise<Uint8Array | "too_large" | { invalid: string }> {
  const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  const r = await reportPool().run<InflateResult>("inflate", { bytes: owned, max }, [owned.buffer as ArrayBuffer]);
  if (r instanceof Uint8Array) return r;
  return r.reason === "too_large" ? "too_large" : { invalid: r.message };
}

/**
 * Searches a retry rule's log pattern in a job's log in a worker thread (log-pattern-task.ts).
 * @returns the match (200 characters at most), or null
 * @throws WorkLimitError past the time limit (a pattern that backtracks); DomainError resource_exhausted
 */
export function matchLogPatternBounded(pattern: string, text: string): Promise<string | null> {
  return pool().run("logPattern", { pattern, text });
}

/**
 * Loads a configuration text as `loadConfiguration` does, off the event loop when it is large
 * (configuration-loader.ts).
 * @throws DomainError resource_exhausted when too many tasks wait for a thread
 */
export function loadConfigurationBounded(text: string, options?: LoadOptions): Promise<PooledLoadResult> {
  return loadConfigurationIn(pool(), text, options);
}

/**
 * Parses a REST JSON body as json-body.ts does, off the event loop when it is large.
 * @throws SyntaxError for a body that is not JSON; WorkLimitError; DomainError resource_exhausted
 */
export function parseJsonBodyBounded(text: string): Promise<unknown> {
  return parseJsonBodyIn(pool(), text);
}

/**
 * Simulates a pull request in a worker thread (simulation-task.ts): always, since a short text
 * can hold a regular expression that backtracks for minutes.
 * @throws WorkLimitError past the pool's time or memory limit; DomainError resource_exhausted
 */
export function simulatePullRequestBounded(
  config: Configuration,
  context: EvaluationContext,
  pull?: PullRequestSnapshot,
): Promise<SimulationSummary> {
  return pool().run("simulatePullRequest", { config, context, pull });
}

/**
 * Replays recorded traffic under a configuration in a worker thread (traffic-task.ts), within
 * {@link TRAFFIC_TIME_LIMIT_MS}.
 * @throws WorkLimitError past the time or memory limit; DomainError resource_exhausted when other
 *   what-ifs already wait
 */
export function simulateTrafficBounded(input: TrafficInput, config: ConfigurationInput): Promise<QueueOutcome> {
  return trafficPool().run("simulateTraffic", { input, config });
}

/** Stops the shared pools' threads (server shutdown); a later task starts a new pool. */
export async function closeSharedPool(): Promise<void> {
  const p = [shared, traffic, reports];
  shared = null;
  traffic = null;
  reports = null;
  await Promise.all(p.map((x) => x?.close()));
}
