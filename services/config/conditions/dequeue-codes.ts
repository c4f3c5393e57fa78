/**
 * The abort and dequeue codes of docs/domain.md §3.9, declared once for every folder: the engine
 * stops checks and dequeues pull requests with them (and gives each its sentence, engine/codes.ts),
 * and the conditions language reads the last one as `queue-dequeue-reason`. Codes are upper case
 * (`CHECKS_FAILED`); conditions may write them kebab-case (`checks-failed`).
 */

/** Codes that stop a check and make the pull request leave (status `DEFINITIVE`). */
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

/** Codes that stop a check while the pull request stays queued (status `REEMBARKED`). MERGE_QUEUE_RESET re-embarks everything. */
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

/** The dequeue codes of a merge: the pull request left the queue merged. */
export const MERGED_CODES = ["PR_MERGED", "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED"] as const;

/** A code after which the pull request leaves. */
export type DefinitiveCode = (typeof DEFINITIVE_CODES)[number];
/** A code after which the pull request stays queued. */
export type ReembarkedCode = (typeof REEMBARKED_CODES)[number];
/** A value of `abort_code`: why a check stopped. */
export type AbortCode = DefinitiveCode | ReembarkedCode;
/** A value of `dequeue_code` (leave events): a definitive code or a merge. */
export type DequeueCode = DefinitiveCode | (typeof MERGED_CODES)[number];

/**
 * The values of the `queue-dequeue-reason` attribute: every abort and dequeue code, plus `NONE`
 * (never dequeued).
 */
export const DEQUEUE_REASON_VALUES: ReadonlySet<string> = new Set([
  "NONE",
  ...MERGED_CODES,
  ...DEFINITIVE_CODES,
  ...REEMBARKED_CODES,
]);

/**
 * Former spellings still accepted in conditions, with the code they now name: the hosting-platform
 * codes were once spelled after GitHub (docs/domain.md §3.9, the `HOST_*` codes).
 */
const FORMER_SPELLINGS: ReadonlyMap<string, string> = new Map([
  ["GITHUB_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED", "HOST_STACKED_PULL_REQUEST_MERGE_UNSUPPORTED"],
]);

/**
 * A `queue-dequeue-reason` value as written in a condition, to its code: `pr-merged` / `PR_MERGED`
 * -> `PR_MERGED`, a former spelling to the code it now names; null when not a known value.
 */
export function normalizeDequeueCode(text: string): string | null {
  const written = text.trim().toUpperCase().replace(/-/g, "_");
  const code = FORMER_SPELLINGS.get(written) ?? written;
  return DEQUEUE_REASON_VALUES.has(code) ? code : null;
}
