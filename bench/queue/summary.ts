/**
 * The benchmark's counting (docs/benchmarks.md "Rules and targets"): one run of a queue is
 * reduced to what the rules count, and the runs of one point (several seeds) are pooled. Time in
 * queue is from a pull request's first enqueue to its merge; every CI run started counts whole
 * (cancelled ones too), and CI time counts a cancelled run for the part of D it ran; a good pull
 * request that left without merging is counted against the queue.
 */
import type { WhatIfReport } from "../../services/simulation/index.js";

/** One run (one seed) of one queue, as plain data (it crosses worker threads). Minutes are virtual time. */
export interface RunSummary {
  arrived: number;
  merged: number;
  dequeued: number;
  goodDequeued: number;
  ciRuns: number;
  cancelledRuns: number;
  ciMinutes: number;
  virtualHours: number;
  unstable: boolean;
  untestedMerges: number;
  exactnessViolations: number;
  /** Minutes from first enqueue to merge, one per merged pull request. */
  minutes: number[];
  /** The latency class of each merged pull request (same order as `minutes`), when tagged. */
  classes?: string[];
}

/** The figures of one point: its runs pooled (latencies of every seed together, runs and merges summed). */
export interface PointFigures {
  seeds: number;
  merged: number;
  meanMinutes: number;
  p95Minutes: number;
  runsPerMerge: number;
  /** CI time per merge in units of D. */
  ciDPerMerge: number;
  mergesPerHour: number;
  /** Any seed's backlog passed the bound. */
  unstable: boolean;
  goodDequeued: number;
  untestedMerges: number;
}

/** Reduces a what-if report to a {@link RunSummary}; `classOf` names each merged pull request's latency class. */
export function summarize(report: WhatIfReport, classOf?: (pull: number) => string): RunSummary {
  const entries = [...report.mergedMinutes];
  return {
    arrived: report.arrived,
    merged: report.merged,
    dequeued: report.dequeued,
    goodDequeued: report.goodDequeued,
    ciRuns: report.ciRuns,
    cancelledRuns: report.cancelledRuns,
    ciMinutes: report.ciMinutesPerMerge * Math.max(1, report.merged),
    virtualHours: report.virtualHours,
    unstable: report.unstable,
    untestedMerges: report.untestedMerges,
    exactnessViolations: report.exactnessViolations,
    minutes: entries.map(([, m]) => m),
    classes: classOf ? entries.map(([n]) => classOf(n)) : undefined,
  };
}

/** The q-quantile of sorted values, nearest rank (p95: the smallest value at or above 95% of them). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Pools the runs of one point; `dMinutes` is the CI duration D. */
export function pool(runs: RunSummary[], dMinutes: number): PointFigures {
  const minutes = runs.flatMap((r) => r.minutes).sort((a, b) => a - b);
  const merged = runs.reduce((a, r) => a + r.merged, 0);
  const sum = (f: (r: RunSummary) => number) => runs.reduce((a, r) => a + f(r), 0);
  return {
    seeds: runs.length,
    merged,
    meanMinutes: minutes.reduce((a, b) => a + b, 0) / Math.max(1, minutes.length),
    p95Minutes: quantile(minutes, 0.95),
    runsPerMerge: sum((r) => r.ciRuns) / Math.max(1, merged),
    ciDPerMerge: sum((r) => r.ciMinutes) / dMinutes / Math.max(1, merged),
    mergesPerHour:
      merged /
      Math.max(
        1e-9,
        sum((r) => r.virtualHours),
      ),
    unstable: runs.some((r) => r.unstable),
    goodDequeued: sum((r) => r.goodDequeued),
    untestedMerges: sum((r) => r.untestedMerges + r.exactnessViolations),
  };
}
