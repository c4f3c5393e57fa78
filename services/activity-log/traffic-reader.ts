/**
 * Reads a repository's recorded queue traffic from the activity log (docs/what-if.md "What is
 * read"): the queue events of one base branch in a window, with the few metadata fields the
 * what-if needs extracted by ClickHouse (the metadata text itself never leaves the store), turned
 * into traffic and observed figures by traffic-figures.ts. The read has the deadline of every log
 * read (log-lag.ts).
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { readWithDeadline, type LogLagDeps } from "./log-lag.js";
import { trafficFigures, type RecordedTraffic, type TrafficRow } from "./traffic-figures.js";

/** The window and branch to read. Times are epoch milliseconds UTC, `toMs` exclusive. */
export interface TrafficWindow {
  repository: string;
  fromMs: number;
  toMs: number;
  /** The base branch; null: the branch with the most arrivals in the window ("" when none). */
  branch: string | null;
}

const TYPES = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.batch_bisection_start",
  "ci_insights.job_retried",
];

const WINDOW = `repository = {repo:String}
  AND received_at >= fromUnixTimestamp64Milli({from_ms:Int64}, 'UTC')
  AND received_at < fromUnixTimestamp64Milli({to_ms:Int64}, 'UTC')`;

async function busiestBranch(client: ClickHouseClient, w: TrafficWindow, signal: AbortSignal): Promise<string> {
  const rs = await client.query({
    query: `SELECT base_ref FROM events WHERE ${WINDOW} AND type = 'action.queue.enter'
            GROUP BY base_ref ORDER BY count() DESC, base_ref LIMIT 1`,
    query_params: { repo: w.repository, from_ms: w.fromMs, to_ms: w.toMs },
    format: "JSONEachRow",
    abort_signal: signal,
  });
  return (await rs.json<{ base_ref: string }>())[0]?.base_ref ?? "";
}

interface Row {
  ms: string;
  id: string;
  type: string;
  pr: string;
  dequeue_code: string;
  queued_at: string;
  batch_id: string;
  batch_name: string;
  members: string[];
  aborted: boolean | number;
  abort_code: string;
  conclusion: string;
  started_at: string;
  ended_at: string;
  ignored: string;
  retry_rule: string;
  retry_outcome: string;
}

const toRow = (r: Row): TrafficRow => ({
  at: Number(r.ms),
  type: r.type,
  pullRequest: Number(r.pr),
  dequeueCode: r.dequeue_code,
  queuedAt: r.queued_at === "" ? null : Date.parse(r.queued_at),
  batchId: r.batch_id,
  batchName: r.batch_name,
  members: r.members.map(Number),
  aborted: Boolean(r.aborted),
  abortCode: r.abort_code,
  conclusion: r.conclusion,
  startedAt: r.started_at === "" ? null : Date.parse(r.started_at),
  endedAt: r.ended_at === "" ? null : Date.parse(r.ended_at),
  ignoredTests: Number(r.ignored),
  retryRule: r.retry_rule,
  retryOutcome: r.retry_outcome,
});

/**
 * The recorded traffic of a repository's queue on one base branch over a window.
 * @throws DatabaseUnavailableError ("ClickHouse") past the read deadline or when ClickHouse does
 *   not answer
 */
export async function readRecordedTraffic(
  client: ClickHouseClient,
  window: TrafficWindow,
  deps: LogLagDeps = {},
): Promise<RecordedTraffic> {
  return readWithDeadline(deps, async (signal) => {
    const branch = window.branch ?? (await busiestBranch(client, window, signal));
    const rs = await client.query({
      query: `SELECT toUnixTimestamp64Milli(received_at) AS ms, toString(id) AS id, toString(type) AS type,
                toString(pull_request) AS pr,
                JSONExtractString(metadata, 'dequeue_code') AS dequeue_code,
                JSONExtractString(metadata, 'queued_at') AS queued_at,
                JSONExtractString(metadata, 'batch_id') AS batch_id,
                JSONExtractString(metadata, 'batch_name') AS batch_name,
                arrayMap(x -> toString(x), JSONExtract(metadata, 'pull_request_numbers', 'Array(Int64)')) AS members,
                JSONExtractBool(metadata, 'aborted') AS aborted,
                JSONExtractString(metadata, 'abort_code') AS abort_code,
                JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_conclusion') AS conclusion,
                JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_started_at') AS started_at,
                JSONExtractString(metadata, 'speculative_check_pull_request', 'checks_ended_at') AS ended_at,
                toString(JSONLength(metadata, 'ignored_failing_tests')) AS ignored,
                JSONExtractString(metadata, 'rule_name') AS retry_rule,
                JSONExtractString(metadata, 'outcome') AS retry_outcome
              FROM events
              WHERE ${WINDOW} AND base_ref = {branch:String} AND type IN {types:Array(String)}
              ORDER BY received_at, id`,
      query_params: { repo: window.repository, from_ms: window.fromMs, to_ms: window.toMs, branch, types: TYPES },
      format: "JSONEachRow",
      abort_signal: signal,
    });
    const rows = (await rs.json<Row>()).map(toRow);
    // Every round the repository logged anything in (any event type), for the draft time.
    const is = await client.query({
      query: `SELECT toUnixTimestamp64Milli(received_at) AS at, countIf(type != 'action.queue.checks_start') AS others
              FROM events WHERE ${WINDOW} GROUP BY received_at ORDER BY received_at`,
      query_params: { repo: window.repository, from_ms: window.fromMs, to_ms: window.toMs },
      format: "JSONEachRow",
      abort_signal: signal,
    });
    const instants = (await is.json<{ at: string; others: string }>()).map((r) => ({
      at: Number(r.at),
      others: Number(r.others),
    }));
    return trafficFigures(rows, { branch, fromMs: window.fromMs, toMs: window.toMs }, instants);
  });
}
