/**
 * The benchmark's synthetic activity log, generated inside ClickHouse with
 * `INSERT … SELECT … FROM numbers(N)` (docs/activity-log.md
 * "Benchmark"): N events over `days` days ending at `endMs` (UTC), near-monotonic ids and times.
 * - 1,000 repositories `org<r/10>/repo<r>`, r = floor(1000·u³): `org0/repo0` (the hot repository)
 *   holds 10% of the events, the next ones 2.6%, 1.8%, …
 * - all 47 event types with skewed frequencies (about 10% for the most frequent, 1.3% for the rarest),
 *   queue and pull request types first;
 * - pull request events carry a number from a per-repository pool of concurrent pull requests,
 *   each active for about 13 hours; repository-level types (pause, products, freezes, CI insights,
 *   quarantine, bisection) have no pull request and no base ref;
 * - checks_start / checks_end / bisection events carry a batch pull request number (draft pull
 *   requests, renewed every 2 hours), as the ingest path derives it (docs/activity-log.md "Batch
 *   pull request numbers");
 * - 14 trigger values, two base refs, outcomes following the outcome table for the directly mapped
 *   types (refined types spread over success, failure and neutral), metadata a JSON text of about
 *   200 bytes.
 * Hashes are cityHash64 of the row number, so a run is reproducible.
 */
import { EVENT_TYPES } from "../../services/activity-log/index.js";
import { OUTCOME_RULES } from "../../services/activity-log/index.js";

/** Event types, most frequent first. */
export const TYPES_BY_FREQUENCY: string[] = [
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.post_check",
  "action.label",
  "action.comment",
  "action.queue.change",
  "action.queue.checks.change",
  "command.queue",
  "action.review",
  "action.request_reviews",
  "action.assign",
  "action.update",
  "action.rebase",
  "action.merge",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
  "action.queue.checks_postponed",
  "action.queue.conflict_deferred",
  "command.dequeue",
  "action.dequeue",
  "action.refresh",
  "action.squash",
  "action.edit",
  "action.close",
  "action.copy",
  "action.backport",
  "action.delete_head_branch",
  "action.dismiss_reviews",
  "action.host_actions",
  "action.label.loop_stopped",
  "ci_insights.job_retried",
  "test.quarantined",
  "test.dequarantined",
  "queue.pause.create",
  "queue.pause.update",
  "queue.pause.delete",
  "scheduled_freeze.create",
  "scheduled_freeze.update",
  "scheduled_freeze.delete",
  "product.enabled",
  "product.disabled",
  "ci_insights.auto_quarantine.enabled",
  "ci_insights.auto_quarantine.modified",
  "ci_insights.auto_quarantine.disabled",
];

/** Types without a pull request (repository-level, or batch-level bisection events). */
const REPOSITORY_LEVEL = TYPES_BY_FREQUENCY.filter((t) =>
  /^(ci_insights|test|queue\.pause|scheduled_freeze|product)\.|batch_bisection/.test(t),
);
/** Types with a batch pull request number. */
const BATCH_TYPES = [
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
];

/** The `trigger` values synthetic events draw from. */
export const TRIGGERS = [
  "merge queue internal",
  "Rule: automatic merge",
  "Rule: label",
  "Command: queue",
  "Command: dequeue",
  "API",
  "@ada",
  "@grace",
  "@linus",
  "@margaret",
  "Rule: backport",
  "Rule: assign",
  "@ken",
  "@barbara",
];

const sqlList = (xs: string[]) => `[${xs.map((x) => `'${x.replace(/'/g, "\\'")}'`).join(",")}]`;

/**
 * The INSERT statement generating `n` events into `table`.
 * @param endMs end of the time range (UTC ms, exclusive); events span `days` days before it
 */
export function generateEventsSql(table: string, n: number, endMs: number, days = 30): string {
  if (TYPES_BY_FREQUENCY.length !== EVENT_TYPES.size || !TYPES_BY_FREQUENCY.every((t) => EVENT_TYPES.has(t))) {
    throw new Error("TYPES_BY_FREQUENCY must list each of the 47 event types once");
  }
  const spanMs = days * 86_400_000;
  const startMs = endMs - spanMs;
  const fixed = TYPES_BY_FREQUENCY.map((t) =>
    typeof OUTCOME_RULES[t] === "string" ? (OUTCOME_RULES[t] as string) : OUTCOME_RULES[t] ? "refined" : "neutral",
  );
  return `
INSERT INTO ${table} (id, received_at, repository, trigger, pull_request, base_ref, outcome, type, batch_pull, metadata)
SELECT
  number + 1 AS id,
  fromUnixTimestamp64Milli(toInt64(${startMs} + intDiv(number * ${spanMs}, ${n})), 'UTC') AS received_at,
  concat('org', toString(intDiv(r, 10)), '/repo', toString(r)) AS repository,
  ${sqlList(TRIGGERS)}[1 + toUInt32(floor(${TRIGGERS.length} * pow((cityHash64(number, 4) % 1000000) / 1e6, 2)))] AS trigger,
  if(has(${sqlList(REPOSITORY_LEVEL)}, type), toInt64(-1), toInt64(1 + intDiv(toInt64(received_at_ms - ${startMs}) + slot * 1800000, 46800000) * pool + slot)) AS pull_request,
  if(has(${sqlList(REPOSITORY_LEVEL)}, type), '', if(cityHash64(number, 5) % 10 = 0, 'release/1.x', 'main')) AS base_ref,
  if(fixed_outcome = 'refined', ['success', 'failure', 'neutral', 'success'][1 + cityHash64(number, 6) % 4], fixed_outcome) AS outcome,  -- refined types spread over their outcomes
  type,
  if(has(${sqlList(BATCH_TYPES)}, type), toInt64(1000000 + intDiv(toInt64(received_at_ms - ${startMs}), 7200000) * bpool + cityHash64(number, 7) % bpool), toInt64(-1)) AS batch_pull,
  concat('{"queue_name":"default","priority_rule_name":null,"session_id":"', toString(generateUUIDv4(number)), '","reason":"synthetic event ', toString(number), '","checks":[],"branch":"main"}') AS metadata
FROM (
  SELECT number,
    toUInt32(floor(1000 * pow((cityHash64(number, 1) % 1000000) / 1e6, 3))) AS r,
    ${startMs} + intDiv(number * ${spanMs}, ${n}) AS received_at_ms,
    ${sqlList(TYPES_BY_FREQUENCY)}[1 + toUInt32(floor(47 * pow((cityHash64(number, 2) % 1000000) / 1e6, 1.7)))] AS type,
    ${sqlList(fixed)}[1 + toUInt32(floor(47 * pow((cityHash64(number, 2) % 1000000) / 1e6, 1.7)))] AS fixed_outcome,
    toInt64(1 + floor(2000 * (pow((r + 1) / 1000, 1 / 3) - pow(r / 1000, 1 / 3)))) AS pool,
    toInt64(1 + intDiv(pool, 13)) AS bpool,
    toInt64(cityHash64(number, 3) % pool) AS slot
  FROM numbers(${n})
)`;
}
