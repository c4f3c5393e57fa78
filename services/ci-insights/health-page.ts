/**
 * The list of tests by health and its pages (docs/ci-insights.md "The list of tests"): what the
 * Tests page and `yardmaster tests list` read. The list is every test run on the branch over the
 * window, with the list's figures (health.ts in summary mode: without the failures' commits and
 * pull requests), in the list's order — broken, flaky, healthy; then the failure ratio, highest
 * first; then the name; then the test id — and the number of tests per status. It is computed
 * by one aggregate pass (health.ts), with the failing tests' failures per UTC day (the
 * sparkline), and kept between reads (kept-health.ts, docs/ci-insights.md
 * "How fresh the list is"); a page is cut from it here, in Node, without a query.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import type { HealthQuery, HealthStatus, TestHealth } from "./health-figures.js";
import { DAILY_DAYS, dailyFailures, testHealth } from "./health.js";

/** The number of tests per health status on the branch over the window. */
export type HealthTotals = Record<HealthStatus, number>;

/** Every test of a branch over a window, in list order, with the totals per status. */
export interface HealthList {
  repository: string;
  branch: string;
  /** The window's start, UTC, to the millisecond (its end: when the list was computed). */
  from: Date;
  /** In list order ({@link listOrder}), the list's figures (`HealthQuery.summary`). */
  tests: TestHealth[];
  totals: HealthTotals;
  /**
   * Failed runs per UTC day over the {@link DAILY_DAYS} days ending on the list's computation day,
   * oldest first, of the tests that failed in them ({@link failuresPerDay} for any test).
   */
  daily: Map<string, number[]>;
}

/** A test's failures per UTC day in `list` (the sparkline): zeros when it did not fail. */
export function failuresPerDay(list: HealthList, testId: string): number[] {
  return list.daily.get(testId) ?? new Array<number>(DAILY_DAYS).fill(0);
}

/** A page of the list: `offset` tests of the ordered (and filtered) list skipped, `limit` at most taken. */
export interface PageQuery {
  /** The statuses listed (empty: all). */
  statuses: readonly HealthStatus[];
  offset: number;
  limit: number;
}

/** The page's tests in list order, the totals per status (whatever the filter), and where the next page starts. */
export interface HealthPage {
  tests: TestHealth[];
  totals: HealthTotals;
  /** Tests the filter lists, all pages together. */
  listed: number;
  /** The next page's offset; null on the last page. */
  nextOffset: number | null;
}

const RANK: Record<HealthStatus, number> = { broken: 0, flaky: 1, healthy: 2 };

/** The list's order (see the module comment). */
export function listOrder(x: TestHealth, y: TestHealth): number {
  return (
    RANK[x.status] - RANK[y.status] ||
    y.failureRatio - x.failureRatio ||
    (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) ||
    (x.testId < y.testId ? -1 : x.testId > y.testId ? 1 : 0)
  );
}

/**
 * Computes the list of every test run on the branch since `q.from` (`q.testIds` and `q.summary`
 * are ignored: all tests, the list's figures): one health computation (health.ts), ordered and
 * counted in Node, and the failures per UTC day up to `now`'s day (UTC) of the tests that failed.
 * @throws ClickHouseError when a query fails
 */
export async function healthList(client: ClickHouseClient, q: HealthQuery, now: Date): Promise<HealthList> {
  const [all, daily] = await Promise.all([
    testHealth(client, { repository: q.repository, branch: q.branch, from: q.from, summary: true }),
    dailyFailures(client, q.repository, q.branch, now),
  ]);
  const tests = all.sort(listOrder);
  const totals: HealthTotals = { broken: 0, flaky: 0, healthy: 0 };
  for (const h of tests) totals[h.status]++;
  return { repository: q.repository, branch: q.branch, from: q.from, tests, totals, daily };
}

/** Cuts a page from `list` (the statuses filtered, then `offset` skipped and `limit` taken). */
export function cutPage(list: HealthList, q: PageQuery): HealthPage {
  const listed = q.statuses.length === 0 ? list.tests : list.tests.filter((h) => q.statuses.includes(h.status));
  const end = q.offset + q.limit;
  return {
    tests: listed.slice(q.offset, end),
    totals: { ...list.totals },
    listed: listed.length,
    nextOffset: end < listed.length ? end : null,
  };
}
