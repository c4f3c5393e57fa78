/**
 * Named builders of valid metadata for each of the 47 event types (docs/events.md "Event
 * types", events.proto), by event family: workflow actions (event-samples-actions.ts), the merge
 * queue (event-samples-queue.ts), CI insights (event-samples-ci-insights.ts), commands, products,
 * pauses and freezes (event-samples-controls.ts), and the shared structures
 * (event-samples-shared.ts). Every builder takes overrides, so a test states only what matters to
 * it. `METADATA_BUILDERS` maps each type to its builder: tests iterate it (data-driven), and a type
 * missing here fails the coverage test.
 */
import {
  assignMetadata,
  backportMetadata,
  closeMetadata,
  commentMetadata,
  copyMetadata,
  deleteHeadBranchMetadata,
  dequeueMetadata,
  dismissReviewsMetadata,
  editMetadata,
  hostActionsMetadata,
  labelLoopStoppedMetadata,
  labelMetadata,
  mergeMetadata,
  postCheckMetadata,
  rebaseMetadata,
  refreshMetadata,
  requestReviewsMetadata,
  reviewMetadata,
  squashMetadata,
  updateMetadata,
} from "./event-samples-actions.js";
import {
  autoQuarantineDisabledMetadata,
  autoQuarantineEnabledMetadata,
  autoQuarantineModifiedMetadata,
  dequarantinedMetadata,
  jobRetriedMetadata,
  quarantinedMetadata,
} from "./event-samples-ci-insights.js";
import {
  commandDequeueMetadata,
  commandQueueMetadata,
  freezeCreateMetadata,
  freezeDeleteMetadata,
  freezeUpdateMetadata,
  pauseCreateMetadata,
  pauseDeleteMetadata,
  pauseUpdateMetadata,
  productDisabledMetadata,
  productEnabledMetadata,
} from "./event-samples-controls.js";
import {
  bisectionEndMetadata,
  bisectionStartMetadata,
  checksChangeMetadata,
  checksEndMetadata,
  checksPostponedMetadata,
  checksStartMetadata,
  conflictDeferredMetadata,
  enterMetadata,
  leaveMetadata,
  queueChangeMetadata,
  queueMergedMetadata,
} from "./event-samples-queue.js";
import type { Builder, Json } from "./event-samples-shared.js";

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
