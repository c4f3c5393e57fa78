/**
 * Named builders of valid metadata for each of the 47 event types (docs/events.md "Event
 * types", events.proto), plus the shared structures. Every builder takes overrides, so a test
 * states only what matters to it. `METADATA_BUILDERS` maps each type to its builder: tests iterate
 * it (data-driven), and a type missing here fails the coverage test.
 */
type Json = Record<string, unknown>;
type Builder = (over?: Json) => Json;

export const UUID_A = "0b1d1c2e-3f40-4a5b-8c6d-7e8f90a1b2c3";
export const UUID_B = "9f8e7d6c-5b4a-4392-a180-f1e2d3c4b5a6";
const AT = "2026-11-22T10:00:00Z";

// ---- shared structures (docs/events.md "Shared structures") ----

export const actor = (over: Json = {}): Json => ({ type: "user", id: 4242, name: "ada", ...over });
export const applicationActor = (over: Json = {}): Json => ({
  type: "application",
  id: UUID_A,
  name: "admin application key",
  ...over,
});
export const speculativeCheck = (over: Json = {}): Json => ({
  number: 1001,
  in_place: false,
  checks_timed_out: false,
  checks_conclusion: "success",
  checks_started_at: AT,
  checks_ended_at: "2026-11-22T10:05:00Z",
  ...over,
});
export const queueCheck = (over: Json = {}): Json => ({
  name: "ci/test",
  description: "tests",
  url: "https://ci.example/1",
  state: "failure",
  avatar_url: null,
  ...over,
});
export const conditionEvaluation = (over: Json = {}): Json => ({
  match: true,
  label: "all of",
  is_label_user_input: false,
  description: null,
  attribute_name: null,
  operator: null,
  schedule: null,
  subconditions: [],
  evaluations: [],
  ...over,
});
export const freezeAttrs = (over: Json = {}): Json => ({
  reason: "release",
  start: AT,
  end: null,
  timezone: "Europe/Paris",
  matching_conditions: ["base=main"],
  exclude_conditions: [],
  ...over,
});
export const quarantineSnapshot = (over: Json = {}): Json => ({
  source: "auto",
  reason: "flaky",
  branch: null,
  created_at: AT,
  health_status_at_event: "flaky",
  ...over,
});
export const commandAuthor = (over: Json = {}): Json => ({ login: "ada", id: 7, type: "User", ...over });
const autoQuarantine = (over: Json = {}): Json => ({ ignore_broken_on_default_branch: true, ...over });

// ---- workflow actions ----

export const assignMetadata: Builder = (o) => ({ added: ["ada"], removed: [], ...o });
export const backportMetadata: Builder = (o) => ({
  to: "release/1.x",
  pull_request_number: 88,
  conflicts: false,
  ...o,
});
export const closeMetadata: Builder = (o) => ({ message: "closed by rule", ...o });
export const commentMetadata: Builder = (o) => ({ message: "hello", ...o });
export const copyMetadata: Builder = (o) => ({ to: "release/2.x", pull_request_number: 89, conflicts: true, ...o });
export const deleteHeadBranchMetadata: Builder = (o) => ({ branch: "feature/x", ...o });
export const dequeueMetadata: Builder = (o) => ({ ...o });
export const dismissReviewsMetadata: Builder = (o) => ({ users: ["grace"], ...o });
export const editMetadata: Builder = (o) => ({ draft: false, ...o });
export const hostActionsMetadata: Builder = (o) => ({ workflow: "deploy.yml", inputs: { env: "staging" }, ...o });
export const labelMetadata: Builder = (o) => ({ added: ["ready"], removed: ["wip"], ...o });
export const labelLoopStoppedMetadata: Builder = (o) => ({
  label: "ready",
  rules: ["add ready", "remove ready"],
  ...o,
});
export const mergeMetadata: Builder = (o) => ({ branch: "main", ...o });
export const postCheckMetadata: Builder = (o) => ({
  conclusion: "success",
  title: "Rule: ok",
  summary: "all good",
  ...o,
});
export const rebaseMetadata: Builder = (o) => ({ ...o });
export const refreshMetadata: Builder = (o) => ({ ...o });
export const requestReviewsMetadata: Builder = (o) => ({ reviewers: ["grace"], team_reviewers: ["core"], ...o });
export const reviewMetadata: Builder = (o) => ({ review_type: "APPROVE", reviewer: "ada", message: null, ...o });
export const squashMetadata: Builder = (o) => ({ ...o });
export const updateMetadata: Builder = (o) => ({ ...o });

// ---- the merge queue ----

const queueFields = (): Json => ({
  branch: "main",
  queue_name: "default",
  queued_at: AT,
  priority_rule_name: null,
  session_id: UUID_A,
});
const batchFields = (): Json => ({ batch_id: UUID_B, train_car_id: UUID_B, batch_name: "batch 7" });

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
  unsuccessful_checks: [],
  pull_request_numbers: [1, 2],
  direct_merge_impacted_base_scopes: null,
  ...batchFields(),
  scopes: [],
  parent_batch_ids: [],
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
  unsuccessful_checks: [],
  pull_request_numbers: [1, 2],
  direct_merge_impacted_base_scopes: null,
  ...batchFields(),
  scopes: [],
  parent_batch_ids: [],
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

// ---- CI insights, commands, products, pause, freezes, quarantine ----

export const autoQuarantineDisabledMetadata: Builder = (o) => ({
  disabled_by: actor(),
  disabled_at: AT,
  auto_quarantine_config_attributes: autoQuarantine(),
  disabled_by_staff: false,
  ...o,
});
export const autoQuarantineEnabledMetadata: Builder = (o) => ({
  enabled_by: applicationActor(),
  enabled_at: AT,
  auto_quarantine_config_attributes: autoQuarantine(),
  enabled_by_staff: false,
  ...o,
});
export const autoQuarantineModifiedMetadata: Builder = (o) => ({
  updated_by: actor(),
  updated_at: AT,
  auto_quarantine_config_attributes_before: autoQuarantine(),
  auto_quarantine_config_attributes_after: autoQuarantine({ ignore_broken_on_default_branch: false }),
  updated_by_staff: true,
  ...o,
});
export const jobRetriedMetadata: Builder = (o) => ({
  rule_id: UUID_A,
  rule_name: "retry flaky",
  max_retry: 3,
  retry_mode: "job",
  retry_attempt: 1,
  condition_matches: [{ kind: "simple" }],
  outcome: "retried",
  workflow_run_id: 123456,
  job_url: null,
  ...o,
});
export const commandDequeueMetadata: Builder = (o) => ({
  author: commandAuthor(),
  comment_id: 991,
  session_id: null,
  command_trigger: "comment",
  trigger_comment_url: "https://forge.example/c/991",
  ...o,
});
export const commandQueueMetadata: Builder = (o) => ({
  author: commandAuthor({ avatar_url: null }),
  comment_id: 990,
  session_id: UUID_A,
  command_trigger: "checkbox",
  trigger_comment_url: null,
  ...o,
});
export const productDisabledMetadata: Builder = (o) => ({
  product: "merge_queue",
  disabled_by: actor(),
  disabled_at: AT,
  disabled_by_staff: false,
  ...o,
});
export const productEnabledMetadata: Builder = (o) => ({
  product: "ci_insights",
  enabled_by: actor(),
  enabled_at: AT,
  enabled_by_staff: true,
  ...o,
});
export const pauseCreateMetadata: Builder = (o) => ({
  reason: "release freeze",
  created_by: applicationActor(),
  created_by_staff: false,
  ...o,
});
export const pauseDeleteMetadata: Builder = (o) => ({ deleted_by: applicationActor(), deleted_by_staff: false, ...o });
export const pauseUpdateMetadata: Builder = (o) => ({
  reason: "still frozen",
  updated_by: actor(),
  updated_by_staff: false,
  ...o,
});
export const freezeCreateMetadata: Builder = (o) => ({
  scheduled_freeze_attributes: freezeAttrs(),
  created_by: actor(),
  created_at: AT,
  created_by_staff: false,
  ...o,
});
export const freezeDeleteMetadata: Builder = (o) => ({
  scheduled_freeze_attributes: freezeAttrs(),
  reason: "done",
  deleted_by: actor(),
  deleted_at: AT,
  deleted_by_staff: false,
  ...o,
});
export const freezeUpdateMetadata: Builder = (o) => ({
  scheduled_freeze_attributes_before: freezeAttrs(),
  scheduled_freeze_attributes_after: freezeAttrs({ end: "2026-11-23T10:00:00Z" }),
  updated_by: actor(),
  updated_at: AT,
  updated_by_staff: false,
  ...o,
});
export const dequarantinedMetadata: Builder = (o) => ({
  quarantine_id: UUID_A,
  test_id: UUID_B,
  test_name: "test_login",
  source: "manual",
  original_quarantine: quarantineSnapshot(),
  dequarantined_at: AT,
  dequarantined_by: null,
  dequarantined_by_staff: false,
  ...o,
});
export const quarantinedMetadata: Builder = (o) => ({
  quarantine_id: UUID_A,
  test_name: "test_login",
  source: "auto",
  reason: "flaky for 3 days",
  branch: "main",
  quarantined_at: AT,
  health_status_at_event: "flaky",
  quarantined_by: actor(),
  quarantined_by_staff: false,
  ...o,
});

/** Event type -> the builder of a valid metadata object. */
export const METADATA_BUILDERS: Readonly<Record<string, Builder>> = {
  "action.assign": assignMetadata,
  "action.backport": backportMetadata,
  "action.close": closeMetadata,
  "action.comment": commentMetadata,
  "action.copy": copyMetadata,
  "action.delete_head_branch": deleteHeadBranchMetadata,
  "action.dequeue": dequeueMetadata,
  "action.dismiss_reviews": dismissReviewsMetadata,
  "action.edit": editMetadata,
  "action.host_actions": hostActionsMetadata,
  "action.label": labelMetadata,
  "action.label.loop_stopped": labelLoopStoppedMetadata,
  "action.merge": mergeMetadata,
  "action.post_check": postCheckMetadata,
  "action.rebase": rebaseMetadata,
  "action.refresh": refreshMetadata,
  "action.request_reviews": requestReviewsMetadata,
  "action.review": reviewMetadata,
  "action.squash": squashMetadata,
  "action.update": updateMetadata,
  "action.queue.batch_bisection_end": bisectionEndMetadata,
  "action.queue.batch_bisection_start": bisectionStartMetadata,
  "action.queue.change": queueChangeMetadata,
  "action.queue.checks.change": checksChangeMetadata,
  "action.queue.checks_end": checksEndMetadata,
  "action.queue.checks_postponed": checksPostponedMetadata,
  "action.queue.checks_start": checksStartMetadata,
  "action.queue.conflict_deferred": conflictDeferredMetadata,
  "action.queue.enter": enterMetadata,
  "action.queue.leave": leaveMetadata,
  "action.queue.merged": queueMergedMetadata,
  "ci_insights.auto_quarantine.disabled": autoQuarantineDisabledMetadata,
  "ci_insights.auto_quarantine.enabled": autoQuarantineEnabledMetadata,
  "ci_insights.auto_quarantine.modified": autoQuarantineModifiedMetadata,
  "ci_insights.job_retried": jobRetriedMetadata,
  "command.dequeue": commandDequeueMetadata,
  "command.queue": commandQueueMetadata,
  "product.disabled": productDisabledMetadata,
  "product.enabled": productEnabledMetadata,
  "queue.pause.create": pauseCreateMetadata,
  "queue.pause.delete": pauseDeleteMetadata,
  "queue.pause.update": pauseUpdateMetadata,
  "scheduled_freeze.create": freezeCreateMetadata,
  "scheduled_freeze.delete": freezeDeleteMetadata,
  "scheduled_freeze.update": freezeUpdateMetadata,
  "test.dequarantined": dequarantinedMetadata,
  "test.quarantined": quarantinedMetadata,
};

/** An event input in AppendEvents' JSON shape (snake_case keys, as `events import` lines are written). */
export function eventLine(type: string, over: Json = {}, metadata: Json = {}): Json {
  return {
    type,
    repository: "acme/widgets",
    pull_request: 42,
    base_ref: "main",
    trigger: "Rule: automatic merge",
    received_at: "2026-11-22T10:00:00.000Z",
    metadata: METADATA_BUILDERS[type](metadata),
    ...over,
  };
}
