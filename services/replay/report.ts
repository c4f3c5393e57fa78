/**
 * The replay's report (pure; docs/replay.md "The report"), from the plan, the tracker and the
 * run's activity log:
 * - merged / merged with a later pull request / dequeued (with their dequeue codes) / not queued
 *   pull requests, outside changes. "Merged with a later pull request": left the queue with
 *   `PR_MANUALLY_MERGED`, which in a replay happens only when a later head that contains the pull
 *   request's commit merged first (a linear history's heads stack): its change landed, so it is
 *   not counted as dequeued (docs/replay.md "Breaking a linear history");
 * - CI runs: speculative checks started (`action.queue.checks_start`, counted once per check: on
 *   the first pull request of its batch), how many of them ran to a result and how many were
 *   stopped first (`action.queue.checks_end`, `aborted`), per landed pull request;
 * - time in queue of merged pull requests, from `queued_at` of the session that merged to its
 *   `action.queue.leave`: mean and p95 (nearest rank) in seconds;
 * - batches (distinct `Batch n` ids checked), sub-batches (`Sub-batch ...`), bisections
 *   (distinct bisected batch ids of `action.queue.batch_bisection_start`);
 * - the log's counts per type from ListLogs against AggregateLogs (they must agree);
 * - the final tree against the expected one.
 * - with `--flaky`, retries, ignored failures and good pull requests sent back (flaky-report.ts).
 * `ok` is true when the tree matched, or when pull requests were broken on purpose or flaky
 * failures sent good ones back (then the tree is reported but not required).
 */
import { flakyReport, type FlakyReport } from "./flaky-report.js";
import type { FlakyTests } from "./flaky-tests.js";
import type { LogEvent } from "./log-reader.js";
import type { ReplayPlan } from "./plan.js";
import type { ReplayTracker } from "./tracker.js";

/** Event types the report reads. */
export const REPORT_EVENT_TYPES = [
  "action.queue.enter",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
  "ci_insights.job_retried",
] as const;

/** The report. Times in seconds. */
export interface ReplayReport {
  repository: string;
  mode: ReplayPlan["mode"];
  changes: number;
  pullRequests: number;
  merged: number[];
  /** Left with PR_MANUALLY_MERGED: a later head holding its commit merged first; its change landed. */
  mergedWithLater: { order: number; number: number }[];
  dequeued: { order: number; number: number; code: string; reason: string }[];
  notQueued: { order: number; number: number | null; reason: string }[];
  broken: number[];
  outsideChanges: { pushed: number; refused: string[] };
  /** Speculative checks started. */
  ciRuns: number;
  /** Of those, the ones that ran to a result (success, failure, timeout); the rest were stopped first. */
  ciRunsCompleted: number;
  /** CI runs per landed pull request (merged, or merged with a later one); null when none landed. */
  ciRunsPerMerge: number | null;
  timeInQueue: { meanSeconds: number; p95Seconds: number } | null;
  batches: number;
  subBatches: number;
  bisections: number;
  log: { listed: Record<string, number>; aggregated: Record<string, number>; consistent: boolean };
  tree: { expected: string; actual: string; equal: boolean };
  /** With `--flaky`: retries, ignored failures, good pull requests sent back; null without. */
  flaky: FlakyReport | null;
  wallSeconds: number;
  speed: number;
  ok: boolean;
}

/** Inputs of {@link summarizeReplay}. */
export interface ReportInput {
  repository: string;
  plan: ReplayPlan;
  tracker: ReplayTracker;
  breaks: ReadonlySet<number>;
  flaky: FlakyTests | null;
  events: readonly LogEvent[];
  aggregated: Record<string, number>;
  tree: { expected: string; actual: string };
  wallSeconds: number;
  speed: number;
}

/** Arithmetic mean; null for none. */
export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** The p-th percentile (0 < p ≤ 100) by nearest rank; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const num = (v: unknown): number => Number(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Builds the report. */
export function summarizeReplay(input: ReportInput): ReplayReport {
  const { events, tracker } = input;
  const of = (type: string) => events.filter((e) => e.type === type);
  const merged: number[] = [];
  const mergedWithLater: ReplayReport["mergedWithLater"] = [];
  const dequeued: ReplayReport["dequeued"] = [];
  const notQueued: ReplayReport["notQueued"] = [];
  for (const [order, s] of [...tracker.pulls].sort((a, b) => a[0] - b[0])) {
    if (s.kind === "merged") merged.push(s.number);
    else if (s.kind === "dequeued" && s.code === "PR_MANUALLY_MERGED")
      mergedWithLater.push({ order, number: s.number });
    else if (s.kind === "dequeued") dequeued.push({ order, number: s.number, code: s.code, reason: s.reason });
    else if (s.kind === "not_queued") notQueued.push({ order, number: s.number, reason: s.reason });
    else if (s.kind === "not_opened") notQueued.push({ order, number: null, reason: s.reason });
  }
  /** One event per check: the one of the first pull request of its batch. */
  const perCheck = (e: LogEvent) => {
    const members = e.metadata.pull_request_numbers;
    return Array.isArray(members) && members.length > 0 && num(members[0]) === e.pullRequest;
  };
  const checks = of("action.queue.checks_start").filter(perCheck);
  const completed = of("action.queue.checks_end").filter((e) => perCheck(e) && e.metadata.aborted !== true).length;
  const landed = merged.length + mergedWithLater.length;
  const batchIds = (prefix: string) =>
    new Set(checks.filter((e) => str(e.metadata.batch_name).startsWith(prefix)).map((e) => str(e.metadata.batch_id)))
      .size;
  const waits = of("action.queue.leave")
    .filter((e) => e.metadata.merged === true && typeof e.metadata.queued_at === "string")
    .map((e) => (e.receivedAt - Date.parse(str(e.metadata.queued_at))) / 1000);
  const listed: Record<string, number> = {};
  for (const e of events) listed[e.type] = (listed[e.type] ?? 0) + 1;
  const consistent = REPORT_EVENT_TYPES.every((t) => (listed[t] ?? 0) === (input.aggregated[t] ?? 0));
  const outside = tracker.pushes;
  const equal = input.tree.expected === input.tree.actual;
  const meanWait = mean(waits);
  const flaky = input.flaky === null ? null : flakyReport(input.flaky, events, dequeued, input.breaks);
  return {
    repository: input.repository,
    mode: input.plan.mode,
    changes: input.plan.changes,
    pullRequests: input.plan.pulls.length,
    merged,
    mergedWithLater,
    dequeued,
    notQueued,
    broken: [...input.breaks].sort((a, b) => a - b),
    outsideChanges: {
      pushed: outside.filter((p) => p.kind === "pushed").length,
      refused: outside.flatMap((p) => (p.kind === "refused" ? [p.reason] : [])),
    },
    ciRuns: checks.length,
    ciRunsCompleted: completed,
    ciRunsPerMerge: landed === 0 ? null : checks.length / landed,
    timeInQueue: meanWait === null ? null : { meanSeconds: meanWait, p95Seconds: percentile(waits, 95)! },
    batches: batchIds("Batch "),
    subBatches: batchIds("Sub-batch "),
    bisections: new Set(of("action.queue.batch_bisection_start").map((e) => str(e.metadata.batch_id))).size,
    log: { listed, aggregated: { ...input.aggregated }, consistent },
    tree: { ...input.tree, equal },
    flaky,
    wallSeconds: input.wallSeconds,
    speed: input.speed,
    ok: equal || input.breaks.size > 0 || (flaky !== null && flaky.goodSentBack.length > 0),
  };
}
