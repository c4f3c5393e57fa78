/**
 * `/logs/aggregate` in one scan (docs/activity-log.md "ClickHouse choices"; docs/activity-log.md
 * "Aggregates" rules):
 * - the WHERE clause holds the conditions every count obeys (repository, window, base_ref, event
 *   type, outcome); the three facet filters (trigger, pull request, batch pull request) become
 *   0/1 columns, because each facet of those leaves its own filter out;
 * - one GROUP BY GROUPING SETS computes the histogram buckets and the five facets; `grouping()`
 *   tells the sets apart, and each set counts the rows that pass every filter but its own;
 * - when two or more facet filters are set, rows failing two of them count nowhere and are
 *   dropped before grouping;
 * - zero counts are dropped, and each facet keeps its top 200 by count, ties by value (numbers
 *   numerically, text in byte order) — `LIMIT 200 BY`;
 * - `total` is the sum of the histogram, so it counts exactly the rows `/logs` lists;
 * - over long windows, whole 12-hour periods are read from exact rollups where the filters allow
 *   (rollup-plan.ts), added to the events' counts at the window's ends in the same statement.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { fillHistogram, histogramLayout, type Bucket, type HistogramLayout } from "./histogram.js";
import type { LogFilters, LogWindow } from "./log-filters.js";
import { logPredicates } from "./log-sql.js";
import { rollupPlan, type RollupPlan } from "./rollup-plan.js";

/** Facet lists keep at most this many values (docs/api.md "Limits"). */
export const FACET_LIMIT = 200;

/** One facet value and its number of events (AggregateLogsResponse FacetCount). */
export interface FacetCount {
  value: string;
  count: bigint;
}

/** The aggregate of a request (AggregateLogsResponse, with times in UTC ms). */
export interface LogAggregate {
  total: bigint;
  intervalSeconds: number;
  histogram: Bucket[];
  byEventType: FacetCount[];
  byOutcome: FacetCount[];
  byTrigger: FacetCount[];
  byPullRequest: FacetCount[];
  byBatchPullRequest: FacetCount[];
}

// grouping(bucket, type, outcome, trigger, pull_request, batch_pull): a 1-bit marks a column outside the set.
const SET = { bucket: 31, type: 47, outcome: 55, trigger: 59, pullRequest: 61, batchPull: 62 } as const;

const and = (xs: (string | false | undefined)[]) => {
  const present = xs.filter((x): x is string => typeof x === "string");
  return present.length ? present.join(" AND ") : undefined;
};
const countOf = (cond: string | undefined) => (cond ? `countIf(${cond})` : "count()");
const sumOf = (cond: string | undefined) => (cond ? `sumIf(events, ${cond})` : "sum(events)");
const MIDDLE =
  "period >= toDateTime(intDiv({mid_from:Int64}, 1000), 'UTC') AND period < toDateTime(intDiv({mid_to:Int64}, 1000), 'UTC')";

/**
 * The SQL and parameters of the aggregate of `filters` over `window` (buckets of `layout`), with
 * the counts `plan` assigns to the rollups read from them (rollup-plan.ts).
 */
export function aggregateSql(
  filters: LogFilters,
  window: LogWindow,
  layout: HistogramLayout,
  plan: RollupPlan | null,
): { query: string; params: Record<string, unknown> } {
  const p = logPredicates(filters, window);
  const facet = { t: p.trigger, p: p.pullRequest, b: p.batchPull };
  const active = Object.entries(facet).filter(([, c]) => c !== undefined);
  const flag = (k: "t" | "p" | "b") => (facet[k] ? `f_${k}` : undefined);
  // With a plan, the events count only where a rollup does not: in the partial periods at the ends.
  const edge = (servedByRollup: boolean | undefined) => (plan && servedByRollup ? "e" : undefined);
  const where = [...p.common];
  // A row failing two facet filters is in no facet and in no total.
  if (active.length >= 2) where.push(`(${active.map(([k]) => `f_${k}`).join(" + ")}) >= ${active.length - 1}`);
  const edgeCondition =
    "(received_at < fromUnixTimestamp64Milli({mid_from:Int64}, 'UTC') OR received_at >= fromUnixTimestamp64Milli({mid_to:Int64}, 'UTC'))";
  // Written out (not through the alias) so the primary key skips the middle periods.
  // Everything from the rollups: the events are read at the window's ends only.
  if (plan && plan.dims && plan.pullRequests && plan.batchPulls) where.push(edgeCondition);
  const edgeColumn = plan ? `, toUInt8${edgeCondition} AS e` : "";
  const branches = [
    `
  SELECT grouping(bucket, type, outcome, trigger, pull_request, batch_pull) AS gm,
    multiIf(gm = ${SET.type}, toString(type), gm = ${SET.outcome}, toString(outcome), gm = ${SET.trigger}, toString(trigger), '') AS k,
    multiIf(gm = ${SET.bucket}, bucket, gm = ${SET.pullRequest}, pull_request, gm = ${SET.batchPull}, batch_pull, toInt64(0)) AS n,
    multiIf(gm = ${SET.trigger}, ${countOf(and([flag("p"), flag("b"), edge(plan?.dims)]))},
            gm = ${SET.pullRequest}, ${countOf(and([flag("t"), flag("b"), "pull_request >= 0", edge(plan?.pullRequests)]))},
            gm = ${SET.batchPull}, ${countOf(and([flag("t"), flag("p"), "batch_pull >= 0", edge(plan?.batchPulls)]))},
            ${countOf(and([flag("t"), flag("p"), flag("b"), edge(plan?.dims)]))}) AS c0
  FROM (
    SELECT intDiv(toUnixTimestamp64Milli(received_at) - {first_ms:Int64}, {step_ms:Int64}) AS bucket,
      type, outcome, trigger, pull_request, batch_pull${active.map(([k, c]) => `, toUInt8(${c}) AS f_${k}`).join("")}${edgeColumn}
    FROM events
    WHERE ${where.join(" AND ")}
  )
  GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger), (pull_request), (batch_pull))`,
  ];
  if (plan?.dims) {
    // grouping(bucket, type, outcome, trigger): 7 = (bucket), 11 = (type), 13 = (outcome), 14 = (trigger).
    branches.push(`
  SELECT toUInt64(multiIf(g = 7, ${SET.bucket}, g = 11, ${SET.type}, g = 13, ${SET.outcome}, ${SET.trigger})) AS gm, k, n, c0 FROM (
    SELECT grouping(bucket, type, outcome, trigger) AS g,
      toString(multiIf(g = 11, type, g = 13, outcome, g = 14, trigger, '')) AS k,
      multiIf(g = 7, bucket, toInt64(0)) AS n,
      multiIf(g = 14, sum(events), ${sumOf(p.trigger ? "f_t" : undefined)}) AS c0
    FROM (
      SELECT intDiv(toInt64(toUnixTimestamp(period)) * 1000 - {first_ms:Int64}, {step_ms:Int64}) AS bucket, type, outcome, trigger, events${p.trigger ? `, toUInt8(${p.trigger}) AS f_t` : ""}
      FROM events_rollup_dims
      WHERE ${["repository = {repo:String}", MIDDLE, ...p.dims].join(" AND ")}
    )
    GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger))
  )`);
  }
  if (plan?.pullRequests)
    branches.push(`
  SELECT toUInt64(${SET.pullRequest}) AS gm, '' AS k, pull_request AS n, sum(events) AS c0
  FROM events_rollup_pull_requests WHERE repository = {repo:String} AND ${MIDDLE} GROUP BY pull_request`);
  if (plan?.batchPulls)
    branches.push(`
  SELECT toUInt64(${SET.batchPull}) AS gm, '' AS k, batch_pull AS n, sum(events) AS c0
  FROM events_rollup_batch_pulls WHERE repository = {repo:String} AND ${MIDDLE} GROUP BY batch_pull`);
  const query = `
SELECT gm, k, n, c FROM (
  SELECT gm, k, n, sum(c0) AS c FROM (${branches.join("\n  UNION ALL")}
  ) GROUP BY gm, k, n
)
WHERE c > 0
ORDER BY gm, c DESC, n, k
LIMIT ${FACET_LIMIT} BY gm`;
  const params: Record<string, unknown> = { ...p.params, first_ms: layout.firstStartMs, step_ms: layout.stepMs };
  if (plan) Object.assign(params, { mid_from: plan.middle.fromMs, mid_to: plan.middle.toMs });
  return { query, params };
}

interface Row {
  gm: string;
  k: string;
  n: string;
  c: string;
}

/**
 * Computes the aggregate of `filters` over `window` in one query.
 * @param signal aborts the query (a read past its deadline, aggregate-logs.ts)
 * @throws the ClickHouse client's error when the query fails
 */
export async function aggregateLogs(
  client: ClickHouseClient,
  filters: LogFilters,
  window: LogWindow,
  signal?: AbortSignal,
): Promise<LogAggregate> {
  const layout = histogramLayout(window);
  const out: LogAggregate = {
    total: 0n,
    intervalSeconds: layout.stepMs / 1000,
    histogram: [],
    byEventType: [],
    byOutcome: [],
    byTrigger: [],
    byPullRequest: [],
    byBatchPullRequest: [],
  };
  const buckets = new Map<number, bigint>();
  if (layout.count > 0) {
    const { query, params } = aggregateSql(filters, window, layout, rollupPlan(filters, window, layout));
    const rs = await client.query({ query, query_params: params, format: "JSONEachRow", abort_signal: signal });
    for (const r of await rs.json<Row>()) {
      const count = BigInt(r.c);
      switch (Number(r.gm)) {
        case SET.bucket:
          buckets.set(Number(r.n), count);
          out.total += count;
          break;
        case SET.type:
          out.byEventType.push({ value: r.k, count });
          break;
        case SET.outcome:
          out.byOutcome.push({ value: r.k, count });
          break;
        case SET.trigger:
          out.byTrigger.push({ value: r.k, count });
          break;
        case SET.pullRequest:
          out.byPullRequest.push({ value: r.n, count });
          break;
        case SET.batchPull:
          out.byBatchPullRequest.push({ value: r.n, count });
          break;
      }
    }
  }
  out.histogram = fillHistogram(layout, buckets);
  return out;
}
