/**
 * Abort and dequeue codes (docs/domain.md §3.9) with
 * their status and the sentence shown to users. DEFINITIVE: the pull request leaves the queue.
 * REEMBARKED: its check stops but it stays queued and is checked again.
 */

/** Codes that stop a check and make the pull request leave. */
export const DEFINITIVE_CODES = [
  "PR_DEQUEUED",
  "PR_DEQUEUED_FROM_PARTITION",
  "CHECKS_TIMEOUT",
  "CHECKS_FAILED",
  "CHECKS_INTERRUPTED",
  "DROPPED_BY_BISECTION_ELIMINATION",
  "QUEUE_RULE_MISSING",
  "BASE_BRANCH_MISSING",
  "BASE_BRANCH_CHANGED",
  "PR_UNEXPECTEDLY_FAILED_TO_MERGE",
  "BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS",
  "CONFLICT_WITH_BASE_BRANCH",
  "CONFLICT_WITH_PULL_AHEAD",
  "BRANCH_UPDATE_FAILED",
  "DRAFT_PULL_REQUEST_CHANGED",
  "BATCH_PULL_REQUEST_CLOSED",
  "PULL_REQUEST_UPDATED",
  "INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS",
  "PR_MANUALLY_MERGED",
  "DRAFT_PULL_REQUEST_CREATION_FAILED",
  "DRAFT_PULL_REQUEST_CREATION_BRANCH_NOT_INDEXED",
  "CONFIGURATION_CHANGED",
  "UNPROCESSABLE_PULL_REQUEST",
  "PR_MANUALLY_DEQUEUED",
  "STACK_PREDECESSOR_DEQUEUED",
  "BASE_REF_ALIGNMENT_TIMEOUT",
  "HOST_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED",
  "HOST_WORKFLOWS_PERMISSION_MISSING",
] as const;

/** Codes that stop a check while the pull request stays queued. MERGE_QUEUE_RESET re-embarks everything. */
export const REEMBARKED_CODES = [
  "PR_AHEAD_DEQUEUED",
  "BATCH_AHEAD_FAILED",
  "PR_WITH_HIGHER_PRIORITY_QUEUED",
  "SCHEDULED_FREEZE_STATUS_CHANGED",
  "SPECULATIVE_CHECK_NUMBER_REDUCED",
  "PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE",
  "INTERMEDIATE_RESULTS_SKIPPED",
  "CHECKS_RETRIED",
  "SCHEDULE_BLOCKED_AHEAD_YIELDED",
  "BATCH_SCOPES_CHANGED",
  "BATCH_AHEAD_BRANCH_EDITED",
  "MERGE_QUEUE_RESET",
] as const;

/** A code after which the pull request leaves. */
export type DefinitiveCode = (typeof DEFINITIVE_CODES)[number];
/** A code after which the pull request stays queued. */
export type ReembarkedCode = (typeof REEMBARKED_CODES)[number];
/** A value of `abort_code`. */
export type AbortCode = DefinitiveCode | ReembarkedCode;
/** A value of `dequeue_code` (leave events): a definitive code or a merge. */
export type DequeueCode = DefinitiveCode | "PR_MERGED" | "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED";

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
