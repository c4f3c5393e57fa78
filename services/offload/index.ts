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
import { createWorkerPool, type WorkerPool } from "./worker-pool.js";

export { INLINE_CONFIGURATION_BYTES, loadConfigurationIn, type PooledLoadResult } from "./configuration-loader.js";
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
  const p = [shared, traffic];
  shared = null;
  traffic = null;
  await Promise.all(p.map((x) => x?.close()));
}
