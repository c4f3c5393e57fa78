/**
 * Test health (docs/ci-insights.md "Health"), computed by ClickHouse over the stored runs of one
 * branch in a window — one aggregate per test, never rows read into Node:
 * - `broken`: its last {@link BROKEN_RUNS} runs on the branch all failed (an error counts as a
 *   failure), the rule for a test that fails for everyone;
 * - `flaky`: in the window, it both passed and failed on the same commit (a retry or a re-run gave
 *   another answer for the same code);
 * - otherwise `healthy`. Broken wins over flaky: a test failing every time now needs a fix, not a retry.
 * Ratios are over the window's runs that passed or failed (skipped runs say nothing):
 * success = passed / (passed + failed), failure = failed / (passed + failed); flakiness =
 * commits with both / commits run on.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import { clickHouseTime, fromClickHouseTime } from "./test-runs.js";

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

/** A row of the first query; aliases never reuse a column's name (an alias would replace the column in WHERE). */
interface HealthRow {
  id: string;
  test_name: string;
  pipeline_name: string;
  job_name: string;
  runs: string;
  passes: string;
  failures: string;
  last_outcome: TestHealth["lastOutcome"];
  last_run_at: string;
  first_failure_at: string;
  last_failure_at: string;
  last_success_at: string;
  file_path: string;
  test_framework: string;
  test_language: string;
}

/** A row of the second query, for the tests that failed. */
interface FailureRow {
  id: string;
  commits: string;
  flaky_commits: string;
  broken: number;
  first_failure_commit: string;
  first_failure_pulls: string[];
  last_failure_commit: string;
}

const FAILED = "outcome IN ('failed', 'error')";

/** What to compute: a branch, the window's start, optionally some tests only. */
export interface HealthQuery {
  repository: string;
  branch: string;
  from: Date;
  testIds?: readonly string[];
}

/**
 * The health of every test run on the branch since `from` (or of `testIds`), in no order. Two
 * aggregates: counts and times for every test (cheap sums over the branch's range), then the
 * commits, the latest runs and the first failure's commit for the tests that failed at least once
 * (only they can be flaky or broken): the per-commit and latest-runs aggregates, the costly ones,
 * run on a few tests rather than all (bench/ci.ts).
 */
export async function testHealth(client: ClickHouseClient, q: HealthQuery): Promise<TestHealth[]> {
  const scope =
    "repository = {repo:String} AND branch = {branch:String} AND received_at >= {from:DateTime64(3, 'UTC')}";
  const params = { repo: q.repository, branch: q.branch, from: clickHouseTime(q.from) };
  const only = q.testIds ? "AND test_id IN {ids:Array(UUID)}" : "";
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, any(name) AS test_name, any(pipeline) AS pipeline_name, any(job) AS job_name,
        count() AS runs, countIf(outcome = 'passed') AS passes, countIf(${FAILED}) AS failures,
        toString(argMax(outcome, received_at)) AS last_outcome, toString(max(received_at)) AS last_run_at,
        toString(minIf(received_at, ${FAILED})) AS first_failure_at, toString(maxIf(received_at, ${FAILED})) AS last_failure_at,
        toString(maxIf(received_at, outcome = 'passed')) AS last_success_at,
        any(file) AS file_path, toString(any(framework)) AS test_framework, toString(any(language)) AS test_language
      FROM test_runs WHERE ${scope} ${only} GROUP BY test_id`,
    query_params: { ...params, ids: q.testIds ?? [] },
    format: "JSONEachRow",
  });
  const rows = await rs.json<HealthRow>();
  const failing = rows.filter((r) => Number(r.failures) > 0).map((r) => r.id);
  const extra = new Map<string, FailureRow>();
  if (failing.length > 0) {
    const fs = await client.query({
      query: `SELECT toString(test_id) AS id, uniqExact(head_sha) AS commits,
          length(arrayIntersect(groupUniqArrayIf(head_sha, outcome = 'passed'), groupUniqArrayIf(head_sha, ${FAILED}))) AS flaky_commits,
          groupArraySorted(${BROKEN_RUNS})(tuple(-toUnixTimestamp64Milli(received_at), toUInt8(${FAILED}))) AS recent,
          length(recent) = ${BROKEN_RUNS} AND arrayAll(x -> x.2 = 1, recent) AS broken,
          argMinIf(head_sha, received_at, ${FAILED}) AS first_failure_commit,
          argMinIf(pull_requests, received_at, ${FAILED}) AS first_failure_pulls,
          argMaxIf(head_sha, received_at, ${FAILED}) AS last_failure_commit
        FROM test_runs WHERE ${scope} AND test_id IN {ids:Array(UUID)} GROUP BY test_id`,
      query_params: { ...params, ids: failing },
      format: "JSONEachRow",
    });
    for (const r of await fs.json<FailureRow>()) extra.set(r.id, r);
  }
  return rows.map((r) => toHealth(r, extra.get(r.id) ?? null));
}

function toHealth(r: HealthRow, f: FailureRow | null): TestHealth {
  const passes = Number(r.passes);
  const failures = Number(r.failures);
  const commits = Number(f?.commits ?? 0);
  const flakyCommits = Number(f?.flaky_commits ?? 0);
  const decided = passes + failures;
  const when = (t: string) => (failures === 0 ? null : fromClickHouseTime(t));
  return {
    testId: r.id,
    name: r.test_name,
    pipeline: r.pipeline_name,
    job: r.job_name,
    status: Number(f?.broken ?? 0) === 1 ? "broken" : flakyCommits > 0 ? "flaky" : "healthy",
    runs: Number(r.runs),
    passes,
    failures,
    commits,
    flakyCommits,
    successRatio: decided === 0 ? 0 : passes / decided,
    failureRatio: decided === 0 ? 0 : failures / decided,
    flakinessRatio: commits === 0 ? 0 : flakyCommits / commits,
    lastOutcome: r.last_outcome,
    lastRunAt: fromClickHouseTime(r.last_run_at),
    firstFailureAt: when(r.first_failure_at),
    firstFailureCommit: f === null ? null : f.first_failure_commit,
    firstFailurePulls: f === null ? [] : f.first_failure_pulls.map(Number),
    lastFailureAt: when(r.last_failure_at),
    lastFailureCommit: f === null ? null : f.last_failure_commit,
    lastSuccessAt: passes === 0 ? null : fromClickHouseTime(r.last_success_at),
    file: r.file_path,
    framework: r.test_framework,
    language: r.test_language,
  };
}

/** Failed runs per test and UTC day over the `days` days ending today, oldest first (the sparkline). */
export async function dailyFailures(
  client: ClickHouseClient,
  repository: string,
  branch: string,
  testIds: readonly string[],
  now: Date,
  days = 14,
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(testIds.map((id) => [id, new Array<number>(days).fill(0)]));
  if (testIds.length === 0) return out;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * 86_400_000);
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, toString(toDate(received_at)) AS day, countIf(${FAILED}) AS failed
            FROM test_runs WHERE repository = {repo:String} AND branch = {branch:String}
              AND received_at >= {from:DateTime64(3, 'UTC')} AND test_id IN {ids:Array(UUID)}
            GROUP BY id, day`,
    query_params: { repo: repository, branch, from: clickHouseTime(from), ids: testIds },
    format: "JSONEachRow",
  });
  for (const r of await rs.json<{ id: string; day: string; failed: string }>()) {
    const index = Math.round((Date.parse(`${r.day}T00:00:00Z`) - from.getTime()) / 86_400_000);
    const series = out.get(r.id);
    if (series && index >= 0 && index < days) series[index] = Number(r.failed);
  }
  return out;
}
