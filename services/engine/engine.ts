/**
 * The merge queue engine: `apply(state, event, now) -> {state, effects}`, a pure function (no I/O,
 * no clock, no randomness). Sources: docs/domain.md §3, docs/merge-queue.md.
 *
 * The queue rules, in plain English:
 *
 * 1. A pull request enters the queue of its base branch when the runner says so (a queue rule
 *    matched, `@yardmaster queue [rule]`, or the API). It keeps its queue rule, its priority and
 *    its scopes. Entering again with the same rule and priority changes nothing; with different
 *    ones it leaves and enters again.
 * 2. Waiting pull requests are ordered by effective priority (queue rule rank, then priority),
 *    then by the time they entered. A pull request whose priority rule allows interrupting checks
 *    stops the first batch holding a lower-priority pull request that has not passed yet, and
 *    every batch checked on top of it; their pull requests wait again.
 * 3. Batches are formed from the head of the waiting list: up to `batch_size` pull requests of the
 *    same queue rule and priority (and, outside serial mode, the same scopes). A batch that is not
 *    full waits at most `batch_max_wait_time`. With a `{min, max}` size, the backlog is spread over
 *    the free slots. With `risk_aware_batching`, a risky pull request ends its batch (risk.ts).
 * 4. Up to `max_parallel_checks` batches are checked at once. Each batch is checked on top of the
 *    batches ahead of it (speculatively: as if they had merged) - in serial mode all of them, in
 *    parallel mode those sharing a scope, in isolated mode none. A check runs on a draft pull
 *    request built from the base, or in place on the pull request when there is no speculation,
 *    no batching, no retry and the CI is single-step.
 * 5. A batch passes when the runner reports its merge conditions true; it fails when they are false
 *    or when `checks_timeout` expires. A failure is retried with a fresh draft while
 *    `max_checks_retries` allows. Conditions false only because a schedule is closed are no
 *    failure: the batch waits for it (`waiting_schedule`), without a timeout. When it holds up
 *    pull requests that could merge now (a passed batch on top of it, its own members whose
 *    schedule is open) and its schedule opens later than a CI run would take, it gives way: the
 *    others are rechecked without it, and its blocked members wait until the schedule opens.
 *    A scheduled freeze holds a batch the same way (`frozen`), also one that already passed; it
 *    is not merged until the runner releases it, and gives way with SCHEDULED_FREEZE_STATUS_CHANGED.
 * 6. The batches checked on top of a failed batch are rechecked without it at once. The failed
 *    batch is judged once every batch it is checked on top of has passed: a single pull request
 *    is the culprit and leaves; a larger batch is bisected - prefixes of it are checked on the
 *    side, as diagnostic sub-batches nothing is built on - until the culprit is found, at most
 *    `batch_max_failure_resolution_attempts` splits. Pull requests a prefix proved good merge
 *    from it when that is exact and stops nothing else, or wait again with the train.
 * 7. A passed batch merges when every batch it is checked on top of has merged, one merge at a time
 *    per base branch; the base moves once, to the tree that passed. With
 *    `skip_intermediate_results`, a passed batch merges at once together with the unmerged batches
 *    it was checked on top of (a later success vindicates an earlier failure), unless one of
 *    them waits for its merge schedule.
 * 8. The base moving outside the queue resets every batch of the branch when
 *    `reset_on_external_merge` is `always`.
 * 9. Pausing stops new checks and merges and stops running draft checks; pull requests stay queued.
 * 10. A pull request leaving (dequeued, updated, closed, merged by hand, conditions false, culprit,
 *    its base branch deleted or changed, its batch's draft edited by someone else) stops its batch
 *    and the batches checked on top of it; their other pull requests wait again, and the pull
 *    requests stacked on it (`Depends-On`) leave too. With `allow_queue_branch_edit` and
 *    merge-batch an edited draft is checked again instead, and nothing is built on it until it merged.
 *
 * Each rule is one module: formation.ts (3), checks.ts (4), outcomes.ts (5, 6), bisection.ts (6),
 * merging.ts (7), base.ts (8, deleted bases), control-events.ts (9, config), leave.ts (10),
 * pull-events.ts (1, 2, a new base), checks.ts (edited drafts).
 */
import { onBaseDeleted, onBaseMoved } from "./base.js";
import { onCheckClosed, onCheckCreated, onCheckCreationFailed, onCheckEdited } from "./check-reports.js";
import { projectConfiguration, type ConfigurationInput } from "./config.js";
import { Ctx } from "./context.js";
import { onConfigurationChanged, onDequeue, onPause, onUnpause } from "./control-events.js";
import type { EngineEffect } from "./effects.js";
import { EngineInputError, parseEvent, type EngineEvent } from "./events.js";
import { onMergeCompleted, onMergeFailed } from "./merging.js";
import { onCheckRerunFailed, onCheckResults } from "./outcomes.js";
import { onFreezeReleased } from "./schedule-yield.js";
import { onMergeQueueDisabled, onProtectionsEvaluated, onScopesChanged } from "./holds.js";
import { onBaseChanged, onClosed, onMergedExternally, onQueueConditions, onQueued, onUpdated } from "./pull-events.js";
import { reconcile } from "./reconcile.js";
import { copyState } from "./state-copy.js";
import { emptyState, type EngineState, type EpochMs } from "./state.js";

/** What `apply` returns: the next state and the effects to perform, in order. */
export interface ApplyResult {
  state: EngineState;
  effects: EngineEffect[];
}

function dispatch(ctx: Ctx, event: EngineEvent): void {
  switch (event.type) {
    case "configuration_changed":
      return onConfigurationChanged(ctx, event.config);
    case "pull_request_queued":
      return onQueued(ctx, event);
    case "pull_request_updated":
      return onUpdated(ctx, event.number, event.headSha);
    case "pull_request_closed":
      return onClosed(ctx, event.number);
    case "pull_request_base_changed":
      return onBaseChanged(ctx, event.number, event.baseRef);
    case "pull_request_merged_externally":
      return onMergedExternally(ctx, event.number);
    case "queue_conditions_evaluated":
      return onQueueConditions(ctx, event);
    case "speculative_check_created":
      return onCheckCreated(ctx, event);
    case "speculative_check_failed":
      return onCheckCreationFailed(ctx, event);
    case "speculative_check_closed":
      return onCheckClosed(ctx, event.checkId);
    case "speculative_check_edited":
      return onCheckEdited(ctx, event);
    case "check_results":
      return onCheckResults(ctx, event);
    case "check_rerun_failed":
      return onCheckRerunFailed(ctx, event.checkId, event.message);
    case "merge_completed":
      return onMergeCompleted(ctx, event);
    case "merge_failed":
      return onMergeFailed(ctx, event);
    case "base_branch_moved":
      return onBaseMoved(ctx, event.branch, event.sha);
    case "base_branch_deleted":
      return onBaseDeleted(ctx, event.branch);
    case "timer_fired": {
      delete ctx.state.timers[event.key];
      return;
    }
    case "pause":
      return onPause(ctx, event);
    case "unpause":
      return onUnpause(ctx);
    case "freeze_released":
      return onFreezeReleased(ctx, event.numbers);
    case "dequeue_requested":
      return onDequeue(ctx, event);
    case "merge_protections_evaluated":
      return onProtectionsEvaluated(ctx, event);
    case "pull_request_scopes_changed":
      return onScopesChanged(ctx, event);
    case "merge_queue_disabled":
      return onMergeQueueDisabled(ctx, event);
  }
}

/**
 * Applies one event at `now` (epoch milliseconds UTC) to a repository's state.
 * The input state is not modified; the returned state is a new object.
 * @throws EngineInputError (or its subclass NotQueuedError) for a bad event, with the field path;
 *   nothing is changed then.
 */
export function apply(state: EngineState, event: unknown, now: EpochMs): ApplyResult {
  if (!Number.isFinite(now) || now < 0) throw new EngineInputError("now", "must be a time in epoch milliseconds");
  const parsed = parseEvent(event);
  const ctx = new Ctx(copyState(state), now);
  dispatch(ctx, parsed);
  reconcile(ctx);
  return { state: ctx.state, effects: ctx.effects };
}

/** A new state for `repository` ("owner/name") with a configuration (none: no queue rules). */
export function createState(repository: string, config?: ConfigurationInput): EngineState {
  return emptyState(repository, config ? projectConfiguration(config) : undefined);
}
