/**
 * The status of each abort and dequeue code (docs/domain.md §3.9) and the sentence shown to users.
 * DEFINITIVE: the pull request leaves the queue. REEMBARKED: its check stops but it stays queued
 * and is checked again. The codes themselves are declared in config/ (conditions read them too).
 */
import { REEMBARKED_CODES, type AbortCode, type DequeueCode } from "../config/index.js";

const REEMBARKED = new Set<string>(REEMBARKED_CODES);

/** DEFINITIVE or REEMBARKED for an abort code. */
export function abortStatus(code: AbortCode): "DEFINITIVE" | "REEMBARKED" {
  return REEMBARKED.has(code) ? "REEMBARKED" : "DEFINITIVE";
}

const REASONS: Partial<Record<AbortCode | DequeueCode, string>> = {
  PR_DEQUEUED: "The queue conditions of the pull request no longer match",
  PR_AHEAD_DEQUEUED: "A pull request ahead in the queue was dequeued",
  BATCH_AHEAD_FAILED: "A batch ahead in the queue failed",
  PR_WITH_HIGHER_PRIORITY_QUEUED: "A pull request with a higher priority was queued",
  SPECULATIVE_CHECK_NUMBER_REDUCED: "The number of parallel checks was reduced",
  CHECKS_TIMEOUT: "The checks did not conclude before checks_timeout",
  CHECKS_FAILED: "The merge conditions do not match: the checks failed",
  DROPPED_BY_BISECTION_ELIMINATION:
    "Every other pull request of the failed batch passed: this one is the culprit by elimination",
  QUEUE_RULE_MISSING: "The queue rule of the pull request no longer exists",
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: "The pull request could not be merged",
  BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS: "The failed batch reached batch_max_failure_resolution_attempts",
  PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE: "The merge queue is paused",
  CONFLICT_WITH_BASE_BRANCH: "The pull request conflicts with its base branch",
  CONFLICT_WITH_PULL_AHEAD: "The pull request conflicts with a pull request ahead in the queue",
  BRANCH_UPDATE_FAILED: "The pull request could not be updated with its base branch",
  BATCH_PULL_REQUEST_CLOSED: "The draft pull request of the batch was closed",
  PULL_REQUEST_UPDATED: "The pull request was updated outside the queue",
  MERGE_QUEUE_RESET: "The base branch moved outside the queue: the queue was reset",
  PR_MANUALLY_MERGED: "The pull request was merged outside the queue",
  DRAFT_PULL_REQUEST_CREATION_FAILED: "The draft pull request of the batch could not be created",
  CONFIGURATION_CHANGED: "The configuration changed in a way that invalidates the running checks",
  PR_MANUALLY_DEQUEUED: "The pull request was dequeued by a user",
  STACK_PREDECESSOR_DEQUEUED: "A pull request this one depends on left the queue",
  INTERMEDIATE_RESULTS_SKIPPED: "A later batch containing these pull requests passed (skip_intermediate_results)",
  CHECKS_RETRIED: "The checks failed and are retried (max_checks_retries)",
  PR_MERGED: "The pull request was merged",
  PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED:
    "The pull request was merged with a later batch that passed (skip_intermediate_results)",
  BATCH_SCOPES_CHANGED: "The scopes or the mode of the queue changed",
  BASE_BRANCH_MISSING: "The base branch of the pull request no longer exists",
  BASE_BRANCH_CHANGED: "The base branch of the pull request changed",
  DRAFT_PULL_REQUEST_CHANGED: "Commits the queue did not make were pushed to the draft pull request of the batch",
  BATCH_AHEAD_BRANCH_EDITED: "The draft pull request of a batch ahead was edited",
};

/** The sentence for a code (falls back to the code itself). */
export function reasonOf(code: AbortCode | DequeueCode): string {
  return REASONS[code] ?? code;
}
