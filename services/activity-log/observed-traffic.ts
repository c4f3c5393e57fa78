/**
 * A repository's observed queue traffic over a window of its activity log, for the self-tuning
 * default (docs/self-tuning.md): the arrival rate (`action.queue.enter` per hour), the median CI
 * duration of the check attempts that concluded (`action.queue.checks_end` not aborted, from
 * `speculative_check_pull_request.checks_started_at` to `checks_ended_at`) and the failure rate
 * (pull requests that left as culprits, `CHECKS_FAILED`, `CHECKS_TIMEOUT` or
 * `DROPPED_BY_BISECTION_ELIMINATION`, over those that merged or left so).
 */
import type { TrafficCounts } from "../engine/index.js";
import type { ClickHouseClient } from "./clickhouse-client.js";

const CULPRIT_CODES = ["CHECKS_FAILED", "CHECKS_TIMEOUT", "DROPPED_BY_BISECTION_ELIMINATION"];

/**
 * Reads the traffic of `repository` from `from` (inclusive) to `to` (exclusive), both UTC.
 * @throws whatever the ClickHouse client throws (the caller keeps its last settings)
 */
export async function readTrafficSample(
  client: ClickHouseClient,
  repository: string,
  from: Date,
  to: Date,
  signal?: AbortSignal,
): Promise<TrafficCounts> {
  const started =
    "parseDateTime64BestEffortOrNull(JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_started_at'), 3)";
  const ended =
    "parseDateTime64BestEffortOrNull(JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_ended_at'), 3)";
  const concluded = `type = 'action.queue.checks_end' AND NOT JSONExtractBool(metadata, 'aborted') AND ${started} IS NOT NULL AND ${ended} IS NOT NULL`;
  const rs = await client.query({
    query: `SELECT
        countIf(type = 'action.queue.enter') AS arrivals,
        countIf(type = 'action.queue.leave' AND JSONExtractBool(metadata, 'merged')) AS merged,
        countIf(type = 'action.queue.leave' AND JSONExtractString(metadata, 'dequeue_code') IN {codes:Array(String)}) AS failed,
        countIf(${concluded}) AS checks,
        quantileExactIf(0.5)(toFloat64(dateDiff('millisecond', ${started}, ${ended})), ${concluded}) AS median_ms
      FROM events
      WHERE repository = {repo:String}
        AND received_at >= fromUnixTimestamp64Milli({from:Int64}, 'UTC')
        AND received_at < fromUnixTimestamp64Milli({to:Int64}, 'UTC')
        AND type IN ('action.queue.enter', 'action.queue.leave', 'action.queue.checks_end')`,
    query_params: { repo: repository, from: from.getTime(), to: to.getTime(), codes: CULPRIT_CODES },
    format: "JSONEachRow",
    abort_signal: signal,
  });
  const [row] = await rs.json<{
    arrivals: string;
    merged: string;
    failed: string;
    checks: string;
    median_ms: number;
  }>();
  const checks = Number(row?.checks ?? 0);
  return {
    arrivals: Number(row?.arrivals ?? 0),
    merged: Number(row?.merged ?? 0),
    failed: Number(row?.failed ?? 0),
    concludedChecks: checks,
    medianCiSeconds: checks > 0 ? Number(row!.median_ms) / 1000 : null,
    hours: (to.getTime() - from.getTime()) / 3_600_000,
  };
}
