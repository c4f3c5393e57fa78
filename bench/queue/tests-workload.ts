/**
 * The runs of the queue benchmark's `tests` workload (docs/benchmarks.md "The tests workload"):
 * one configuration at one rate, on one seed, with failures that have test identities, either
 * blind to tests or test-aware, beside the same engine on the same seed without spurious
 * failures. Each job is reduced to plain figures (it crosses worker threads); the jobs run on
 * worker threads (tests-worker.ts) or, without the compiled worker, in this thread.
 */
import type { QueueKnobs } from "../../services/engine/index.js";
import {
  constantMinutes,
  queueConfiguration,
  simulateQueue,
  type TestWorkload,
} from "../../services/simulation/index.js";
import { runOnWorkers } from "./parallel.js";
import { BREAK_PROBABILITY, CI_SLOTS, D_MINUTES } from "./runs.js";
import { pool, quantile, summarize, type RunSummary } from "./summary.js";

/** a: a culprit's own CI failed its test before it was queued. */
export const ATTRIBUTABLE = 0.7;
/** f: a CI run fails spuriously on one test. */
export const SPURIOUS = 0.03;
/** Of the spurious failures: on quarantined tests, on tests known flaky on the base branch (the rest: new flaky tests). */
export const QUARANTINED_SHARE = 0.3;
export const FLAKY_SHARE = 0.5;
/**
 * Of the good pull requests, the share whose own CI failed before they were queued (on a flake or
 * an earlier commit): the false positives of the risk signal (`risk_aware_batching`), beside the
 * attributable culprits (a), whose own CI failed.
 */
export const OWN_CI_FAILED_GOOD = 0.1;

/**
 * What a run is: `clean` no spurious failure (the flake-free reference), `blind` and `aware` the
 * workload, `aware-known` the same f with no new flaky test (every spurious failure on a
 * quarantined or known flaky test: what those alone send back; blind to tests, the kinds are alike).
 */
export const MODES = ["clean", "blind", "aware", "aware-known"] as const;
export type Mode = (typeof MODES)[number];

/** The workload of a mode. */
export function workloadOf(mode: Mode): TestWorkload {
  const known = mode.endsWith("-known");
  return {
    attributable: ATTRIBUTABLE,
    spurious: mode === "clean" ? 0 : SPURIOUS,
    quarantinedShare: known ? QUARANTINED_SHARE / (QUARANTINED_SHARE + FLAKY_SHARE) : QUARANTINED_SHARE,
    flakyShare: known ? FLAKY_SHARE / (QUARANTINED_SHARE + FLAKY_SHARE) : FLAKY_SHARE,
    aware: mode !== "blind",
    ownCiFailedGood: OWN_CI_FAILED_GOOD,
  };
}

/** One run: `knobs` in `mode` at `lambda` per hour, `pullRequests` arrivals, `seed`. */
export interface TestsJob {
  knobs: QueueKnobs;
  mode: Mode;
  lambda: number;
  pullRequests: number;
  seed: number;
}

/** A run's figures: the benchmark's counting, plus re-runs and bisections. */
export interface TestsRunSummary extends RunSummary {
  reruns: number;
  bisections: number;
}

/** Runs one job in this thread (open loop, unstable once 300 pull requests wait). */
export function runTestsJob(job: TestsJob): TestsRunSummary {
  const report = simulateQueue({
    seed: job.seed,
    config: queueConfiguration(job.knobs),
    pullRequests: job.pullRequests,
    arrivalsPerHour: job.lambda,
    breakProbability: BREAK_PROBABILITY,
    flakeRate: 0,
    ciSlots: CI_SLOTS,
    ciDuration: constantMinutes(D_MINUTES),
    maxQueued: 300,
    tests: workloadOf(job.mode),
  });
  return { ...summarize(report), reruns: report.reruns, bisections: report.bisections };
}

/** Runs the jobs on `workers` threads; results in job order. */
export function runTestsJobs(jobs: TestsJob[], workers: number): Promise<TestsRunSummary[]> {
  return runOnWorkers(jobs, workers, new URL("./tests-worker.js", import.meta.url), runTestsJob);
}

/**
 * The pooled figures of one row (the runs of one engine at one rate): summary.ts `pool`'s figures,
 * plus the p50 of time in queue (minutes), CI hours per merge, and the bisections and failed jobs
 * run again, summed over the runs.
 */
export function testsFigures(runs: TestsRunSummary[]) {
  const pooled = pool(runs, D_MINUTES);
  const minutes = runs.flatMap((r) => r.minutes).sort((a, b) => a - b);
  const sum = (f: (r: TestsRunSummary) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    ...pooled,
    p50Minutes: quantile(minutes, 0.5),
    ciHoursPerMerge: (pooled.ciDPerMerge * D_MINUTES) / 60,
    bisections: sum((r) => r.bisections),
    reruns: sum((r) => r.reruns),
  };
}
