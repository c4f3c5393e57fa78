/**
 * Where the queue's latency comes from (`npm run bench:queue`): every merged pull request is put
 * in one class by what happened to it on the way — nothing ("clean"), a check stopped because a
 * batch ahead failed (BATCH_AHEAD_FAILED), a check stopped for another reason (its abort code),
 * or its own batch failed and was bisected ("in a failed batch") — and each class is reported
 * with its share of merges, mean and p95 minutes, and its share of the slowest 5%. This is what
 * the p95 target is up against (docs/benchmarks.md "The merge queue").
 */
import type { SimulationStep, WhatIfReport } from "../../services/simulation/index.js";

/** One class of merged pull requests. Minutes are virtual time from queued to merged. */
export interface LatencyClass {
  name: string;
  merged: number;
  share: number;
  meanMinutes: number;
  p95Minutes: number;
  /** Share of the slowest 5% of all merged pull requests that falls in this class. */
  shareOfSlowest: number;
}

/** Collects, per pull request, the abort codes of its stopped checks and whether its batch was bisected. */
export class LatencyTagger {
  private readonly tags = new Map<number, Set<string>>();

  /** Feed to `openLoop`'s observer. */
  readonly observe = (step: SimulationStep): void => {
    for (const e of step.effects) {
      if (e.kind !== "log" || e.pullRequest === null) continue;
      const code = e.type === "action.queue.checks_end" ? e.metadata.abort_code : null;
      const tag =
        e.type === "action.queue.batch_bisection_start" ? "in a failed batch" : typeof code === "string" ? code : null;
      if (tag === null) continue;
      const n = Number(e.pullRequest);
      const set = this.tags.get(n) ?? new Set<string>();
      set.add(tag);
      this.tags.set(n, set);
    }
  };

  /** The class of one pull request: its own failed batch first, then the stopped checks' codes. */
  classOf(number: number): string {
    const t = this.tags.get(number);
    if (!t || t.size === 0) return "clean";
    if (t.has("in a failed batch")) return "in a failed batch";
    return [...t].sort().join(" + ");
  }

  /** The classes of a run's merged pull requests, most frequent first. */
  breakdown(report: WhatIfReport): LatencyClass[] {
    return latencyClasses([...report.mergedMinutes].map(([n, minutes]) => [minutes, this.classOf(n)]));
  }
}

/** The classes of merged pull requests given as [minutes, class] pairs (several runs pooled), most frequent first. */
export function latencyClasses(pairs: [number, string][]): LatencyClass[] {
  const all = [...pairs].sort((a, b) => a[0] - b[0]);
  const cut = Math.floor(all.length * 0.95);
  const classes = new Map<string, { minutes: number[]; slow: number }>();
  all.forEach(([minutes, name], i) => {
    const c = classes.get(name) ?? { minutes: [], slow: 0 };
    c.minutes.push(minutes);
    if (i >= cut) c.slow++;
    classes.set(name, c);
  });
  const slowest = all.length - cut;
  return [...classes]
    .map(([name, c]) => ({
      name,
      merged: c.minutes.length,
      share: c.minutes.length / all.length,
      meanMinutes: c.minutes.reduce((a, b) => a + b, 0) / c.minutes.length,
      p95Minutes: c.minutes[Math.min(c.minutes.length - 1, Math.ceil(0.95 * c.minutes.length) - 1)]!,
      shareOfSlowest: slowest === 0 ? 0 : c.slow / slowest,
    }))
    .sort((a, b) => b.merged - a.merged);
}
