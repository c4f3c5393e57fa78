/**
 * The figures of a queue's recorded traffic (docs/what-if.md "What is read"), from its queue
 * events in a window (traffic-reader.ts), pure:
 * - arrivals: each pull request's first `action.queue.enter` in the window, in order;
 * - broke the build: left with CHECKS_FAILED or DROPPED_BY_BISECTION_ELIMINATION, or failed a
 *   check alone (a concluded failure of a batch holding only it);
 * - withdrawals: left without merging for any other reason than a CI verdict (a person dequeued,
 *   closed or pushed it, it conflicted, it timed out), at the instant it left, with its code;
 * - CI runs: one per check (`checks_start` of the batch's first member); concluded runs (success,
 *   failure, timed out) give the durations, `checks_started_at` to `checks_ended_at`;
 * - merge time: mean time from a passing check's end to its first member's merge by that batch;
 * - draft time: mean, over checks whose start is the only thing logged at its instant, of the time
 *   from the queue's last logged round before it to its start (the draft being built: the log has
 *   no event for the request itself, and a start logged beside other events may have been asked
 *   for in any round before). Means, not medians: the traffic simulation puts them on a chain of runs, whose
 *   length is their sum;
 * - flake rate: concluded failures with no pull request that broke the build among their
 *   members, over concluded runs;
 * - tests (docs/what-if.md "Quarantines and retries"): checks passed on quarantined failures only
 *   (`checks_end` with `ignored_failing_tests`) and failed jobs run again for known flaky tests
 *   (`ci_insights.job_retried` by the rule `known flaky tests`); a retry is a CI run of its own;
 * - outside pushes: the instants the queue reset its checks (MERGE_QUEUE_RESET), one per instant;
 * - observed: what the queue did with the pull requests that arrived in the window, measured the
 *   way `yardmaster replay` reports (docs/replay.md "The report").
 * Times are epoch milliseconds UTC.
 */
import type { QueueOutcome } from "../simulation/index.js";

/** One queue event with the metadata fields read (empty string or null when absent). */
export interface TrafficRow {
  at: number;
  type: string;
  pullRequest: number;
  dequeueCode: string;
  queuedAt: number | null;
  batchId: string;
  batchName: string;
  members: number[];
  aborted: boolean;
  abortCode: string;
  conclusion: string;
  startedAt: number | null;
  endedAt: number | null;
  /** checks_end: how many failing tests were ignored, quarantined (absent: none). */
  ignoredTests?: number;
  /** ci_insights.job_retried: the retry rule's name and the outcome (`retried`). */
  retryRule?: string;
  retryOutcome?: string;
}

/** A pull request as recorded: its pull request number, arrival, whether it broke the build, its withdrawal. */
export interface RecordedArrival {
  number: number;
  at: number;
  bad: boolean;
  withdrawal: { at: number; code: string } | null;
}

/** The recorded traffic of one base branch over `[fromMs, toMs)`. */
export interface RecordedTraffic {
  branch: string;
  fromMs: number;
  toMs: number;
  arrivals: RecordedArrival[];
  outsidePushes: number[];
  /** Durations of concluded CI runs, in recorded order. */
  ciDurationsMs: number[];
  mergeMs: number;
  draftMs: number;
  /** Concluded runs that failed with no culprit, failures ignored and retries aside, over concluded runs. */
  flakeRate: number;
  /** Checks passed on quarantined failures only, and failed jobs run again for known flaky tests. */
  ignoredFailures: number;
  retries: number;
  observed: QueueOutcome;
}

const MERGED = new Set(["PR_MERGED", "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED"]);
/** The queue's built-in retry rule (engine/test-facts.ts KNOWN_FLAKY_RULE_NAME; a string here: the log runs no engine code). */
const KNOWN_FLAKY_RULE = "known flaky tests";
/** Leave codes that are the queue's verdict on CI: simulated by the CI, not as withdrawals. */
const CI_VERDICTS = new Set([
  "CHECKS_FAILED",
  "DROPPED_BY_BISECTION_ELIMINATION",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
]);
const CULPRIT = new Set(["CHECKS_FAILED", "DROPPED_BY_BISECTION_ELIMINATION"]);
const CONCLUDED = new Set(["success", "failure", "timed_out"]);

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function nearestRank(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** The largest of ascending `times` below `at`, or null. */
function lastBelow(times: readonly number[], at: number): number | null {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? null : times[lo - 1]!;
}

function rowInstants(rows: readonly TrafficRow[]): LoggedInstant[] {
  const others = new Map<number, number>();
  for (const r of rows) others.set(r.at, (others.get(r.at) ?? 0) + (r.type === "action.queue.checks_start" ? 0 : 1));
  return [...others].map(([at, n]) => ({ at, others: n }));
}

const isFirstMember = (r: TrafficRow) => r.members.length > 0 && r.members[0] === r.pullRequest;

/** The instants the repository logged anything in the window: `others` counts what was not a checks_start. */
export interface LoggedInstant {
  at: number;
  others: number;
}

/**
 * The traffic and observed figures of a window's queue events (ordered by time); `instants` are
 * every logged instant of the window, ascending (default: those of `rows`).
 */
export function trafficFigures(
  rows: readonly TrafficRow[],
  w: { branch: string; fromMs: number; toMs: number },
  instants?: readonly LoggedInstant[],
) {
  const arrived = new Map<number, { at: number; leave: TrafficRow | null }>();
  const bad = new Set<number>();
  for (const r of rows) {
    if (r.type === "action.queue.enter" && !arrived.has(r.pullRequest))
      arrived.set(r.pullRequest, { at: r.at, leave: null });
    else if (r.type === "action.queue.enter") arrived.get(r.pullRequest)!.leave = null;
    else if (r.type === "action.queue.leave" && arrived.has(r.pullRequest)) {
      arrived.get(r.pullRequest)!.leave = r;
      if (CULPRIT.has(r.dequeueCode)) bad.add(r.pullRequest);
    } else if (r.type === "action.queue.checks_end" && !r.aborted && r.conclusion !== "success") {
      if (r.members.length === 1 && CONCLUDED.has(r.conclusion)) bad.add(r.members[0]!);
    }
  }
  const runEnds = rows.filter((r) => r.type === "action.queue.checks_end" && isFirstMember(r));
  const concluded = runEnds.filter((r) => !r.aborted && CONCLUDED.has(r.conclusion) && r.startedAt !== null);
  const flaky = concluded.filter((r) => r.conclusion !== "success" && !r.members.some((n) => bad.has(n)));
  const ignoredFailures = concluded.filter((r) => (r.ignoredTests ?? 0) > 0).length;
  const retries = rows.filter(
    (r) => r.type === "ci_insights.job_retried" && r.retryRule === KNOWN_FLAKY_RULE && r.retryOutcome === "retried",
  ).length;
  const mergedBy = new Map<number, TrafficRow>();
  for (const [n, a] of arrived) if (a.leave && MERGED.has(a.leave.dequeueCode)) mergedBy.set(n, a.leave);
  const mergeLags = concluded.flatMap((r) => {
    const leave = mergedBy.get(r.pullRequest);
    const same = r.conclusion === "success" && leave !== undefined && leave.batchId === r.batchId && leave.at >= r.at;
    return same ? [leave.at - r.at] : [];
  });

  const arrivals: RecordedArrival[] = [...arrived].map(([number, a]) => {
    const code = a.leave?.dequeueCode ?? "";
    const withdrawn = a.leave !== null && !MERGED.has(code) && !CI_VERDICTS.has(code);
    return { number, at: a.at, bad: bad.has(number), withdrawal: withdrawn ? { at: a.leave!.at, code } : null };
  });
  const waits = [...arrived]
    .filter(([n]) => mergedBy.has(n))
    .map(([, a]) => a.leave!.at - (a.leave!.queuedAt ?? a.at))
    .sort((x, y) => x - y);
  const dequeuesByCode: Record<string, number> = {};
  for (const a of arrived.values())
    if (a.leave && !MERGED.has(a.leave.dequeueCode))
      dequeuesByCode[a.leave.dequeueCode] = (dequeuesByCode[a.leave.dequeueCode] ?? 0) + 1;
  const starts = rows.filter((r) => r.type === "action.queue.checks_start" && isFirstMember(r));
  const logged = instants ?? rowInstants(rows);
  const times = logged.map((i) => i.at);
  const busy = new Set(logged.filter((i) => i.others > 0).map((i) => i.at));
  const draftLags = starts
    .filter((r) => !busy.has(r.at))
    .map((r) => {
      const before = lastBelow(times, r.at);
      return before === null ? null : r.at - before;
    })
    .filter((x): x is number => x !== null);
  const observed: QueueOutcome = {
    merges: waits.length,
    timeInQueueP50Ms: nearestRank(waits, 0.5),
    timeInQueueP95Ms: nearestRank(waits, 0.95),
    ciRuns: starts.length + retries,
    retries,
    ignoredFailures,
    ciMs: runEnds.reduce((s, r) => s + Math.max(0, (r.endedAt ?? r.at) - (r.startedAt ?? r.at)), 0),
    batches: new Set(starts.filter((r) => r.batchName.startsWith("Batch ")).map((r) => r.batchId)).size,
    bisections: new Set(rows.filter((r) => r.type === "action.queue.batch_bisection_start").map((r) => r.batchId)).size,
    dequeuesByCode,
    stillQueued: [...arrived.values()].filter((a) => a.leave === null).length,
  };
  const traffic: RecordedTraffic = {
    ...w,
    arrivals,
    outsidePushes: [
      ...new Set(runEnds.filter((r) => r.aborted && r.abortCode === "MERGE_QUEUE_RESET").map((r) => r.at)),
    ],
    ciDurationsMs: concluded.map((r) => Math.max(0, (r.endedAt ?? r.at) - r.startedAt!)),
    mergeMs: mean(mergeLags),
    draftMs: mean(draftLags),
    flakeRate: concluded.length === 0 ? 0 : flaky.length / concluded.length,
    ignoredFailures,
    retries,
    observed,
  };
  return traffic;
}
