/**
 * The what-if report of a simulated stream of pull requests (docs/merge-queue.md "Simulation"):
 * the engine in virtual time (simulate.ts) fed by Poisson arrivals (open loop) or a saturated
 * queue (closed loop), measured for latency, throughput and CI cost. Used by bench/queue.ts and
 * the engine's tests.
 */
import type { ConfigurationInput } from "../engine/index.js";
import { Simulation, type PullFate, type SimulationStep } from "./simulate.js";
import type { TestWorkload } from "./test-workload.js";
import type { DurationModel } from "./virtual-forge.js";

/** Options of an open-loop (Poisson arrivals) or closed-loop (saturated) run. */
export interface WhatIfOptions {
  seed: number;
  config: ConfigurationInput;
  /** Pull requests to resolve (open loop: arrivals). */
  pullRequests: number;
  /** λ, pull requests per hour (open loop). */
  arrivalsPerHour: number;
  /** p: probability that a pull request breaks the build. */
  breakProbability: number;
  /** f: probability that a CI run fails for no reason. */
  flakeRate: number;
  /** k: CI runners. */
  ciSlots: number;
  ciDuration: DurationModel;
  /** Failures with test identities (test-workload.ts); `flakeRate` is then unused. */
  tests?: TestWorkload;
  /** Closed loop: keep this many pull requests queued at all times (measures capacity). */
  saturation?: number;
  /** Open loop: stop and report unstable once this many pull requests are queued at once (default 1000). */
  maxQueued?: number;
  /** Sees every applied step (e.g. to tell why a pull request waited); must not change anything. */
  observe?: (step: SimulationStep) => void;
}

/** Results of a what-if run. Minutes and hours are virtual time. */
export interface WhatIfReport {
  arrived: number;
  merged: number;
  dequeued: number;
  stillQueued: number;
  dequeueCodes: Record<string, number>;
  /** Time from queued to merged, merged pull requests only. */
  meanMinutes: number;
  p50Minutes: number;
  p95Minutes: number;
  ciRuns: number;
  /** Failed checks run again for known flaky tests (counted in ciRuns too). */
  reruns: number;
  /** Bisections started (top-level and nested splits of failed batches). */
  bisections: number;
  runsPerMerge: number;
  /** Runs cancelled before they ended (counted in ciRuns). */
  cancelledRuns: number;
  /** CI minutes used per merged pull request: cancelled runs count for the minutes they ran. */
  ciMinutesPerMerge: number;
  /** Merged plus dequeued pull requests per hour. */
  resolvedPerHour: number;
  mergesPerHour: number;
  virtualHours: number;
  /** The backlog passed maxQueued: arrivals exceed capacity. */
  unstable: boolean;
  untestedMerges: number;
  exactnessViolations: number;
  /** Pull requests that do not break the build but left without merging (a queue must merge every good one). */
  goodDequeued: number;
  /** Minutes from queued to merged, per merged pull request number. */
  mergedMinutes: Map<number, number>;
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Runs the engine on a simulated stream of pull requests and reports latency, throughput and CI cost. */
export function simulateQueue(options: WhatIfOptions): WhatIfReport {
  const sim = new Simulation({
    seed: options.seed,
    config: options.config,
    ciDuration: options.ciDuration,
    ciSlots: options.ciSlots,
    flakeRate: options.flakeRate,
    tests: options.tests,
    observe: options.observe,
  });
  const start = sim.now;
  const maxQueued = options.maxQueued ?? 1000;
  let arrived = 0;
  let unstable = false;
  const resolved = () => [...sim.fates.values()].filter((f) => f.leftAt !== null).length;
  const arrive = () => {
    arrived++;
    sim.arrive({ bad: sim.rng.chance(options.breakProbability) });
  };
  if (options.saturation !== undefined) {
    const target = options.saturation;
    const topUp = () => {
      while (sim.queued < target && arrived < options.pullRequests) arrive();
    };
    topUp();
    let done = 0;
    sim.drain(Number.MAX_SAFE_INTEGER / 4, {
      after: () => {
        topUp();
        done++;
      },
      stop: () => done % 64 === 0 && resolved() >= options.pullRequests - target,
    });
  } else {
    const gap = () => sim.rng.exponential(3_600_000 / options.arrivalsPerHour);
    sim.scheduleArrival(sim.now + gap());
    const onArrival = () => {
      arrive();
      if (arrived < options.pullRequests) sim.scheduleArrival(sim.now + gap());
    };
    sim.drain(Number.MAX_SAFE_INTEGER / 4, {
      arrival: onArrival,
      stop: () => {
        if (sim.queued > maxQueued) unstable = true;
        return unstable || (arrived >= options.pullRequests && sim.queued === 0);
      },
    });
  }
  return reportOf(sim, start, arrived, unstable);
}

/**
 * The report of a simulation run so far: `start` is where its virtual time began (epoch ms),
 * `arrived` the pull requests queued, `unstable` whether the backlog passed its bound. Latency
 * is from a pull request's first enqueue to its merge; every CI run started counts whole in
 * `ciRuns`, and `ciMinutesPerMerge` counts a cancelled run for the minutes it ran.
 */
export function reportOf(sim: Simulation, start: number, arrived: number, unstable: boolean): WhatIfReport {
  const fates = [...sim.fates.values()];
  const isMerged = (f: PullFate) => f.code === "PR_MERGED" || f.code === "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED";
  const merged = fates.filter(isMerged);
  const mergedMinutes = new Map(
    [...sim.fates].filter(([, f]) => isMerged(f)).map(([n, f]) => [n, (f.leftAt! - f.queuedAt) / 60_000] as const),
  );
  const left = fates.filter((f) => f.leftAt !== null);
  const latencies = merged.map((f) => (f.leftAt! - f.queuedAt) / 60_000).sort((a, b) => a - b);
  const codes: Record<string, number> = {};
  for (const f of left) if (!merged.includes(f)) codes[f.code!] = (codes[f.code!] ?? 0) + 1;
  const hours = (sim.now - start) / 3_600_000;
  const stats = sim.stats();
  return {
    arrived,
    merged: merged.length,
    dequeued: left.length - merged.length,
    stillQueued: sim.queued,
    dequeueCodes: codes,
    meanMinutes: latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length),
    p50Minutes: percentile(latencies, 0.5),
    p95Minutes: percentile(latencies, 0.95),
    ciRuns: stats.ciRuns,
    reruns: stats.reruns,
    bisections: new Set(
      sim.logs.filter((l) => l.type === "action.queue.batch_bisection_start").map((l) => l.metadata.batch_id),
    ).size,
    runsPerMerge: stats.ciRuns / Math.max(1, merged.length),
    cancelledRuns: stats.cancelledRuns,
    ciMinutesPerMerge: stats.ciMs / 60_000 / Math.max(1, merged.length),
    resolvedPerHour: left.length / hours,
    mergesPerHour: merged.length / hours,
    virtualHours: hours,
    unstable,
    untestedMerges: stats.untestedMerges,
    exactnessViolations: stats.exactnessViolations,
    goodDequeued: [...sim.fates].filter(([n, f]) => f.leftAt !== null && !isMerged(f) && !sim.forge.bad.has(n)).length,
    mergedMinutes,
  };
}
