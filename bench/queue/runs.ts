/**
 * The runs of the queue benchmark: every queue (Yardmaster's chosen configuration, a serial queue,
 * a speculation-only queue) simulated with the real engine in virtual time, and the saturated runs
 * that check the closed forms.
 */
import {
  constantMinutes,
  queueConfiguration,
  simulateQueue,
  type QueueKnobs,
  type WhatIfOptions,
  type WhatIfReport,
} from "../../services/engine/index.js";

/** CI duration in minutes (constant). */
export const D_MINUTES = 30;
/** p: probability that a pull request breaks the build. */
export const BREAK_PROBABILITY = 0.05;
/** k: CI runners. */
export const CI_SLOTS = 10;

/** The queues compared. Yardmaster's knobs are explained in docs/benchmarks.md "The merge queue". */
export const QUEUES: { name: string; knobs: QueueKnobs }[] = [
  { name: "yardmaster", knobs: { batchSize: { min: 2, max: 4 }, batchMaxWaitSeconds: 600, maxParallelChecks: 6 } },
  { name: "serial", knobs: { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 1 } },
  {
    name: "speculation (window 10)",
    knobs: { batchSize: { min: 1, max: 1 }, batchMaxWaitSeconds: 0, maxParallelChecks: 10 },
  },
];

/** An open-loop run: Poisson arrivals at `lambda` per hour. Unstable once 300 pull requests wait. */
export function openLoop(
  knobs: QueueKnobs,
  lambda: number,
  pullRequests: number,
  seed: number,
  observe?: WhatIfOptions["observe"],
): WhatIfReport {
  return simulateQueue({
    seed,
    config: queueConfiguration(knobs),
    pullRequests,
    arrivalsPerHour: lambda,
    breakProbability: BREAK_PROBABILITY,
    flakeRate: 0,
    ciSlots: CI_SLOTS,
    ciDuration: constantMinutes(D_MINUTES),
    maxQueued: 300,
    observe,
  });
}

/** A closed-loop run keeping 60 pull requests queued: the queue's capacity and cost at saturation. */
export function saturated(knobs: QueueKnobs, pullRequests: number, seed: number): WhatIfReport {
  return simulateQueue({
    seed,
    config: queueConfiguration(knobs),
    pullRequests,
    arrivalsPerHour: 0,
    breakProbability: BREAK_PROBABILITY,
    flakeRate: 0,
    ciSlots: CI_SLOTS,
    ciDuration: constantMinutes(D_MINUTES),
    saturation: 60,
  });
}
