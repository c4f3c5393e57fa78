/**
 * Test health's shapes and rule (docs/ci-insights.md "Health"), shared by the two ways of
 * computing it (health.ts from the aggregates, health-rows.ts from the rows):
 * - `broken`: its last {@link BROKEN_RUNS} runs on the branch all failed (an error counts as a
 *   failure), the rule for a test that fails for everyone;
 * - `flaky`: in the window, it both passed and failed on the same commit (a retry or a re-run gave
 *   another answer for the same code);
 * - otherwise `healthy`. Broken wins over flaky: a test failing every time now needs a fix, not a retry.
 * Ratios are over the window's runs that passed or failed (skipped runs say nothing):
 * success = passed / (passed + failed), failure = failed / (passed + failed); flakiness =
 * commits with both / commits run on.
 */
import { fromClickHouseTime } from "./test-runs.js";

/** Consecutive failed runs, the latest ones, that make a test broken. */
export const BROKEN_RUNS = 5;

/** A test's health. */
export type HealthStatus = "healthy" | "flaky" | "broken";

/** One test's health figures on a branch over a window. Times UTC. */
export interface TestHealth {
  testId: string;
  name: string;
  pipeline: string;
  job: string;
  status: HealthStatus;
  runs: number;
  passes: number;
  failures: number;
  commits: number;
  flakyCommits: number;
  successRatio: number;
  failureRatio: number;
  flakinessRatio: number;
  lastOutcome: "passed" | "failed" | "skipped" | "error";
  lastRunAt: Date;
  firstFailureAt: Date | null;
  firstFailureCommit: string | null;
  firstFailurePulls: number[];
  lastFailureAt: Date | null;
  lastFailureCommit: string | null;
  lastSuccessAt: Date | null;
  file: string;
  framework: string;
  language: string;
}

/** What to compute: a branch, the window's start (UTC, to the millisecond), optionally some tests only. */
export interface HealthQuery {
  repository: string;
  branch: string;
  from: Date;
  testIds?: readonly string[];
  /**
   * The list's figures only (docs/ci-insights.md "The list of tests"): the first and last
   * failure's commit and pull requests are not read (null, null and []); everything else is.
   */
  summary?: boolean;
}

/**
 * A test's counts and times as ClickHouse answers them (JSONEachRow: 64-bit integers quoted,
 * times as DateTime64(3) text). Aliases never reuse a column's name (an alias would replace the
 * column in WHERE, or make an aggregate of that column cyclic).
 */
export interface HealthRow {
  id: string;
  test_name: string;
  pipeline_name: string;
  job_name: string;
  n_runs: string;
  n_passes: string;
  n_failures: string;
  last_conclusion: TestHealth["lastOutcome"];
  last_run: string;
  first_failure: string;
  last_failure: string;
  last_success: string;
  file_path: string;
  test_framework: string;
  test_language: string;
}

/** What only a test that failed has: its commits, whether it is broken, its failures' commits. */
export interface FailureRow {
  id: string;
  n_commits: string;
  n_flaky_commits: string;
  is_broken: number;
  failure_commit_first: string;
  failure_pulls_first: string[];
  failure_commit_last: string;
}

/** The failure condition of a run, in ClickHouse SQL over `test_runs`. */
export const FAILED = "outcome IN ('failed', 'error')";

/** One test's health from its two rows (`f` null: it did not fail in the window). */
export function toHealth(r: HealthRow, f: FailureRow | null): TestHealth {
  const passes = Number(r.n_passes);
  const failures = Number(r.n_failures);
  const commits = Number(f?.n_commits ?? 0);
  const flakyCommits = Number(f?.n_flaky_commits ?? 0);
  const decided = passes + failures;
  const when = (t: string) => (failures === 0 ? null : fromClickHouseTime(t));
  return {
    testId: r.id,
    name: r.test_name,
    pipeline: r.pipeline_name,
    job: r.job_name,
    status: Number(f?.is_broken ?? 0) === 1 ? "broken" : flakyCommits > 0 ? "flaky" : "healthy",
    runs: Number(r.n_runs),
    passes,
    failures,
    commits,
    flakyCommits,
    successRatio: decided === 0 ? 0 : passes / decided,
    failureRatio: decided === 0 ? 0 : failures / decided,
    flakinessRatio: commits === 0 ? 0 : flakyCommits / commits,
    lastOutcome: r.last_conclusion,
    lastRunAt: fromClickHouseTime(r.last_run),
    firstFailureAt: when(r.first_failure),
    firstFailureCommit: f === null ? null : f.failure_commit_first,
    firstFailurePulls: f === null ? [] : f.failure_pulls_first.map(Number),
    lastFailureAt: when(r.last_failure),
    lastFailureCommit: f === null ? null : f.failure_commit_last,
    lastSuccessAt: passes === 0 ? null : fromClickHouseTime(r.last_success),
    file: r.file_path,
    framework: r.test_framework,
    language: r.test_language,
  };
}
