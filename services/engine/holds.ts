/**
 * What the runner tells the engine about a queued pull request from outside the queue's own
 * rules: merge protections holding it (docs/merge-protections.md "The queue"), scopes sent by CI
 * (docs/merge-queue.md "Scopes from CI"), and the merge_queue product switched off
 * (docs/configuration.md "Products and unused sections").
 *
 * - merge_protections_evaluated: a held pull request stays queued but is not embarked
 *   (formation.ts); one that is in a batch not yet merging stops that batch and those checked on
 *   top of it (SCHEDULED_FREEZE_STATUS_CHANGED, the code of a merge protection's status change:
 *   scheduled freezes are merge protections in the compatible service), their other pull requests
 *   are embarked again. A batch already merging is not stopped: its merge is in flight. Released,
 *   it is embarked again in its queue order.
 * - pull_request_scopes_changed: new scopes for a waiting pull request change its lane; one in a
 *   batch not yet merging stops that batch and those on top of it (BATCH_SCOPES_CHANGED) and is
 *   embarked again with its new scopes.
 * - merge_queue_disabled: every queued pull request leaves (PR_DEQUEUED) but those whose batch is
 *   merging (the merge decides).
 */
import { abandonBisections } from "./bisection-end.js";
import { cancelBatches, withDescendants } from "./batches.js";
import type { AbortCode } from "../config/index.js";
import type { Ctx } from "./context.js";
import type { EventOf } from "./events.js";
import { leaveQueue } from "./leave.js";

/** Stops the batch holding `number` (not merging) and those on top of it, in every train. */
function stopBatchesOf(ctx: Ctx, number: number, code: AbortCode, reason: string): void {
  for (const train of ctx.trainsOf(number)) {
    const batch = train.batches.find((b) => b.members.includes(number) && !b.merging);
    if (!batch) continue;
    abandonBisections(ctx, train, cancelBatches(ctx, train, withDescendants(train, batch), code, { reason }));
  }
}

/** merge_protections_evaluated: holds or releases the pull request (see the module header). */
export function onProtectionsEvaluated(ctx: Ctx, event: EventOf<"merge_protections_evaluated">): void {
  const pull = ctx.pull(event.number);
  if (!pull) return;
  const before = pull.protectionsHold ?? null;
  pull.protectionsHold = event.hold;
  if (event.hold === null || before !== null) return;
  stopBatchesOf(
    ctx,
    event.number,
    "SCHEDULED_FREEZE_STATUS_CHANGED",
    `Merge protections hold #${event.number}: ${event.hold}`,
  );
}

/** pull_request_scopes_changed: the pull request's new scopes (see the module header). */
export function onScopesChanged(ctx: Ctx, event: EventOf<"pull_request_scopes_changed">): void {
  const pull = ctx.pull(event.number);
  if (!pull) return;
  const scopes = [...new Set(event.scopes)].sort();
  if (pull.allScopes === event.allScopes && pull.scopes.join("\u0000") === scopes.join("\u0000")) return;
  pull.scopes = scopes;
  pull.allScopes = event.allScopes;
  stopBatchesOf(ctx, event.number, "BATCH_SCOPES_CHANGED", `The scopes of #${event.number} changed`);
}

/** merge_queue_disabled: every queued pull request leaves (see the module header). */
export function onMergeQueueDisabled(ctx: Ctx, event: EventOf<"merge_queue_disabled">): void {
  const numbers = Object.values(ctx.state.pulls).map((p) => p.number);
  leaveQueue(ctx, numbers, "PR_DEQUEUED", {
    trigger: event.trigger,
    cascade: false,
    reason: "The merge queue was disabled on this repository",
  });
}
