/**
 * Builders of the `action.queue.*` and `action.dequeue` log effects, with every metadata field
 * of events.proto (required ones always present, nullable ones null when unknown, `train_car_id`
 * always equal to `batch_id`). Queue events are per pull request: each carries that pull
 * request's session, queue name and priority rule (docs/domain.md §4.4).
 */
import { isFailureCheckState, type AbortCode, type DequeueCode } from "../config/index.js";
import { abortStatus, reasonOf } from "./codes.js";
import type { Ctx } from "./context.js";
import { INTERNAL_TRIGGER } from "./effects.js";
import type { Bisection, Batch, CheckAttempt, PullEntry, PullRef, QueueCheck } from "./state.js";

/** Checks that did not succeed (events' `unsuccessful_checks`). */
export function unsuccessful(checks: QueueCheck[]): QueueCheck[] {
  return checks.filter((c) => isFailureCheckState(c.state));
}

function queueFields(ctx: Ctx, pull: PullEntry) {
  return {
    branch: pull.baseRef,
    queue_name: pull.queueRule,
    queued_at: ctx.iso(pull.queuedAt),
    priority_rule_name: pull.priorityRuleName,
    session_id: pull.sessionId,
  };
}

function batchFields(batch: Batch) {
  return {
    batch_id: batch.id,
    train_car_id: batch.id,
    batch_name: batch.name,
    scopes: batch.scopes,
    parent_batch_ids: batch.ancestors,
    all_scopes: batch.allScopes,
  };
}

/** The check's SpeculativeCheck object (events.proto); `number` must be known. */
function speculativeCheck(ctx: Ctx, check: CheckAttempt, conclusion: string) {
  if (check.number === null) throw new Error("engine invariant: a logged check has a pull request number");
  return {
    number: check.number,
    in_place: check.mode === "in_place",
    checks_timed_out: check.timedOut,
    checks_conclusion: conclusion,
    checks_started_at: check.startedAt === null ? null : ctx.iso(check.startedAt),
    checks_ended_at: check.endedAt === null ? null : ctx.iso(check.endedAt),
  };
}

/** action.queue.enter for a pull request entering the queue. */
export function logEnter(ctx: Ctx, pull: PullEntry): void {
  const { branch, queue_name, queued_at, priority_rule_name, session_id } = queueFields(ctx, pull);
  ctx.log("action.queue.enter", pull.number, pull.baseRef, pull.trigger, {
    queue_name,
    branch,
    queued_at,
    priority_rule_name,
    session_id,
  });
}

/**
 * The batch a leave event names (`batch_id`, `scopes`, `all_scopes`): a batch, or the bisection
 * record of a bisected batch (same id) for the pull requests it held.
 */
export type LeaveBatch = Pick<Batch, "id" | "scopes" | "allScopes">;

/** One pull request leaving the queue. */
export interface Leave {
  code: DequeueCode;
  /** The batch it was in when it left; null when it was waiting. */
  batch: LeaveBatch | null;
  /** What caused it (the log event's trigger). */
  trigger: string;
  /** The sentence shown to users; default: the code's (engine/codes.ts). */
  reason?: string;
}

/** action.queue.leave for a pull request leaving the queue. */
export function logLeave(ctx: Ctx, pull: PullEntry, { code, batch, trigger, reason }: Leave): void {
  const merged = code === "PR_MERGED" || code === "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED";
  ctx.log("action.queue.leave", pull.number, pull.baseRef, trigger, {
    reason: reason ?? reasonOf(code),
    merged,
    ...queueFields(ctx, pull),
    seconds_waiting_for_schedule: Math.round((pull.scheduleWaitMs ?? 0) / 1000),
    seconds_waiting_for_freeze: Math.round((pull.freezeWaitMs ?? 0) / 1000),
    conditions_evaluation: pull.lastEvaluation ?? null,
    checks: pull.lastChecks,
    unsuccessful_checks: unsuccessful(pull.lastChecks),
    pull_request_head_sha: pull.headSha,
    dequeue_code: code,
    batch_id: batch?.id ?? null,
    scopes: batch ? batch.scopes : null,
    all_scopes: batch ? batch.allScopes : null,
  });
}

/** action.queue.checks_start for one member of a batch whose check exists now. */
export function logChecksStart(
  ctx: Ctx,
  pull: PullEntry,
  batch: Batch,
  check: CheckAttempt,
  startReason: string,
): void {
  ctx.log("action.queue.checks_start", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...queueFields(ctx, pull),
    start_reason: startReason,
    speculative_check_pull_request: speculativeCheck(ctx, check, "pending"),
    unsuccessful_checks: [],
    pull_request_numbers: batch.members,
    direct_merge_impacted_base_scopes: null,
    ...batchFields(batch),
    previous_batch_id: pull.previousBatch?.id ?? null,
    previous_batch_name: pull.previousBatch?.name ?? null,
  });
}

/** How a check ended for one pull request: concluded (aborted false) or stopped with a code. */
export type CheckEnd =
  | { aborted: false; conclusion: "success" | "failure" | "timed_out" }
  | { aborted: true; code: AbortCode; reason?: string };

/** How a check attempt ended for one member of its batch. */
export interface MemberCheckEnd {
  pull: PullEntry;
  batch: Batch;
  check: CheckAttempt;
  end: CheckEnd;
  /** The queue rule's max_checks_retries. */
  maxRetries: number;
}

/** action.queue.checks_end for one member: the check concluded (aborted false) or stopped with a code. */
export function logChecksEnd(ctx: Ctx, { pull, batch, check, end, maxRetries }: MemberCheckEnd): void {
  const conclusion = end.aborted ? "cancelled" : end.conclusion;
  const retried = end.aborted && end.code === "CHECKS_RETRIED";
  ctx.log("action.queue.checks_end", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    aborted: end.aborted,
    abort_code: end.aborted ? end.code : null,
    abort_reason: end.aborted ? (end.reason ?? reasonOf(end.code)) : null,
    abort_status: end.aborted ? abortStatus(end.code) : "DEFINITIVE",
    ...queueFields(ctx, pull),
    retry_attempt: retried ? check.attempt + 1 : null,
    max_retries: maxRetries,
    retries_before_run: check.attempt,
    bisection_depth: batch.depth,
    speculative_check_pull_request: speculativeCheck(ctx, check, conclusion),
    unsuccessful_checks: unsuccessful(check.checks),
    pull_request_numbers: batch.members,
    direct_merge_impacted_base_scopes: null,
    ...batchFields(batch),
    // What the test results decided (docs/merge-queue.md "Verdicts from test results"), when they did.
    ...(!end.aborted && check.ignoredTests?.length ? { ignored_failing_tests: check.ignoredTests } : {}),
    ...(!end.aborted && check.testNote ? { test_results_note: check.testNote } : {}),
  });
}

/** action.queue.checks_postponed: the draft of the batch could not be created; `attempt` is 1-based within the stay. */
export function logChecksPostponed(ctx: Ctx, pull: PullEntry, batch: Batch, reason: string, attempt: number): void {
  ctx.log("action.queue.checks_postponed", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...queueFields(ctx, pull),
    reason,
    batch_id: batch.id,
    batch_name: batch.name,
    sub_batch_pr_numbers: batch.members,
    attempt,
  });
}

/** action.queue.conflict_deferred: held until `blockers` (pull requests ahead in the check) have left the queue. */
export function logConflictDeferred(ctx: Ctx, pull: PullEntry, reason: string, blockers: number[]): void {
  ctx.log("action.queue.conflict_deferred", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...queueFields(ctx, pull),
    reason,
    blocking_pull_request_numbers: blockers,
  });
}

/** action.queue.merged: the queue merged the pull request; `mergeCommitSha` is the new base tip. */
export function logMerged(ctx: Ctx, pull: PullEntry, mergeCommitSha: string | null): void {
  ctx.log("action.queue.merged", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...queueFields(ctx, pull),
    merge_commit_sha: mergeCommitSha,
  });
}

function bisectionFields(pull: PullRef, b: Bisection) {
  return {
    queue_name: pull.queueRule,
    priority_rule_name: pull.priorityRuleName,
    session_id: pull.sessionId,
    original_batch_pr_numbers: b.members,
    batch_id: b.id,
    train_car_id: b.id,
    batch_name: b.name,
    batch_pull_request: b.checkPullRequest,
  };
}

/**
 * action.queue.batch_bisection_start for one member of the bisected batch, with how the split was
 * chosen (`split_strategy`: halving, or suspect_first with the suspect and why).
 */
export function logBisectionStart(ctx: Ctx, pull: PullRef, b: Bisection): void {
  ctx.log("action.queue.batch_bisection_start", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...bisectionFields(pull, b),
    batch_size_before_split: b.members.length,
    number_of_sub_batches: b.subBatchIds.length,
    bisection_depth: b.depth,
    is_top_level: b.depth === 0,
    split_strategy: b.split?.strategy ?? "halving",
    suspect_pr_number: b.split?.suspect ?? null,
    suspect_reason: b.split?.reason ?? null,
  });
}

/** action.queue.batch_bisection_end for one member: culprits found, what remains queued, whether attempts ran out. */
export function logBisectionEnd(ctx: Ctx, pull: PullRef, b: Bisection, remaining: number[], maxReached: boolean): void {
  const culprits = [...b.confirmedCulprits, ...b.droppedUnverified];
  ctx.log("action.queue.batch_bisection_end", pull.number, pull.baseRef, INTERNAL_TRIGGER, {
    ...bisectionFields(pull, b),
    culprit_found: culprits.length > 0,
    culprit_pr_numbers: culprits,
    confirmed_culprit_pr_numbers: b.confirmedCulprits,
    dropped_unverified_pr_numbers: b.droppedUnverified,
    remaining_pr_numbers: remaining,
    max_failure_resolution_reached: maxReached,
  });
}

/** action.queue.change: the size of a queue (rule) on a branch after a change. */
export function logQueueChange(ctx: Ctx, pull: PullEntry, trigger: string): void {
  const size = Object.values(ctx.state.pulls).filter(
    (p) => p.baseRef === pull.baseRef && p.queueRule === pull.queueRule,
  ).length;
  ctx.log("action.queue.change", pull.number, pull.baseRef, trigger, {
    queue_name: pull.queueRule,
    priority_rule_name: pull.priorityRuleName,
    size,
  });
}

/** action.queue.checks.change: the number of checks running for a queue rule on a branch. */
export function logChecksChange(ctx: Ctx, branch: string, queueName: string, running: number): void {
  ctx.log("action.queue.checks.change", null, branch, INTERNAL_TRIGGER, {
    queue_name: queueName,
    running_checks: running,
  });
}

/** action.dequeue: a user asked to dequeue (no metadata fields). */
export function logDequeue(ctx: Ctx, pull: PullEntry, trigger: string): void {
  ctx.log("action.dequeue", pull.number, pull.baseRef, trigger, {});
}
