/**
 * One observed window of the benchmark's traffic (observed-default.ts): the engine in virtual time
 * under `knobs` from `fromMs` to `toMs` (epoch ms, UTC), Poisson arrivals at λ per hour, each
 * breaking the build with probability p, D = 30 min, k = 10 CI slots (runs.ts), optionally with
 * the tests workload's failures; every event the engine logs, with its virtual instant. Pure and
 * plain data in and out (it runs on worker threads: window-worker.ts).
 */
import type { LogEffect, QueueKnobs } from "../../services/engine/index.js";
import { constantMinutes, queueConfiguration, Simulation, type TestWorkload } from "../../services/simulation/index.js";
import { BREAK_PROBABILITY, CI_SLOTS, D_MINUTES } from "./runs.js";

/** A window to simulate. */
export interface WindowJob {
  lambda: number;
  seed: number;
  tests?: TestWorkload;
  knobs: QueueKnobs;
  fromMs: number;
  toMs: number;
}

/** An event the engine logged, at its virtual instant (epoch ms, UTC). */
export interface LoggedEvent {
  at: number;
  log: LogEffect;
}

/** Simulates the window and returns what the engine logged in it, in order. */
export function simulateWindow(job: WindowJob): LoggedEvent[] {
  const logged: LoggedEvent[] = [];
  const sim = new Simulation({
    seed: job.seed,
    config: queueConfiguration(job.knobs),
    ciDuration: constantMinutes(D_MINUTES),
    ciSlots: CI_SLOTS,
    flakeRate: 0,
    tests: job.tests,
    startAt: job.fromMs,
    observe: (s) => {
      for (const e of s.effects) if (e.kind === "log") logged.push({ at: s.now, log: e });
    },
  });
  const gap = () => sim.rng.exponential(3_600_000 / job.lambda);
  sim.scheduleArrival(sim.now + gap());
  sim.runUntil(job.toMs - 1, {
    arrival: () => {
      sim.arrive({ bad: sim.rng.chance(BREAK_PROBABILITY) });
      sim.scheduleArrival(sim.now + gap());
    },
  });
  return logged;
}
