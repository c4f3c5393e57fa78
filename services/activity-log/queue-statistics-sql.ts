/**
 * The SQL of the queue statistics (docs/activity-log.md "Queue statistics"): ClickHouse computes
 * every figure from the queue events of a window, per bucket and for the whole window (GROUPING
 * SETS), and answers at most one row per bucket; no event row reaches Node. The definitions are
 * those of the what-if's recorded traffic (traffic-figures.ts) and of `yardmaster replay`'s report
 * (docs/replay.md "The report"):
 * - a merge is a leave with PR_MERGED or PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED; its time in queue
 *   runs from the leave's `queued_at` to the leave;
 * - a CI run is the `checks_start` of a batch's first member (one per check: retries and
 *   sub-batches included); its CI time is the `checks_end` of that member, from
 *   `checks_started_at` to `checks_ended_at` (the event's time when absent);
 * - a run concluded when that `checks_end` is not aborted and its conclusion is success, failure or
 *   timed_out; it failed when not success; it was flaky when it failed and none of its pull
 *   requests broke the build — left with CHECKS_FAILED or DROPPED_BY_BISECTION_ELIMINATION, or
 *   failed a check alone — from the window's start to now (a culprit found after the window still
 *   counts);
 * - a bisection is a distinct `batch_id` of `batch_bisection_start`;
 * - the queue depth moves +1 on each `enter` and -1 on each `leave`; the depth before the window
 *   is summed from the exact 12-hour rollups (events_rollup_dims) and the events of the partial
 *   period before the window's start.
 */
import type { LogWindow } from "./log-filters.js";
import type { HistogramLayout } from "./histogram.js";

const ENTER = "action.queue.enter";
const LEAVE = "action.queue.leave";

/** Leave codes of a merge. */
export const MERGED_CODES = ["PR_MERGED", "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED"];
/** Leave codes that name a culprit: the pull request broke the build. */
export const CULPRIT_CODES = ["CHECKS_FAILED", "DROPPED_BY_BISECTION_ELIMINATION"];

/** 12 hours, the rollups' period (0003_rollups.sql). */
export const ROLLUP_PERIOD_MS = 12 * 3_600_000;

/** The parameters every statement takes. */
export function statisticsParams(
  repository: string,
  branch: string | null,
  window: LogWindow,
  layout: HistogramLayout,
): Record<string, unknown> {
  return {
    repo: repository,
    branch: branch ?? "",
    from_ms: window.fromMs,
    to_ms: window.toMs,
    first_ms: layout.firstStartMs,
    step_ms: layout.stepMs,
    period_ms: Math.floor(window.fromMs / ROLLUP_PERIOD_MS) * ROLLUP_PERIOD_MS,
    merged: MERGED_CODES,
    culprits: CULPRIT_CODES,
  };
}

const REPO_BRANCH = "repository = {repo:String} AND ({branch:String} = '' OR base_ref = {branch:String})";
const IN_WINDOW = `received_at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')
    AND received_at < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')`;
const BUCKET = "intDiv(toUnixTimestamp64Milli(received_at) - {first_ms:Int64}, {step_ms:Int64})";
const MEMBERS = "JSONExtract(metadata, 'pull_request_numbers', 'Array(Int64)')";
const CONCLUSION = "JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_conclusion')";
const ABORTED = "JSONExtractBool(metadata, 'aborted')";
const time = (path: string) => `parseDateTime64BestEffortOrNull(nullIf(${path}, ''), 3, 'UTC')`;

/**
 * The figures per bucket (`g` = 0) and for the whole window (`g` = 1), one row each: counts, CI
 * milliseconds, and the time-in-queue quantiles in milliseconds (nearest rank; null without a merge).
 */
export const FIGURES_SQL = `
WITH (
  SELECT groupUniqArray(pull_request) FROM events
  WHERE ${REPO_BRANCH} AND received_at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC') AND (
    (type = '${LEAVE}' AND JSONExtractString(metadata, 'dequeue_code') IN {culprits:Array(String)})
    OR (type = 'action.queue.checks_end' AND NOT ${ABORTED} AND length(${MEMBERS}) = 1
        AND ${CONCLUSION} IN ('failure', 'timed_out')))
) AS bad
SELECT grouping(bucket) AS g, bucket,
  countIf(merged) AS merges,
  arraySort(groupArrayIf(wait_ms, merged AND wait_ms IS NOT NULL)) AS waits,
  if(empty(waits), NULL, waits[toUInt64(greatest(1, ceil(0.5 * length(waits))))]) AS p50_ms,
  if(empty(waits), NULL, waits[toUInt64(greatest(1, ceil(0.9 * length(waits))))]) AS p90_ms,
  countIf(t = 'action.queue.checks_start' AND is_first) AS ci_runs,
  sumIf(ci_ms, t = 'action.queue.checks_end' AND is_first) AS ci_ms,
  countIf(concluded) AS concluded_runs,
  countIf(concluded AND conclusion != 'success') AS failed_runs,
  countIf(concluded AND conclusion != 'success' AND NOT hasAny(members, bad)) AS flaky_runs,
  uniqExactIf(batch_id, t = 'action.queue.batch_bisection_start' AND batch_id != '') AS bisections,
  countIf(t = '${LEAVE}' AND NOT merged) AS removals
FROM (
  SELECT ${BUCKET} AS bucket, toString(type) AS t, pull_request,
    t = '${LEAVE}' AND JSONExtractString(metadata, 'dequeue_code') IN {merged:Array(String)} AS merged,
    toUnixTimestamp64Milli(received_at) - toUnixTimestamp64Milli(${time("JSONExtractString(metadata, 'queued_at')")}) AS wait_ms,
    ${MEMBERS} AS members,
    notEmpty(members) AND members[1] = pull_request AS is_first,
    ${CONCLUSION} AS conclusion,
    t = 'action.queue.checks_end' AND is_first AND NOT ${ABORTED}
      AND conclusion IN ('success', 'failure', 'timed_out') AS concluded,
    greatest(0, toUnixTimestamp64Milli(coalesce(${time("JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_ended_at')")}, received_at))
      - toUnixTimestamp64Milli(coalesce(${time("JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_started_at')")}, received_at))) AS ci_ms,
    JSONExtractString(metadata, 'batch_id') AS batch_id
  FROM events
  WHERE ${REPO_BRANCH} AND ${IN_WINDOW}
    AND type IN ('${ENTER}', '${LEAVE}', 'action.queue.checks_start', 'action.queue.checks_end',
                 'action.queue.batch_bisection_start')
)
GROUP BY GROUPING SETS ((bucket), ())`;

/** The queue depth just before the window: enters minus leaves, from the rollups and the partial period. */
export const DEPTH_BEFORE_SQL = `
SELECT (
  SELECT sumIf(events, type = '${ENTER}') - sumIf(events, type = '${LEAVE}') FROM events_rollup_dims
  WHERE ${REPO_BRANCH} AND type IN ('${ENTER}', '${LEAVE}')
    AND period < toDateTime(intDiv({period_ms:Int64}, 1000), 'UTC')
) + (
  SELECT countIf(type = '${ENTER}') - countIf(type = '${LEAVE}') FROM events
  WHERE ${REPO_BRANCH} AND type IN ('${ENTER}', '${LEAVE}')
    AND received_at >= fromUnixTimestamp64Milli({period_ms:Int64}, 'UTC')
    AND received_at < fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')
) AS depth`;

/**
 * Per bucket with enters or leaves: the change of depth over the bucket and the highest running
 * change within it (relative to the depth before the window; the caller adds it).
 */
export const DEPTH_SQL = `
SELECT bucket, argMax(running, (received_at, id)) AS change_end, max(running) AS change_max
FROM (
  SELECT ${BUCKET} AS bucket, received_at, id,
    sum(if(type = '${ENTER}', 1, -1)) OVER (ORDER BY received_at, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
  FROM events
  WHERE ${REPO_BRANCH} AND ${IN_WINDOW} AND type IN ('${ENTER}', '${LEAVE}')
)
GROUP BY bucket ORDER BY bucket`;

/** Leaves without a merge in the window, by dequeue code, most first. */
export const REMOVALS_SQL = `
SELECT JSONExtractString(metadata, 'dequeue_code') AS code, count() AS n
FROM events
WHERE ${REPO_BRANCH} AND ${IN_WINDOW} AND type = '${LEAVE}'
  AND code NOT IN {merged:Array(String)}
GROUP BY code ORDER BY n DESC, code`;
