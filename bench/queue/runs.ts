/**
 * The runs of the queue benchmark: one queue simulated with the real engine in virtual time, open
 * loop (Poisson arrivals) or saturated (the closed forms), with the benchmark's model constants.
 */
import type { QueueKnobs } from "../../services/engine/index.js";
import {
  constantMinutes,
  queueConfiguration,
  simulateQueue,
  type WhatIfOptions,
  type WhatIfReport,
} from "../../services/simulation/index.js";

/** CI duration in minutes (constant). */
export const D_MINUTES = 30;
/** p: probability that a pull request breaks the build. */
export const BREAK_PROBABILITY = 0.05;
/** k: CI runners. */
export const CI_SLOTS = 10;

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
