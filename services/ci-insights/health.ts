/**
 * Test health (docs/ci-insights.md "Health"; the rule in health-figures.ts), computed by ClickHouse
 * from aggregates, never from rows read into Node nor from every row of the window: the
 * materialized views of migrations/0002_test_health_states.sql keep, per test, branch and UTC day,
 * the counts and times, and the partial states (-State) of the latest outcome and of the
 * failures' commits (`test_health_daily`), and per commit the passed and failed runs
 * (`test_health_commits`). A window [from, now] reads the whole days after `from` from them and
 * the rest of `from`'s own day from `test_runs` (one day's rows at most, found through the
 * time projection), merges both with -Merge and gives, to the millisecond, what the rows give
 * (health-rows.ts, the reference; test/ci-insights/health-paths.test.ts). The latest runs (the
 * broken rule) are read from the rows, for the few tests that can be broken.
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

export { BROKEN_RUNS, type HealthQuery, type HealthStatus, type TestHealth } from "./health-figures.js";

const DAY_MS = 86_400_000;
/** The days of the sparkline (failures per UTC day), today included. */
export const DAILY_DAYS = 14;

/**
 * The two parts of a window, as WHERE conditions: whole UTC days from `day` on (the daily
 * tables), and the rows of [from, dayStart) (`test_runs`) when `from` is not a midnight.
 */
function windowParts(q: HealthQuery) {
  const from = q.from.getTime();
  const dayStart = Math.ceil(from / DAY_MS) * DAY_MS;
  const branch = "repository = {repo:String} AND branch = {branch:String}";
  return {
    params: {
      repo: q.repository,
      branch: q.branch,
      from: clickHouseTime(q.from),
      dayStart: clickHouseTime(new Date(dayStart)),
      day: new Date(dayStart).toISOString().slice(0, 10),
      ids: q.testIds ?? [],
    },
    days: `${branch} AND day >= {day:Date}`,
    /** null when the window starts at a midnight: the days hold all of it. */
    rows:
      dayStart === from
        ? null
        : `${branch} AND received_at >= {from:DateTime64(3, 'UTC')} AND received_at < {dayStart:DateTime64(3, 'UTC')}`,
  };
}

/**
 * The health of every test run on the branch since `q.from` (or of `q.testIds`), in no order
 * (`q.summary`: without the failures' commits and pull requests).
 * Counts and times of every test from the daily states; then, for the tests that failed at least
 * once (only they can be flaky or broken), their failures' commits and their commits
 * ({@link failuresOf}).
 * @throws ClickHouseError when a query fails
 */
export async function testHealth(client: ClickHouseClient, q: HealthQuery): Promise<TestHealth[]> {
  const w = windowParts(q);
  const only = q.testIds ? "AND test_id IN {ids:Array(UUID)}" : "";
  const fromRows =
    w.rows === null
      ? ""
      : `UNION ALL
        SELECT test_id, any(name), any(pipeline), any(job), any(file), any(framework), any(language),
          count(), countIf(outcome = 'passed'), countIf(${FAILED}), max(received_at), argMaxState(outcome, received_at),
          min(if(${FAILED}, received_at, toDateTime64('2299-12-31 00:00:00', 3, 'UTC'))),
          max(if(${FAILED}, received_at, toDateTime64(0, 3, 'UTC'))),
          max(if(outcome = 'passed', received_at, toDateTime64(0, 3, 'UTC')))
        FROM test_runs WHERE ${w.rows} ${only} GROUP BY test_id`;
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, any(name) AS test_name, any(pipeline) AS pipeline_name, any(job) AS job_name,
        sum(runs) AS n_runs, sum(passes) AS n_passes, sum(failures) AS n_failures,
        toString(argMaxMerge(last_outcome)) AS last_conclusion, toString(max(last_run_at)) AS last_run,
        toString(min(first_failure_at)) AS first_failure, toString(max(last_failure_at)) AS last_failure,
        toString(max(last_success_at)) AS last_success,
        any(file) AS file_path, toString(any(framework)) AS test_framework, toString(any(language)) AS test_language
      FROM (
        SELECT test_id, name, pipeline, job, file, framework, language, runs, passes, failures, last_run_at, last_outcome,
          first_failure_at, last_failure_at, last_success_at
        FROM test_health_daily WHERE ${w.days} ${only}
        ${fromRows}
      ) GROUP BY test_id`,
    query_params: w.params,
    format: "JSONEachRow",
  });
  const rows = await rs.json<HealthRow>();
  const failures = await failuresOf(client, q, w, rows);
  const all = rows.map((r) => toHealth(r, failures.get(r.id) ?? null));
  if (q.summary)
    for (const h of all) Object.assign(h, { firstFailureCommit: null, lastFailureCommit: null, firstFailurePulls: [] });
  return all;
}

/**
 * The figures of the tests of `rows` that failed in the window: the first and last failure's
 * commit (daily states), the commits run on and those with both a passed and a failed run (per
 * commit sums), and whether the latest {@link BROKEN_RUNS} runs all failed — read from the rows of
 * the tests whose latest run failed and that failed that often (the candidates: a handful), since
 * the latest runs of a test do not merge cheaply from daily states. One query: the broken rule is
 * a subquery of the commits' query, not a query of its own.
 */
async function failuresOf(
  client: ClickHouseClient,
  q: HealthQuery,
  w: ReturnType<typeof windowParts>,
  rows: HealthRow[],
): Promise<Map<string, FailureRow>> {
  const out = new Map<string, FailureRow>();
  const failing = rows.filter((r) => Number(r.n_failures) > 0);
  if (failing.length === 0) return out;
  const only = "AND test_id IN {ids:Array(UUID)}";
  const cands = brokenCandidates(failing);
  const params = { ...w.params, ids: failing.map((r) => r.id), cands };
  // Broken: read in the same query (one query's overhead, not two), 0 without candidates.
  const broken = (id: string) => (cands.length === 0 ? "toUInt8(0)" : `toUInt8(${id} IN (${brokenSql}))`);
  const commitRows =
    w.rows === null
      ? ""
      : `UNION ALL SELECT test_id, head_sha, countIf(outcome = 'passed'), countIf(${FAILED})
         FROM test_runs WHERE ${w.rows} ${only} GROUP BY test_id, head_sha`;
  const failureRows =
    w.rows === null
      ? ""
      : `UNION ALL SELECT test_id, argMinIfState(head_sha, received_at, ${FAILED}),
           argMinIfState(pull_requests, received_at, ${FAILED}), argMaxIfState(head_sha, received_at, ${FAILED})
         FROM test_runs WHERE ${w.rows} ${only} GROUP BY test_id`;
  const commits = `SELECT test_id, count() AS n_commits, countIf(p > 0 AND e > 0) AS n_flaky_commits
        FROM (
          SELECT test_id, head_sha, sum(passes) AS p, sum(failures) AS e FROM (
            SELECT test_id, head_sha, passes, failures FROM test_health_commits WHERE ${w.days} ${only}
            ${commitRows}
          ) GROUP BY test_id, head_sha
        ) GROUP BY test_id`;
  // The list's figures: the commits only, not the failures' commit states (docs/ci-insights.md "The list of tests").
  const summary = `SELECT toString(test_id) AS id, n_commits, n_flaky_commits, '' AS failure_commit_first,
      CAST([], 'Array(String)') AS failure_pulls_first, '' AS failure_commit_last, ${broken("test_id")} AS is_broken
      FROM (${commits})`;
  const rs = await client.query({
    query: q.summary
      ? summary
      : `SELECT toString(f.test_id) AS id, c.n_commits AS n_commits, c.n_flaky_commits AS n_flaky_commits,
        f.failure_commit_first AS failure_commit_first, f.failure_pulls_first AS failure_pulls_first,
        f.failure_commit_last AS failure_commit_last, ${broken("f.test_id")} AS is_broken
      FROM (
        SELECT test_id, argMinIfMerge(first_failure_commit) AS failure_commit_first,
          argMinIfMerge(first_failure_pulls) AS failure_pulls_first, argMaxIfMerge(last_failure_commit) AS failure_commit_last
        FROM (
          SELECT test_id, first_failure_commit, first_failure_pulls, last_failure_commit
          FROM test_health_daily WHERE ${w.days} ${only}
          ${failureRows}
        ) GROUP BY test_id
      ) AS f
      LEFT JOIN (${commits}) AS c ON c.test_id = f.test_id`,
    query_params: params,
    format: "JSONEachRow",
  });
  for (const r of await rs.json<FailureRow>()) out.set(r.id, r);
  return out;
}

/**
 * The tests among `failing` that can be broken: their latest run failed and they failed at least
 * {@link BROKEN_RUNS} times in the window (a handful: only their rows are read, {@link brokenSql}).
 */
function brokenCandidates(failing: HealthRow[]): string[] {
  return failing
    .filter(
      (r) => Number(r.n_failures) >= BROKEN_RUNS && (r.last_conclusion === "failed" || r.last_conclusion === "error"),
    )
    .map((r) => r.id);
}

/**
 * The ids of the candidates (`{cands:Array(UUID)}`) whose latest {@link BROKEN_RUNS} runs in the
 * window all failed, read from their rows. Ties at one millisecond sort a failure after a pass
 * (the pass counts as the later), as in health-rows.ts.
 */
const brokenSql = `SELECT test_id FROM test_runs
      WHERE repository = {repo:String} AND branch = {branch:String} AND received_at >= {from:DateTime64(3, 'UTC')}
        AND test_id IN {cands:Array(UUID)}
      GROUP BY test_id
      HAVING arrayAll(x -> x.2 = 1, groupArraySorted(${BROKEN_RUNS})(tuple(-toUnixTimestamp64Milli(received_at), toUInt8(${FAILED}))))`;

/**
 * Failed runs per test and UTC day over the `days` days ending today (UTC), oldest first (the
 * sparkline), for every test of the branch that failed in them (the others: none; not in the
 * map), from the daily states: the window starts at a midnight, so whole days give it exactly.
 * @throws ClickHouseError when the query fails
 */
export async function dailyFailures(
  client: ClickHouseClient,
  repository: string,
  branch: string,
  now: Date,
  days = DAILY_DAYS,
): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const from = new Date(today - (days - 1) * DAY_MS);
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, toString(day) AS on_day, sum(failures) AS failed
            FROM test_health_daily WHERE repository = {repo:String} AND branch = {branch:String}
              AND day >= {from:Date} AND failures > 0
            GROUP BY test_id, day`,
    query_params: { repo: repository, branch, from: from.toISOString().slice(0, 10) },
    format: "JSONEachRow",
  });
  for (const r of await rs.json<{ id: string; on_day: string; failed: string }>()) {
    const index = Math.round((Date.parse(`${r.on_day}T00:00:00Z`) - from.getTime()) / DAY_MS);
    if (index < 0 || index >= days) continue;
    let series = out.get(r.id);
    if (series === undefined) out.set(r.id, (series = new Array<number>(days).fill(0)));
    series[index] = Number(r.failed);
  }
  return out;
}
