/**
 * The dashboard's words for the service's codes (docs/dashboard.md "Every state explained"), in one
 * module so they can be reviewed and changed together: event types (docs/events.md), dequeue codes
 * (docs/domain.md §3.9; the leave event's own `reason` sentence is shown beside them), batch
 * statuses (docs/merge-queue.md "Batch states and transitions") and check states. A code without words here is
 * shown in lower case with spaces, never hidden.
 */

/** A code as words when none are written below: "PR_AHEAD_DEQUEUED" -> "pr ahead dequeued". */
const plain = (code: string) => code.toLowerCase().replaceAll(/[._]/g, " ");

const EVENT_TYPES: Record<string, string> = {
  "action.assign": "assignees changed",
  "action.backport": "backported",
  "action.close": "closed",
  "action.comment": "commented",
  "action.copy": "copied to another branch",
  "action.delete_head_branch": "head branch deleted",
  "action.dequeue": "dequeued",
  "action.dismiss_reviews": "reviews dismissed",
  "action.edit": "edited",
  "action.host_actions": "workflow dispatched",
  "action.label": "labels changed",
  "action.label.loop_stopped": "label loop stopped",
  "action.merge": "merged by a rule",
  "action.post_check": "check posted",
  "action.queue.batch_bisection_end": "bisection ended",
  "action.queue.batch_bisection_start": "bisection started",
  "action.queue.change": "queue size changed",
  "action.queue.checks.change": "running checks changed",
  "action.queue.checks_end": "checks ended",
  "action.queue.checks_postponed": "checks postponed",
  "action.queue.checks_start": "checks started",
  "action.queue.conflict_deferred": "deferred by a conflict",
  "action.queue.enter": "entered the queue",
  "action.queue.leave": "left the queue",
  "action.queue.merged": "merged by the queue",
  "action.rebase": "rebased",
  "action.refresh": "refreshed",
  "action.request_reviews": "reviews requested",
  "action.review": "reviewed",
  "action.squash": "squashed",
  "action.update": "updated with its base",
  "ci_insights.auto_quarantine.disabled": "auto-quarantine disabled",
  "ci_insights.auto_quarantine.enabled": "auto-quarantine enabled",
  "ci_insights.auto_quarantine.modified": "auto-quarantine changed",
  "ci_insights.job_retried": "CI job retried",
  "command.dequeue": "dequeue command",
  "command.queue": "queue command",
  "product.disabled": "product disabled",
  "product.enabled": "product enabled",
  "queue.pause.create": "queue paused",
  "queue.pause.delete": "queue unpaused",
  "queue.pause.update": "pause reason changed",
  "scheduled_freeze.create": "freeze scheduled",
  "scheduled_freeze.delete": "freeze deleted",
  "scheduled_freeze.update": "freeze changed",
  "test.dequarantined": "test released from quarantine",
  "test.quarantined": "test quarantined",
};

/** An activity-log event type in words ("action.queue.merged" -> "merged by the queue"). */
export function eventTypeWords(type: string): string {
  return EVENT_TYPES[type] ?? plain(type);
}

const DEQUEUE_CODES: Record<string, string> = {
  PR_MERGED: "merged",
  PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED: "merged (checked with a later batch)",
  CHECKS_FAILED: "checks failed",
  CHECKS_TIMEOUT: "checks timed out",
  CHECKS_INTERRUPTED: "checks interrupted",
  DROPPED_BY_BISECTION_ELIMINATION: "culprit, by elimination",
  BATCH_MAX_FAILURE_RESOLUTION_ATTEMPTS: "bisection gave up",
  PR_MANUALLY_DEQUEUED: "dequeued by hand",
  PR_DEQUEUED: "dequeued by the queue",
  PR_DEQUEUED_FROM_PARTITION: "left its partition",
  PR_MANUALLY_MERGED: "merged outside the queue",
  PULL_REQUEST_UPDATED: "updated while queued",
  CONFLICT_WITH_BASE_BRANCH: "conflicts with the base branch",
  CONFLICT_WITH_PULL_AHEAD: "conflicts with a pull request ahead",
  BRANCH_UPDATE_FAILED: "could not be updated",
  BASE_BRANCH_MISSING: "base branch deleted",
  BASE_BRANCH_CHANGED: "base branch changed",
  QUEUE_RULE_MISSING: "queue rule removed",
  CONFIGURATION_CHANGED: "configuration changed",
  STACK_PREDECESSOR_DEQUEUED: "the pull request it is stacked on left",
  BATCH_PULL_REQUEST_CLOSED: "check pull request closed",
  DRAFT_PULL_REQUEST_CHANGED: "check pull request changed",
  DRAFT_PULL_REQUEST_CREATION_FAILED: "check pull request could not be created",
  PR_UNEXPECTEDLY_FAILED_TO_MERGE: "merge failed",
  UNPROCESSABLE_PULL_REQUEST: "could not be processed",
};

/** A dequeue code (leave events) in a few words. */
export function dequeueWords(code: string): string {
  return DEQUEUE_CODES[code] ?? plain(code);
}

/** Whether a dequeue code is a merge. */
export const isMerge = (code: string) => code === "PR_MERGED" || code === "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED";

const BATCH_STATUSES: Record<string, string> = {
  waiting_for_batch: "filling",
  waiting_for_checks_slot: "waiting for a CI slot",
  preparing: "preparing its check",
  running: "checks running",
  bisecting: "bisecting",
  waiting_for_previous_batches: "failed, waiting for the batches ahead",
  waiting_for_merge: "passed, waiting to merge",
  waiting_schedule: "passed, waiting for its merge schedule",
  frozen: "held by a scheduled freeze",
  merged: "merged",
  failed: "failed",
};

/** A batch status code in words, as its badge says it. */
export function batchStatusWords(code: string): string {
  return BATCH_STATUSES[code] ?? plain(code);
}

/** Check states that count as passed (docs/merge-queue.md: success, neutral, skipped). */
export const PASSED_STATES = new Set(["success", "neutral", "skipped"]);
/** Check states that count as failed. */
export const FAILED_STATES = new Set(["failure", "error", "cancelled", "timed_out", "action_required", "stale"]);
