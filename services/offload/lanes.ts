/**
 * The process's worker pools, one per lane (docs/reliability.md "Tenants"): the runner's own work
 * never waits behind API requests, and API callers share theirs fairly.
 * - **runner**: the merge queue's work (a repository's configuration file, its rule actions'
 *   templates), in threads of its own, shared among repositories (fair-queue.ts);
 * - **api**: what API requests ask for (large bodies, configuration texts, pull request
 *   simulations), shared among callers (one share per credential), its threads at a lower CPU
 *   priority than the runner's;
 * - **traffic**: what-ifs on recorded traffic, API work with a time limit of their own.
 * Each pool is created on first use; {@link closeLanes} stops them (server shutdown).
 */
import type { PoolBusyError } from "./pool-busy.js";
import { createWorkerPool, type RunOptions, type WorkerPool } from "./worker-pool.js";

/**
 * Who a task is for: the runner, working `repository`; or an API `caller` (a credential's key:
 * auth's `callerKey`, or the client's address when no credential was verified).
 */
export type WorkOrigin = { lane: "runner"; repository: string } | { lane: "api"; caller: string };

/**
 * Time limit of one what-if on recorded traffic (one configuration), milliseconds: a month of a
 * repository merging a few hundred pull requests a day is simulated in a few seconds (docs/what-if.md "Bounds").
 */
export const TRAFFIC_TIME_LIMIT_MS = 60_000;

/**
 * Time limit of one rule action's templates, milliseconds: a render within the step limit takes
 * under half a second of CPU; the rest is room for a busy machine (docs/workflow-automation.md "Bounds").
 */
export const RENDER_TIME_LIMIT_MS = 5_000;

/**
 * Time limit of reading one test report, milliseconds: the largest report allowed (200 MiB of
 * OTLP, half a million cases) reads in well under this on one core (docs/ci-insights.md "Limits").
 */
export const TEST_REPORT_TIME_LIMIT_MS = 60_000;

let runner: WorkerPool | null = null;
let reports: WorkerPool | null = null;
let api: WorkerPool | null = null;
let traffic: WorkerPool | null = null;

/**
 * The runner's pool: its own threads at the process's CPU priority, a deeper queue (every
 * repository's work), a minute of waiting at most.
 */
const runnerPool = () => (runner ??= createWorkerPool({ maxQueue: 64, maxWaitMs: 60_000, niceIncrement: 0 }));
/**
 * The CPU priority of the API's threads (nice): below the runner's (0) and the server's event loop,
 * so that on a busy machine a flood of costly requests takes the cycles the merge queue leaves
 * (`npm run bench:tenants`: another repository's merges took 2.6× their unflooded time with the
 * API's threads at nice 5, 1.6-2.3× at 10, on a machine shared with other work).
 */
const API_NICE = 10;

/**
 * The API's pool: the default bounds, its threads at {@link API_NICE}, and 20 s of waiting at
 * most: a task behind one stopped at the 10 s time limit, and a new thread's start, still runs.
 */
const apiPool = () => (api ??= createWorkerPool({ maxWaitMs: 20_000, niceIncrement: API_NICE }));
/** What-ifs: their own time limit, and at most four wait. */
const trafficPool = () =>
  (traffic ??= createWorkerPool({
    timeoutMs: TRAFFIC_TIME_LIMIT_MS,
    maxQueue: 4,
    maxWaitMs: 2 * TRAFFIC_TIME_LIMIT_MS,
    niceIncrement: API_NICE,
  }));

/**
 * Test reports and gzip bodies of uploads (API work): their own limits, at most four wait, and
 * a larger heap for the largest reports.
 */
export function reportLane(caller: string): { pool: WorkerPool; run: RunOptions } {
  reports ??= createWorkerPool({
    timeoutMs: TEST_REPORT_TIME_LIMIT_MS,
    maxQueue: 4,
    maxHeapMb: 1536,
    maxWaitMs: 2 * TEST_REPORT_TIME_LIMIT_MS,
    niceIncrement: API_NICE,
  });
  return { pool: reports, run: { caller } };
}

/** The pool of `origin`'s lane and the task's options there. */
export function laneOf(origin: WorkOrigin): { pool: WorkerPool; run: RunOptions } {
  if (origin.lane === "runner") return { pool: runnerPool(), run: { caller: origin.repository } };
  return { pool: apiPool(), run: { caller: origin.caller } };
}

/** The what-if pool, for `caller`. */
export function trafficLane(caller: string): { pool: WorkerPool; run: RunOptions } {
  return { pool: trafficPool(), run: { caller } };
}

/**
 * The refusal the API pool would give a task of `caller` now, or null when it would take it:
 * a request with a large body can be answered 429 before its body is read.
 */
export function apiRefusal(caller: string): PoolBusyError | null {
  return api?.refusalFor(caller) ?? null;
}

/** Stops every pool's threads (server shutdown); a later task starts a new pool. */
export async function closeLanes(): Promise<void> {
  const pools = [runner, api, traffic, reports];
  runner = api = traffic = reports = null;
  await Promise.all(pools.map((p) => p?.close()));
}
