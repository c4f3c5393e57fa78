/**
 * One page of the list of tests by health, and the number of tests per health status
 * (docs/ci-insights.md "The list of tests"): what the Tests page and `yardmaster tests list` read.
 * The whole set never crosses into Node as rows of figures: one aggregate (compact: one row)
 * gives the tests that failed in the window — the only ones that can be broken, flaky, or have a
 * failure ratio above 0 — the count of the others, and the others the page may need, in name
 * order (all healthy with a failure ratio of 0); the health of the failing ones and of those is
 * computed (health.ts), ordered and cut here. Order: broken, flaky, healthy; then the failure
 * ratio, highest first; then the name; then the test id.
 */
import type { ClickHouseClient } from "../activity-log/index.js";
import { FAILED, type HealthQuery, type HealthStatus, type TestHealth } from "./health-figures.js";
import { testHealth, windowParts } from "./health.js";

/** The number of tests per health status on the branch over the window. */
export type HealthTotals = Record<HealthStatus, number>;

/** A page of the list: `offset` tests of the ordered (and filtered) list skipped, `limit` at most taken. */
export interface HealthPageQuery extends Omit<HealthQuery, "testIds"> {
  /** The statuses listed (empty: all). */
  statuses: readonly HealthStatus[];
  offset: number;
  limit: number;
}

/**
 * The page's tests in list order (the list's figures: without the failures' commits and pull
 * requests, `HealthQuery.summary`), the totals per status (whatever the filter), and where the
 * next page starts.
 */
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

/** Failures per test over the window, from the daily states and the rows of the window's first part-day. */
function failuresPerTest(w: ReturnType<typeof windowParts>): string {
  const rows =
    w.rows === null
      ? ""
      : `UNION ALL SELECT test_id, any(name), countIf(${FAILED}) FROM test_runs WHERE ${w.rows} GROUP BY test_id`;
  return `SELECT test_id, any(name) AS test_name, sum(failures) AS n_failed FROM (
      SELECT test_id, name, failures FROM test_health_daily WHERE ${w.days}
      ${rows}
    ) GROUP BY test_id`;
}

/**
 * A page of the tests run on the branch since `q.from`, and the totals per status. Two reads: one
 * aggregate (a single row) gives the failing tests, the number of the others and the slice of the
 * others, in name order, that the page may need (its first test can come no earlier than `offset`
 * minus the failing tests); then the health of the failing tests and of that slice in one
 * computation (health.ts), which the page is cut from.
 * @throws ClickHouseError when a query fails
 */
export async function healthPage(client: ClickHouseClient, q: HealthPageQuery): Promise<HealthPage> {
  const w = windowParts(q);
  const survey = await client.query({
    query: `SELECT countIf(n_failed = 0), groupArrayIf(toString(test_id), n_failed > 0),
        greatest(0, {offset:Int64} - countIf(n_failed > 0)) AS slice_start,
        arrayMap(x -> x.2, arraySlice(arraySort(groupArrayIf((test_name, toString(test_id)), n_failed = 0)),
          slice_start + 1, {offset:Int64} + {limit:Int64} - slice_start))
      FROM (${failuresPerTest(w)})`,
    query_params: { ...w.params, offset: q.offset, limit: q.limit },
    format: "JSONCompactEachRow",
  });
  const [[cleanCount, failingIds, sliceStart, slice] = ["0", [], "0", []]] =
    await survey.json<[string, string[], string, string[]]>();
  const clean = Number(cleanCount);
  const ids = [...failingIds, ...slice];
  const byId = new Map(
    ids.length === 0 ? [] : (await testHealth(client, { ...q, testIds: ids, summary: true })).map((h) => [h.testId, h]),
  );
  const failing = failingIds.flatMap((id) => byId.get(id) ?? []).sort(listOrder);
  const totals: HealthTotals = { broken: 0, flaky: 0, healthy: clean };
  for (const h of failing) totals[h.status]++;

  const wanted = (s: HealthStatus) => q.statuses.length === 0 || q.statuses.includes(s);
  const listedFailing = failing.filter((h) => wanted(h.status));
  const withClean = wanted("healthy");
  const listed = listedFailing.length + (withClean ? clean : 0);
  const tests = listedFailing.slice(q.offset, q.offset + q.limit);
  const room = q.limit - tests.length;
  if (withClean && room > 0) {
    // The clean tests' positions in name order: the page needs [skip, skip + room); the slice
    // read starts at sliceStart ≤ skip (fewer failing tests listed than failing tests).
    const skip = Math.max(0, q.offset - listedFailing.length);
    const from = skip - Number(sliceStart);
    tests.push(...slice.slice(from, from + room).flatMap((id) => byId.get(id) ?? []));
  }
  const end = q.offset + q.limit;
  return { tests, totals, listed, nextOffset: end < listed ? end : null };
}
