/**
 * The test reads of CiInsightsService (docs/ci-insights.md "Health"): search, one test's details,
 * the list by health with failures per day, one test's runs. Health is computed on a branch (the
 * repository's default branch unless one is asked) over the repository's window
 * (auto-quarantine settings, default 14 days).
 */
import { DomainError, invalidField } from "../contracts/index.js";
import { ciInsightsStore as store } from "../store/index.js";
import { defaultBranchOf, nowOf, type CiInsightsDeps } from "./deps.js";
import { cutPage, failuresPerDay, healthList, type HealthTotals } from "./health-page.js";
import { testHealth, type HealthStatus, type TestHealth } from "./health.js";
import { holds } from "./quarantine.js";
import { runsOfTest, searchTests, type TestRunRow, type TestSearch } from "./test-runs.js";

/** The window health is computed over, in days (auto-quarantine settings). */
async function windowDays(deps: CiInsightsDeps, repository: string): Promise<number> {
  return (await store.autoQuarantineSettings(deps.db, repository)).windowDays;
}

/** The window health is computed over, as a start instant. */
async function windowStart(deps: CiInsightsDeps, repository: string): Promise<Date> {
  return new Date(nowOf(deps).getTime() - (await windowDays(deps, repository)) * 86_400_000);
}

/** Tests matching a search. */
export function findTests(deps: CiInsightsDeps, repository: string, search: TestSearch) {
  return searchTests(deps.clickhouse, repository, search);
}

/** The quarantine in force for a test name on a branch. */
async function quarantineOf(deps: CiInsightsDeps, repository: string, name: string, branch: string) {
  const q = await store.findQuarantineByName(deps.db, repository, name);
  return q !== null && holds(q, nowOf(deps)) && (q.branch === null || q.branch === branch) ? q : null;
}

/**
 * One test's health on `branch` (default branch when null), its first failure's pull request and
 * its quarantine. A test with no run in the window on that branch is computed over every run the
 * table holds for it on the branch (90 days).
 * @throws DomainError not_found for a test id without runs on the branch
 */
export async function testDetails(deps: CiInsightsDeps, repository: string, testId: string, branch: string | null) {
  const b = branch ?? (await defaultBranchOf(deps, repository));
  let [h] = await testHealth(deps.clickhouse, {
    repository,
    branch: b,
    from: await windowStart(deps, repository),
    testIds: [testId],
  });
  h ??= (await testHealth(deps.clickhouse, { repository, branch: b, from: new Date(0), testIds: [testId] }))[0];
  if (h === undefined) {
    // A test that only ran on other branches: its details on the branch it ran on last.
    const [last] = await runsOfTest(deps.clickhouse, repository, testId, 1);
    if (last === undefined || branch !== null)
      throw new DomainError("not_found", `no test ${testId} in ${repository} on ${b}`);
    return testDetails(deps, repository, testId, last.branch);
  }
  const pullNumber = h.firstFailurePulls[0];
  const pull =
    pullNumber === undefined ? null : ((await deps.describePull?.(repository, pullNumber).catch(() => null)) ?? null);
  return { health: h, branch: b, pull, quarantine: await quarantineOf(deps, repository, h.name, b) };
}

/**
 * The page token of the list: the offset of the page's first test in the ordered list, as
 * `o<offset>` in base64url. An offset, not a key: runs stored between two pages may move a test
 * across the page boundary (docs/ci-insights.md "The list of tests").
 */
export const pageToken = {
  encode: (offset: number): string => Buffer.from(`o${offset}`).toString("base64url"),
  /** @throws InvalidArgumentError naming page_token for a token this list did not give */
  decode(token: string): number {
    if (token === "") return 0;
    const m = /^o(\d{1,9})$/.exec(Buffer.from(token, "base64url").toString("latin1"));
    if (m === null) throw invalidField("page_token", "is not a page token of this list (use next_page_token as given)");
    return Number(m[1]);
  },
};

/**
 * A page of the list: tests by health, worst first (health-page.ts), with failures per UTC day
 * and quarantines for the page's tests, and the totals per status over every test of the branch.
 * The page is cut from the list kept between reads (kept-health.ts; docs/ci-insights.md "How
 * fresh the list is"), failures per day included; quarantines are read now.
 * @throws InvalidArgumentError naming page_token for a malformed token
 */
export async function listTests(
  deps: CiInsightsDeps,
  repository: string,
  branch: string | null,
  statuses: readonly HealthStatus[],
  limit: number,
  token = "",
): Promise<{
  branch: string;
  tests: { health: TestHealth; daily: number[]; quarantine: store.QuarantineRow | null }[];
  totals: HealthTotals;
  nextPageToken: string;
}> {
  const offset = pageToken.decode(token);
  const b = branch ?? (await defaultBranchOf(deps, repository));
  const days = await windowDays(deps, repository);
  const now = nowOf(deps);
  const list = deps.keptHealth
    ? await deps.keptHealth.list({ repository, branch: b, windowDays: days })
    : await healthList(
        deps.clickhouse,
        { repository, branch: b, from: new Date(now.getTime() - days * 86_400_000) },
        now,
      );
  const page = cutPage(list, { statuses, offset, limit });
  const quarantines = new Map(
    (await store.listQuarantines(deps.db, repository))
      .filter((q) => holds(q, now) && (q.branch === null || q.branch === b))
      .map((q) => [q.testName, q]),
  );
  return {
    branch: b,
    tests: page.tests.map((h) => ({
      health: h,
      daily: failuresPerDay(list, h.testId),
      quarantine: quarantines.get(h.name) ?? null,
    })),
    totals: page.totals,
    nextPageToken: page.nextOffset === null ? "" : pageToken.encode(page.nextOffset),
  };
}

/** A test's latest runs on every branch, newest first. */
export function testRuns(
  deps: CiInsightsDeps,
  repository: string,
  testId: string,
  limit: number,
): Promise<TestRunRow[]> {
  return runsOfTest(deps.clickhouse, repository, testId, limit);
}
