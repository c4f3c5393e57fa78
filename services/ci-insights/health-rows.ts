/**
 * Test health computed from the rows of `test_runs` (docs/ci-insights.md "Health"): the reference
 * the aggregate path (health.ts) is checked against, test/ci-insights/health-paths.test.ts. Two
 * aggregates over the branch's rows in the window: counts and times for every test, then the
 * commits, the latest runs and the failures' commits for the tests that failed at least once
 * (only they can be flaky or broken). It reads every row of the window: bench/ci.ts measured it
 * at p95 1,143 ms for 1M runs of 10k tests, which is why the service reads the aggregates.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import {
  BROKEN_RUNS,
  FAILED,
  toHealth,
  type FailureRow,
  type HealthQuery,
  type HealthRow,
  type TestHealth,
} from "./health-figures.js";
import { clickHouseTime } from "./test-runs.js";

/**
 * The health of every test run on the branch since `q.from` (or of `q.testIds`), in no order,
 * read from the rows.
 * @throws ClickHouseError when the query fails
 */
export async function testHealthFromRuns(client: ClickHouseClient, q: HealthQuery): Promise<TestHealth[]> {
  const scope =
    "repository = {repo:String} AND branch = {branch:String} AND received_at >= {from:DateTime64(3, 'UTC')}";
  const params = { repo: q.repository, branch: q.branch, from: clickHouseTime(q.from) };
  const only = q.testIds ? "AND test_id IN {ids:Array(UUID)}" : "";
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, any(name) AS test_name, any(pipeline) AS pipeline_name, any(job) AS job_name,
        count() AS n_runs, countIf(outcome = 'passed') AS n_passes, countIf(${FAILED}) AS n_failures,
        toString(argMax(outcome, received_at)) AS last_conclusion, toString(max(received_at)) AS last_run,
        toString(minIf(received_at, ${FAILED})) AS first_failure, toString(maxIf(received_at, ${FAILED})) AS last_failure,
        toString(maxIf(received_at, outcome = 'passed')) AS last_success,
        any(file) AS file_path, toString(any(framework)) AS test_framework, toString(any(language)) AS test_language
      FROM test_runs WHERE ${scope} ${only} GROUP BY test_id`,
    query_params: { ...params, ids: q.testIds ?? [] },
    format: "JSONEachRow",
  });
  const rows = await rs.json<HealthRow>();
  const failing = rows.filter((r) => Number(r.n_failures) > 0).map((r) => r.id);
  const extra = new Map<string, FailureRow>();
  if (failing.length > 0) {
    const fs = await client.query({
      query: `SELECT toString(test_id) AS id, uniqExact(head_sha) AS n_commits,
          length(arrayIntersect(groupUniqArrayIf(head_sha, outcome = 'passed'), groupUniqArrayIf(head_sha, ${FAILED}))) AS n_flaky_commits,
          groupArraySorted(${BROKEN_RUNS})(tuple(-toUnixTimestamp64Milli(received_at), toUInt8(${FAILED}))) AS recent,
          length(recent) = ${BROKEN_RUNS} AND arrayAll(x -> x.2 = 1, recent) AS is_broken,
          argMinIf(head_sha, received_at, ${FAILED}) AS failure_commit_first,
          argMinIf(pull_requests, received_at, ${FAILED}) AS failure_pulls_first,
          argMaxIf(head_sha, received_at, ${FAILED}) AS failure_commit_last
        FROM test_runs WHERE ${scope} AND test_id IN {ids:Array(UUID)} GROUP BY test_id`,
      query_params: { ...params, ids: failing },
      format: "JSONEachRow",
    });
    for (const r of await fs.json<FailureRow>()) extra.set(r.id, r);
  }
  return rows.map((r) => toHealth(r, extra.get(r.id) ?? null));
}
