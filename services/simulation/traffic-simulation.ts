/**
 * What-if on recorded traffic (docs/what-if.md "Method"): the engine in virtual time
 * (simulate.ts, the virtual forge of virtual-forge.ts) fed a repository's recorded traffic
 * instead of drawn arrivals. Pull requests arrive at their recorded instants and in their
 * recorded order; those that broke the build break it again; people's withdrawals (a dequeue, a
 * close, a push) happen at their recorded instants; outside pushes of the base move it at theirs.
 * Each CI run lasts a duration drawn from the recorded ones plus the recorded draft and merge
 * times (the only place the virtual forge, which builds drafts and merges at once, can put them on
 * the path), and fails by a flake at the recorded rate. CI runners are unbounded: the recorded durations already hold any wait for a
 * runner. Seeded and deterministic; pure (no clock, no I/O).
 */
import type { ConfigurationInput, LogEffect } from "../engine/index.js";
import { Simulation } from "./simulate.js";
import type { DurationModel } from "./simulation-types.js";
import type { TestWorkload } from "./test-workload.js";

/** One recorded pull request, in arrival order. Times are epoch milliseconds UTC. */
export interface TrafficArrival {
  /** When it entered the queue. */
  at: number;
  /** It broke the build (failed a check alone, or was named the culprit by bisection). */
  bad: boolean;
  /** A person's withdrawal (dequeue, close, push, merge outside the queue): when, and its dequeue code. */
  withdrawal: { at: number; code: string } | null;
}

/** The recorded traffic to simulate. Times are epoch milliseconds UTC, durations milliseconds. */
export interface TrafficInput {
  arrivals: TrafficArrival[];
  /** Instants of outside pushes of the base. */
  outsidePushes: number[];
  /** Durations of concluded CI runs, drawn from uniformly (at least one). */
  ciDurationsMs: number[];
  /** Time from a passing check's end to its merge, added to every run. */
  mergeMs: number;
  /** Time to build a check's draft before its CI starts, added to every run. */
  draftMs: number;
  /** Probability that a run fails with no culprit (0-1). */
  flakeRate: number;
  /**
   * The repository's tests (test-workload.ts): spurious failures on quarantined tests (ignored),
   * known flaky tests (retried once) and unknown ones, replacing `flakeRate`. Absent: every
   * spurious failure is a real one to the queue.
   */
  tests?: TestWorkload;
  seed: number;
  /** Virtual time allowed after the last recorded instant for the queue to drain (default 30 days). */
  drainLimitMs?: number;
}

/**
 * What a queue did with traffic, predicted by this traffic simulation or observed in the activity log
 * (services/activity-log/traffic-figures.ts measures the same figures into this type). Milliseconds.
 */
export interface QueueOutcome {
  merges: number;
  /** Time in queue of merged pull requests, median and 95th percentile (nearest rank); null when none merged. */
  timeInQueueP50Ms: number | null;
  timeInQueueP95Ms: number | null;
  /** CI runs, retries included. */
  ciRuns: number;
  /** Failed jobs run again for known flaky tests, and checks passed on quarantined failures only. */
  retries: number;
  ignoredFailures: number;
  /** CI time used, without the draft and merge times added to each run (cancelled runs for the time they ran). */
  ciMs: number;
  /** Batches checked (named `Batch n`) and batches bisected. */
  batches: number;
  bisections: number;
  /** Pull requests that left without merging, per dequeue code (withdrawals under their recorded code). */
  dequeuesByCode: Record<string, number>;
  /** Pull requests still queued when the drain limit passed (0 when the queue drained). */
  stillQueued: number;
}

/** Nearest-rank percentile (0 < q ≤ 1) of sorted values; null for none. */
export function nearestRank(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

type Step = { at: number; kind: "arrive"; index: number } | { at: number; kind: "withdraw" | "push"; index: number };

/** The recorded instants in order (ties: pushes, then arrivals, then withdrawals, each in recorded order). */
function timeline(input: TrafficInput): Step[] {
  const steps: Step[] = [
    ...input.outsidePushes.map((at, index) => ({ at, kind: "push" as const, index })),
    ...input.arrivals.map((a, index) => ({ at: a.at, kind: "arrive" as const, index })),
    ...input.arrivals.flatMap((a, index) =>
      a.withdrawal ? [{ at: Math.max(a.at, a.withdrawal.at), kind: "withdraw" as const, index }] : [],
    ),
  ];
  return steps.sort((x, y) => x.at - y.at);
}

const MERGED = new Set(["PR_MERGED", "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED"]);

function countLogs(logs: readonly LogEffect[]): { batches: number; bisections: number; ignoredFailures: number } {
  const batches = new Set<string>();
  const bisections = new Set<string>();
  let ignoredFailures = 0;
  for (const l of logs) {
    const members = l.metadata.pull_request_numbers;
    const first = Array.isArray(members) && members[0] === l.pullRequest;
    if (l.type === "action.queue.checks_end" && first && Array.isArray(l.metadata.ignored_failing_tests))
      ignoredFailures++;
    const id = String(l.metadata.batch_id ?? "");
    if (l.type === "action.queue.checks_start" && String(l.metadata.batch_name ?? "").startsWith("Batch "))
      batches.add(id);
    if (l.type === "action.queue.batch_bisection_start") bisections.add(id);
  }
  return { batches: batches.size, bisections: bisections.size, ignoredFailures };
}

/**
 * Simulates recorded traffic through the engine under `config` (its first queue rule) and reports
 * what the queue would have done.
 * @throws Error when `ciDurationsMs` is empty (the caller refuses such a window first)
 */
export function simulateTraffic(input: TrafficInput, config: ConfigurationInput): QueueOutcome {
  if (input.ciDurationsMs.length === 0) throw new Error("simulateTraffic: no recorded CI duration to draw from");
  const durations = input.ciDurationsMs;
  const overhead = input.draftMs + input.mergeMs;
  const duration: DurationModel = (rng) => durations[rng.int(durations.length)]! + overhead;
  const steps = timeline(input);
  const startAt = steps[0]?.at ?? 0;
  const sim = new Simulation({
    seed: input.seed,
    config,
    ciDuration: duration,
    ciSlots: Number.MAX_SAFE_INTEGER,
    flakeRate: input.flakeRate,
    ...(input.tests ? { tests: input.tests } : {}),
    startAt,
  });
  const numberOf: number[] = [];
  let next = 0;
  const onTick = () => {
    const step = steps[next++]!;
    if (step.kind === "push") sim.externalMerge();
    else if (step.kind === "arrive") numberOf[step.index] = sim.arrive({ bad: input.arrivals[step.index]!.bad });
    else sim.dequeue(numberOf[step.index]!);
  };
  for (const step of steps) sim.scheduleArrival(step.at);
  const end = (steps.at(-1)?.at ?? startAt) + (input.drainLimitMs ?? 30 * 86_400_000);
  sim.runUntil(end, { arrival: onTick, stop: () => next === steps.length && sim.queued === 0 });

  const withdrawnCode = new Map<number, string>();
  input.arrivals.forEach((a, i) => {
    if (a.withdrawal && numberOf[i] !== undefined) withdrawnCode.set(numberOf[i]!, a.withdrawal.code);
  });
  const waits: number[] = [];
  const dequeuesByCode: Record<string, number> = {};
  for (const [n, fate] of sim.fates) {
    if (fate.leftAt === null || fate.code === null) continue;
    if (MERGED.has(fate.code)) waits.push(fate.leftAt - fate.queuedAt);
    else {
      const code = fate.code === "PR_MANUALLY_DEQUEUED" ? (withdrawnCode.get(n) ?? fate.code) : fate.code;
      dequeuesByCode[code] = (dequeuesByCode[code] ?? 0) + 1;
    }
  }
  waits.sort((a, b) => a - b);
  const stats = sim.stats();
  return {
    merges: waits.length,
    timeInQueueP50Ms: nearestRank(waits, 0.5),
    timeInQueueP95Ms: nearestRank(waits, 0.95),
    ciRuns: stats.ciRuns,
    retries: stats.reruns,
    ciMs: Math.max(0, stats.ciMs - (stats.ciRuns - stats.cancelledRuns) * overhead),
    ...countLogs(sim.logs),
    dequeuesByCode,
    stillQueued: sim.queued,
  };
}
