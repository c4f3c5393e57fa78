/**
 * What the merge queue asks CI Insights about a failed check (docs/merge-queue.md "Verdicts from
 * test results"; docs/ci-insights.md "For the merge queue"): for each failing job (check) of a
 * commit, whether its test results are stored, awaited (the job reported tests in the health
 * window, none for this commit yet) or never reported; its failing tests (failingTestsOfCheck:
 * quarantine and health on the base branch) with their file; and which of the batch's pull
 * requests failed the same test in their own CI (at their own head SHA). Read only; nothing is
 * decided here: the queue's engine decides with these facts.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import { failingTestsOfCheck, type FailingTest } from "./check-tests.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import { clickHouseTime } from "./test-runs.js";
import { productStates, ciInsightsStore as store } from "../store/index.js";

/** The question (times UTC). */
export interface CheckTestsQuery {
  repository: string;
  /** The base branch of the queue (quarantines and health are read there). */
  baseBranch: string;
  /** The checked commit. */
  headSha: string;
  /** The failing checks (CI jobs) of that commit. */
  jobs: string[];
  /** The batch's pull requests and their own head SHAs (their own CI before the queue). */
  pulls: { number: number; headSha: string }[];
  /** At most this many failing tests per job are read (more: `failingCount` says how many were seen). */
  limit: number;
}

/** Where a failing job's test results stand. */
export type JobResults = "stored" | "awaited" | "none";

/** The answer: per job, its results; the failing tests read; and how many were seen. */
export interface CheckTestsAnswer {
  jobs: { name: string; results: JobResults; failing: number; truncated: boolean }[];
  failing: (FailingTest & { job: string; failedInOwnCi: number[] })[];
}

/** Per job: whether it has runs at this commit, and whether it reported tests in the window at all. */
async function jobResults(client: ClickHouseClient, q: CheckTestsQuery, from: Date): Promise<Map<string, JobResults>> {
  const rs = await client.query({
    query: `SELECT job, max(head_sha = {sha:String}) AS here FROM test_runs
            WHERE repository = {repo:String} AND job IN {jobs:Array(String)}
              AND (head_sha = {sha:String} OR received_at >= {from:DateTime64(3, 'UTC')})
            GROUP BY job`,
    query_params: { repo: q.repository, sha: q.headSha, jobs: q.jobs, from: clickHouseTime(from) },
    format: "JSONEachRow",
  });
  const rows = await rs.json<{ job: string; here: number | string }>();
  const out = new Map<string, JobResults>(q.jobs.map((j) => [j, "none"]));
  for (const r of rows) out.set(r.job, Number(r.here) === 1 ? "stored" : "awaited");
  return out;
}

/** The pull requests whose own head SHA has a failed (or errored) run of each test name. */
async function ownFailures(
  client: ClickHouseClient,
  q: CheckTestsQuery,
  names: string[],
): Promise<Map<string, Set<string>>> {
  const heads = q.pulls.map((p) => p.headSha).filter((h) => h !== q.headSha);
  const out = new Map<string, Set<string>>();
  if (heads.length === 0 || names.length === 0) return out;
  const rs = await client.query({
    query: `SELECT DISTINCT name, head_sha FROM test_runs
            WHERE repository = {repo:String} AND head_sha IN {heads:Array(String)} AND name IN {names:Array(String)}
              AND outcome IN ('failed', 'error')`,
    query_params: { repo: q.repository, heads, names },
    format: "JSONEachRow",
  });
  for (const r of await rs.json<{ name: string; head_sha: string }>()) {
    const set = out.get(r.name) ?? new Set<string>();
    set.add(r.head_sha);
    out.set(r.name, set);
  }
  return out;
}

/**
 * The facts of the module header; null when CI Insights is off for the repository (the queue is
 * then blind to tests). Jobs not in `jobs` are not read.
 */
export async function checkTestFacts(deps: CiInsightsDeps, q: CheckTestsQuery): Promise<CheckTestsAnswer | null> {
  if (!(await productStates(deps.db, q.repository)).ci_insights) return null;
  if (q.jobs.length === 0) return { jobs: [], failing: [] };
  const settings = await store.autoQuarantineSettings(deps.db, q.repository);
  const from = new Date(nowOf(deps).getTime() - settings.windowDays * 86_400_000);
  const results = await jobResults(deps.clickhouse, q, from);
  const jobs: CheckTestsAnswer["jobs"] = [];
  const failing: (FailingTest & { job: string })[] = [];
  for (const name of q.jobs) {
    const state = results.get(name) ?? "none";
    if (state !== "stored") {
      jobs.push({ name, results: state, failing: 0, truncated: false });
      continue;
    }
    const ref = { repository: q.repository, baseBranch: q.baseBranch, job: name, headSha: q.headSha };
    const tests = await failingTestsOfCheck(deps, ref, q.limit + 1);
    jobs.push({ name, results: state, failing: tests.length, truncated: tests.length > q.limit });
    failing.push(...tests.slice(0, q.limit).map((t) => ({ ...t, job: name })));
  }
  const own = await ownFailures(deps.clickhouse, q, [...new Set(failing.map((t) => t.name))]);
  return {
    jobs,
    failing: failing.map((t) => ({
      ...t,
      failedInOwnCi: q.pulls.filter((p) => own.get(t.name)?.has(p.headSha)).map((p) => p.number),
    })),
  };
}
