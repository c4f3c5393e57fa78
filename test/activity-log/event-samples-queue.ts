/**
 * Valid metadata samples of the merge queue events (`action.queue.*`: enter, checks, bisection,
 * leave, merged...; docs/events.md "Event types"). Each builder takes overrides.
 */
import {
  AT,
  type Builder,
  conditionEvaluation,
  type Json,
  queueCheck,
  speculativeCheck,
  UUID_A,
  UUID_B,
} from "./event-samples-shared.js";

const queueFields = (): Json => ({
  branch: "main",
  queue_name: "default",
  queued_at: AT,
  priority_rule_name: null,
  session_id: UUID_A,
});
const batchFields = (): Json => ({ batch_id: UUID_B, train_car_id: UUID_B, batch_name: "batch 7" });
/** The fields about the batch checked that checks_start and checks_end share, in their order. */
const checkedBatchFields = (): Json => ({
  unsuccessful_checks: [],
  pull_request_numbers: [1, 2],
  direct_merge_impacted_base_scopes: null,
  ...batchFields(),
  scopes: [],
  parent_batch_ids: [],
});

export const bisectionEndMetadata: Builder = (o) => ({
  queue_name: "default",
  priority_rule_name: null,
  original_batch_pr_numbers: [1, 2, 3, 4],
  culprit_found: true,
  culprit_pr_numbers: [3],
  confirmed_culprit_pr_numbers: [3],
  dropped_unverified_pr_numbers: null,
  remaining_pr_numbers: [1, 2, 4],
  max_failure_resolution_reached: false,
  session_id: UUID_A,
  ...batchFields(),
  batch_pull_request: 1001,
  ...o,
});
export const bisectionStartMetadata: Builder = (o) => ({
  queue_name: "default",
  priority_rule_name: null,
  original_batch_pr_numbers: [1, 2, 3, 4],
  batch_size_before_split: 4,
  number_of_sub_batches: 2,
  bisection_depth: 1,
  is_top_level: true,
  session_id: UUID_A,
  ...batchFields(),
  batch_pull_request: 1001,
  ...o,
});
export const queueChangeMetadata: Builder = (o) => ({ queue_name: "default", priority_rule_name: null, size: 3, ...o });
export const checksChangeMetadata: Builder = (o) => ({ queue_name: "default", running_checks: 2, ...o });
export const checksEndMetadata: Builder = (o) => ({
  aborted: false,
  abort_code: null,
  abort_reason: null,
  abort_status: "DEFINITIVE",
  ...queueFields(),
  retry_attempt: null,
  max_retries: 0,
  retries_before_run: 0,
  bisection_depth: 0,
  speculative_check_pull_request: speculativeCheck(),
  ...checkedBatchFields(),
  all_scopes: null,
  ...o,
});
export const checksPostponedMetadata: Builder = (o) => ({
  ...queueFields(),
  reason: "draft pull request creation failed",
  batch_id: UUID_B,
  batch_name: "batch 7",
  sub_batch_pr_numbers: [1, 2],
  attempt: 1,
  ...o,
});
export const checksStartMetadata: Builder = (o) => ({
  ...queueFields(),
  start_reason: "First time checking",
  speculative_check_pull_request: speculativeCheck({ checks_conclusion: "pending", checks_ended_at: null }),
  ...checkedBatchFields(),
  previous_batch_id: null,
  previous_batch_name: null,
  all_scopes: null,
  ...o,
});
export const conflictDeferredMetadata: Builder = (o) => ({
  ...queueFields(),
  reason: "conflict with a pull request ahead",
  blocking_pull_request_numbers: [5],
  ...o,
});
export const enterMetadata: Builder = (o) => ({
  queue_name: "default",
  branch: "main",
  queued_at: AT,
  priority_rule_name: null,
  session_id: UUID_A,
  ...o,
});
export const leaveMetadata: Builder = (o) => ({
  reason: "merged",
  merged: true,
  queue_name: "default",
  branch: "main",
  queued_at: AT,
  seconds_waiting_for_schedule: 0,
  seconds_waiting_for_freeze: 0,
  priority_rule_name: null,
  conditions_evaluation: conditionEvaluation(),
  checks: [queueCheck({ state: "success" })],
  unsuccessful_checks: [],
  pull_request_head_sha: "a".repeat(40),
  session_id: UUID_A,
  dequeue_code: "PR_MERGED",
  batch_id: UUID_B,
  scopes: [],
  all_scopes: false,
  ...o,
});
export const queueMergedMetadata: Builder = (o) => ({
  branch: "main",
  queue_name: "default",
  queued_at: AT,
  priority_rule_name: null,
  session_id: UUID_A,
  merge_commit_sha: "b".repeat(40),
  ...o,
});
