/**
 * Public surface of services/offload (README.md): the process's worker pools, one per lane
 * (lanes.ts: the runner's, the API's shared fairly among callers, the what-ifs'), created on
 * first use, and what runs in them; the server closes them at shutdown ({@link closeSharedPool}).
 * docs/reliability.md "Hostile input" and "Tenants".
 */
import type {
  Configuration,
  EvaluationContext,
  LoadOptions,
  PlannedAction,
  PullRequestSnapshot,
  SimulationSummary,
  TemplateVariables,
} from "../config/index.js";
import type { ConfigurationInput } from "../engine/index.js";
import type { QueueOutcome, TrafficInput } from "../simulation/index.js";
import { loadConfigurationIn, type PooledLoadResult } from "./configuration-loader.js";
import { parseJsonBodyIn } from "./json-body-offload.js";
import { closeLanes, laneOf, RENDER_TIME_LIMIT_MS, trafficLane, type WorkOrigin } from "./lanes.js";
import type { PlanTask } from "./plan-task.js";

export { INLINE_CONFIGURATION_BYTES, loadConfigurationIn, type PooledLoadResult } from "./configuration-loader.js";
export { INLINE_JSON_CHARACTERS, parseJsonBodyIn } from "./json-body-offload.js";
export type { TestReportResult, TestReportTask } from "./test-report-task.js";
export { TEST_REPORT_TIME_LIMIT_MS } from "./lanes.js";
export { inflateBounded, matchLogPatternBounded, readTestReportBounded } from "./report-offload.js";
export { apiRefusal, RENDER_TIME_LIMIT_MS, TRAFFIC_TIME_LIMIT_MS, type WorkOrigin } from "./lanes.js";
export { isPoolBusy, PoolBusyError } from "./pool-busy.js";
export {
  createWorkerPool,
  POOL_DEFAULTS,
  WorkLimitError,
  type RunOptions,
  type WorkerPool,
  type WorkerPoolOptions,
} from "./worker-pool.js";

/**
 * Loads a configuration text as `loadConfiguration` does, off the event loop when it is large
 * (configuration-loader.ts), in the lane of `origin`.
 * @throws PoolBusyError when that lane is busy (the caller over its share, or waiting too long)
 */
export function loadConfigurationBounded(
  text: string,
  options: LoadOptions,
  origin: WorkOrigin,
): Promise<PooledLoadResult> {
  const { pool, run } = laneOf(origin);
  return loadConfigurationIn(pool, text, options, undefined, run);
}

/**
 * Parses a REST JSON body as json-body.ts does, off the event loop when it is large, as the API
 * task of `caller`.
 * @throws SyntaxError for a body that is not JSON; WorkLimitError; PoolBusyError
 */
export function parseJsonBodyBounded(text: string, caller: string): Promise<unknown> {
  const { pool, run } = laneOf({ lane: "api", caller });
  return parseJsonBodyIn(pool, text, undefined, run);
}

/**
 * Simulates a pull request in a worker thread (simulation-task.ts), as the API task of `caller`:
 * always, since a short text can hold a regular expression that backtracks for minutes.
 * @throws WorkLimitError past the pool's time or memory limit; PoolBusyError
 */
export function simulatePullRequestBounded(
  config: Configuration,
  context: EvaluationContext,
  pull: PullRequestSnapshot | undefined,
  caller: string,
): Promise<SimulationSummary> {
  const { pool, run } = laneOf({ lane: "api", caller });
  return pool.run("simulatePullRequest", { config, context, pull }, run);
}

/**
 * Renders a rule action's templated options in the runner's lane (plan-task.ts), within
 * {@link RENDER_TIME_LIMIT_MS}: what config's `planAction` gives, off the event loop.
 * @throws WorkLimitError past the time or memory limit; PoolBusyError when the runner's lane is busy
 */
export function planActionBounded(
  action: string,
  options: Record<string, unknown> | null,
  pull: PullRequestSnapshot,
  extra: TemplateVariables,
  repository: string,
): Promise<PlannedAction> {
  const { pool, run } = laneOf({ lane: "runner", repository });
  const task: PlanTask = { action, options, pull, extra };
  return pool.run("planAction", task, { ...run, timeoutMs: RENDER_TIME_LIMIT_MS });
}

/**
 * Simulates recorded traffic under a configuration in a worker thread (traffic-task.ts), within
 * TRAFFIC_TIME_LIMIT_MS, as the task of API `caller`.
 * @throws WorkLimitError past the time or memory limit; PoolBusyError when other what-ifs already wait
 */
export function simulateTrafficBounded(
  input: TrafficInput,
  config: ConfigurationInput,
  caller: string,
): Promise<QueueOutcome> {
  const { pool, run } = trafficLane(caller);
  return pool.run("simulateTraffic", { input, config }, run);
}

/** Stops the pools' threads (server shutdown); a later task starts new pools. */
export function closeSharedPool(): Promise<void> {
  return closeLanes();
}
