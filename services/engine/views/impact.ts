/**
 * Dequeue impact (SPEC.md "Dequeue impact", endpoint #4), computed by running the dequeue on a
 * copy of the state and comparing before and after - never by a separate formula, so the
 * prediction is what the dequeue does:
 * - interrupted_batches: batches holding a check (running or concluded, not merged) whose check
 *   attempt no longer exists afterwards (the pull request's batch and those checked on top of it);
 * - rechecked_pull_requests: the other pull requests of those batches still queued afterwards;
 * - cascaded_pull_requests: other pull requests queued before and gone afterwards (stacked ones).
 */
import { apply } from "../engine.js";
import type { EngineState } from "../state.js";

/** The three counts of the API, and the pull requests behind the last two. */
export interface DequeueImpact {
  interruptedBatches: number;
  recheckedPullRequests: number;
  cascadedPullRequests: number;
  rechecked: number[];
  cascaded: number[];
}

/** Snapshot of checks held by batches: batch id + check id -> members. */
function heldChecks(state: EngineState): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const train of state.trains) for (const car of train.cars) if (car.check) out.set(`${car.id}/${car.check.id}`, car.members);
  return out;
}

/**
 * What dequeuing `number` at `now` would do, with the numbers involved.
 * @throws NotQueuedError when the pull request is in no merge queue.
 */
export function dequeueImpact(state: EngineState, number: number, now: number): DequeueImpact {
  const after = apply(state, { type: "dequeue_requested", number, trigger: "dequeue impact", source: "api" }, now).state;
  const before = heldChecks(state);
  const still = heldChecks(after);
  const interrupted = [...before].filter(([key]) => !still.has(key));
  const rechecked = [...new Set(interrupted.flatMap(([, members]) => members))].filter((n) => n !== number && after.pulls[String(n)]);
  const cascaded = Object.keys(state.pulls).map(Number).filter((n) => n !== number && !after.pulls[String(n)]);
  return {
    interruptedBatches: interrupted.length, recheckedPullRequests: rechecked.length, cascadedPullRequests: cascaded.length,
    rechecked: rechecked.sort((a, b) => a - b), cascaded: cascaded.sort((a, b) => a - b),
  };
}
