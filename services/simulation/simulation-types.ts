/**
 * The vocabulary of the what-if simulation (docs/merge-queue.md "Simulation"): what its agenda
 * holds, how CI durations are drawn, and what the virtual forge counts.
 */
import type { EngineEvent } from "../engine/index.js";
import type { Prng } from "./prng.js";

/** Something scheduled on the simulation agenda. */
export type SimItem =
  | { kind: "engine"; event: EngineEvent }
  | { kind: "ci_done"; checkId: string; token: number }
  | { kind: "timer"; key: string; token: number }
  | { kind: "arrival" };

/** CI run duration in milliseconds, drawn per run. */
export type DurationModel = (rng: Prng) => number;

/** Counters of the virtual forge. */
export interface ForgeStats {
  ciRuns: number;
  cancelledRuns: number;
  /** CI time used, in milliseconds: whole runs, and cancelled runs up to their cancellation. */
  ciMs: number;
  draftsCreated: number;
  merges: number;
  /** Merges whose resulting tree was not exactly a tree whose check passed. */
  untestedMerges: number;
  /** Merges the engine declared exact (`exactTree`) that were not. */
  exactnessViolations: number;
  /** Pull requests asked to merge although already in the base. */
  doubleMerges: number;
  /** Merges refused because the base was not at the expected SHA. */
  refusedMerges: number;
  /** Merges of a pull request an active scheduled freeze matched when the merge was asked for. */
  frozenMerges: number;
  /** Failed jobs run again on the engine's request (`rerun_checks`, known flaky tests). */
  reruns: number;
}

/** Counters at zero. */
export function emptyForgeStats(): ForgeStats {
  return {
    ciRuns: 0,
    cancelledRuns: 0,
    ciMs: 0,
    draftsCreated: 0,
    merges: 0,
    untestedMerges: 0,
    exactnessViolations: 0,
    doubleMerges: 0,
    refusedMerges: 0,
    frozenMerges: 0,
    reruns: 0,
  };
}
