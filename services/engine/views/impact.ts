/**
 * Dequeue impact (docs/api.md "Dequeue impact", endpoint #4), computed by running the dequeue on a
 * copy of the state and comparing before and after - never by a separate formula, so the
 * prediction is what the dequeue does:
 * - interrupted_batches: batches whose check was in progress (being created, running, or passed
 *   and not merged yet) and no longer exists afterwards: the pull request's batch and those
 *   checked on top of it (a failed batch being resolved is not interrupted);
 * - rechecked_pull_requests: the other pull requests of those batches still queued afterwards;
 * - cascaded_pull_requests: the pull requests the dequeue made leave because they are stacked on
 *   it (their leave says STACK_PREDECESSOR_DEQUEUED).
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

/** Snapshot of checks in progress: batch id + check id -> members. */
function heldChecks(state: EngineState): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const train of state.trains)
    for (const batch of train.batches)
      if (batch.check && batch.check.phase !== "failed") out.set(`${batch.id}/${batch.check.id}`, batch.members);
  return out;
}

/**
 * What dequeuing `number` at `now` would do, with the numbers involved.
 * @throws NotQueuedError when the pull request is in no merge queue.
 */
export function dequeueImpact(state: EngineState, number: number, now: number): DequeueImpact {
  const { state: after, effects } = apply(
    state,
    { type: "dequeue_requested", number, trigger: "dequeue impact", source: "api" },
    now,
  );
  const still = new Set(
    after.trains.flatMap((t) => t.batches.filter((c) => c.check).map((c) => `${c.id}/${c.check!.id}`)),
  );
  const interrupted = [...heldChecks(state)].filter(([key]) => !still.has(key));
  const rechecked = [...new Set(interrupted.flatMap(([, members]) => members))].filter(
    (n) => n !== number && after.pulls[String(n)],
  );
  const cascaded = effects
    .filter(
      (e) =>
        e.kind === "log" && e.type === "action.queue.leave" && e.metadata.dequeue_code === "STACK_PREDECESSOR_DEQUEUED",
    )
    .map((e) => (e as { pullRequest: number }).pullRequest);
  return {
    interruptedBatches: interrupted.length,
    recheckedPullRequests: rechecked.length,
    cascadedPullRequests: cascaded.length,
    rechecked: rechecked.sort((a, b) => a - b),
    cascaded: cascaded.sort((a, b) => a - b),
  };
}
