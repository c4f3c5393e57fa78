/**
 * Every state explained (docs/dashboard.md "Every state explained"): the sentence a batch card
 * shows under its status, and the text of an estimate. Built from the status the API answers
 * (GetMergeQueueStatus, docs/merge-queue.md "Batch states and transitions" and "Estimates") and the pause; never
 * "0 of 0 passed" (a batch without reported checks says so), and no estimate while the queue is
 * paused or a check runs longer than usual (the service then gives none).
 */
import type { Batch, MergeabilityCheckItem } from "../../gen/yardmaster/v1/queue_pb.js";
import { relative, toDate, when } from "./format.js";
import { FAILED_STATES, PASSED_STATES } from "./words.js";

/** "ci/test and lint" for the failing checks of a list; "" when none failed. */
function failing(checks: MergeabilityCheckItem[]): string {
  const names = checks.filter((c) => FAILED_STATES.has(c.state)).map((c) => c.name);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** "2 of 3 checks passed", or a sentence without numbers when no check was reported. */
export function checksText(checks: MergeabilityCheckItem[]): string {
  if (checks.length === 0) return "no check reported yet";
  const passed = checks.filter((c) => PASSED_STATES.has(c.state)).length;
  const running = checks.filter((c) => c.state === "pending").length;
  const text = `${passed} of ${checks.length} check${checks.length === 1 ? "" : "s"} passed`;
  return running ? `${text}, ${running} running` : text;
}

/** Why a batch is in its state, in one sentence; `paused` is the queue's pause. */
export function explainBatch(batch: Batch, paused: boolean): string {
  const code = batch.status?.code ?? "";
  const failed = failing(batch.checks);
  const failedText = failed ? ` (${failed} failed)` : "";
  switch (code) {
    case "waiting_for_batch": {
      const size = batch.maxBatchSlots;
      const start = toDate(batch.batchMaxStartAt);
      const have = `${batch.pullRequests.length} of ${size || "?"} pull requests`;
      return start ? `Filling: ${have}; it starts when full, or at ${when(start)} at the latest.` : `Filling: ${have}.`;
    }
    case "waiting_for_checks_slot":
      return paused
        ? "Waiting: the queue is paused, so no check starts."
        : "Waiting for a CI slot: as many checks run at once as max_parallel_checks allows.";
    case "preparing":
      return paused
        ? "Its check is being prepared; the queue is paused, so nothing merges."
        : "Preparing its check: the branch with the batch's changes on top of the base.";
    case "running": {
      const eta = toDate(batch.estimatedCiFinishAt);
      const since = toDate(batch.startedAt);
      const base = `Checks running${since ? ` since ${when(since)}` : ""}: ${checksText(batch.checks)}`;
      if (failed) return `${base}; ${failed} failed, so it will fail unless retried.`;
      if (!eta && since) return `${base}; running longer than usual, so no estimate.`;
      return `${base}.`;
    }
    case "bisecting": {
      const subs = batch.subBatches.length;
      const checking = subs === 1 ? "1 sub-batch checks a prefix" : `${subs} sub-batches check prefixes`;
      return `Failed: ${checksText(batch.checks)}${failedText}. Bisecting: ${checking} of it to find the culprit.`;
    }
    case "waiting_for_previous_batches":
      return `Failed: ${checksText(batch.checks)}${failedText}. It waits for the batches it was checked on top of, then is resolved.`;
    case "waiting_for_merge":
      return paused
        ? `Passed (${checksText(batch.checks)}); the queue is paused, so it merges once unpaused.`
        : `Passed (${checksText(batch.checks)}); it merges once the batches ahead have merged.`;
    case "waiting_schedule":
      return `Passed; it waits for its merge schedule to open${batch.estimatedMergeAt ? ` (${when(toDate(batch.estimatedMergeAt))})` : ""}.`;
    case "frozen":
      return batch.estimatedMergeAt
        ? `Held by a scheduled freeze: checks go on, and it merges when the freeze ends (${when(toDate(batch.estimatedMergeAt))}).`
        : "Held by a scheduled freeze without an end: checks go on, and it merges once the freeze is lifted.";
    case "failed":
      return `Failed: ${checksText(batch.checks)}${failedText}; the queue is resolving it.`;
    default:
      return "";
  }
}

/** The text of an estimated merge: a time and how far, or why there is none. */
export function etaText(at: Date | undefined, paused: boolean, now = Date.now()): string {
  if (paused) return "none while the queue is paused";
  if (!at) return "none yet";
  // A passed batch waits for its merge, which the runner makes within a round or two.
  if (at.getTime() <= now) return "any moment";
  return `${when(at)} (${relative(at, now)})`;
}
