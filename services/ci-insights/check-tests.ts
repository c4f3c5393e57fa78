/**
 * The read side the merge queue builds on (docs/ci-insights.md "For the merge queue"): the failing
 * tests of one check run — a job (check name) at a head SHA — each with whether a quarantine holds
 * for it on the base branch and its health there. A test failing in the check is its latest
 * execution there, so a test that failed and then passed on a retry of the same check is not
 * failing. At most `limit` failing tests are read (by name), so a build failing thousands of tests
 * reads a bounded answer.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import { testHealth, type HealthStatus } from "./health.js";
import { checkQuarantines } from "./quarantine.js";
import { ciInsightsStore as store } from "../store/index.js";

/** One failing test of a check run. */
export interface FailingTest {
  testId: string;
  name: string;
  /** The test's file as its report named it ("" when it did not). */
  file: string;
  quarantined: boolean;
  quarantineId: string | null;
  /** Health on the base branch; "unknown" when it never ran there in the window. */
  health: HealthStatus | "unknown";
  flakinessRatio: number;
  failureMessage: string;
}

/** What identifies a check run. */
export interface CheckRunRef {
  repository: string;
  baseBranch: string;
  /** The check's (job's) name. */
  job: string;
  headSha: string;
}

/** The default bound of {@link failingTestsOfCheck}. */
export const FAILING_TESTS_LIMIT = 1000;

async function failingOf(client: ClickHouseClient, c: CheckRunRef, limit: number) {
  const rs = await client.query({
    query: `SELECT toString(test_id) AS id, any(name) AS test_name, any(file) AS test_file,
              toString(argMax(outcome, received_at)) AS last, argMax(failure_message, received_at) AS message
            FROM test_runs WHERE repository = {repo:String} AND job = {job:String} AND head_sha = {sha:String}
            GROUP BY test_id HAVING last IN ('failed', 'error') ORDER BY test_name LIMIT {limit:UInt32}`,
    query_params: { repo: c.repository, job: c.job, sha: c.headSha, limit },
    format: "JSONEachRow",
  });
  const rows = await rs.json<{ id: string; test_name: string; test_file: string; message: string }>();
  return rows.map((r) => ({ test_id: r.id, name: r.test_name, file: r.test_file, message: r.message }));
}

/** The failing tests of the check run (the first `limit` by name), with quarantine and base-branch health. */
export async function failingTestsOfCheck(
  deps: CiInsightsDeps,
  c: CheckRunRef,
  limit = FAILING_TESTS_LIMIT,
): Promise<FailingTest[]> {
  const failing = await failingOf(deps.clickhouse, c, limit);
  if (failing.length === 0) return [];
  const { byName } = await checkQuarantines(
    deps,
    c.repository,
    failing.map((f) => f.name),
    c.baseBranch,
  );
  const settings = await store.autoQuarantineSettings(deps.db, c.repository);
  const health = await testHealth(deps.clickhouse, {
    repository: c.repository,
    branch: c.baseBranch,
    from: new Date(nowOf(deps).getTime() - settings.windowDays * 86_400_000),
    testIds: failing.map((f) => f.test_id),
  });
  const byId = new Map(health.map((h) => [h.testId, h]));
  return failing.map((f) => {
    const q = byName.get(f.name) ?? null;
    const h = byId.get(f.test_id);
    return {
      testId: f.test_id,
      name: f.name,
      file: f.file,
      quarantined: q !== null,
      quarantineId: q?.id ?? null,
      health: h?.status ?? "unknown",
      flakinessRatio: h?.flakinessRatio ?? 0,
      failureMessage: f.message,
    };
  });
}
