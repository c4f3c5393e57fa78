/**
 * Merging (docs/domain.md §3.6). One merge at a time per base branch. A batch merges when its
 * check passed and every batch it is checked on top of has merged - or, with
 * skip_intermediate_results (§3.5.8), as soon as it passed: the unmerged batches it was checked
 * on top of merge with it (their running checks stop with INTERMEDIATE_RESULTS_SKIPPED, their pull
 * requests leave with PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED). A pull request in several
 * partitions merges only once every partition's batch holding it has passed. A batch waiting for
 * its merge schedule is never merged by a later one (it gives way instead: schedule-yield.ts), and
 * a batch a scheduled freeze holds is not merged until the freeze releases it.
 * Nothing merges while the queue is paused. The merge effect moves the base once, to the tested tree.
 */
import { externalMove, recordQueueMerge } from "./base.js";
import { isExactTree } from "./exact-tree.js";
import { discardBatch } from "./bisection.js";
import { mustBuildOn, releaseCheckingLabel, stopCheck } from "./batches.js";
import type { Ctx } from "./context.js";
import type { EventOf } from "./events.js";
import { announceLeave, leaveQueue } from "./leave.js";
import { logMerged } from "./log-events.js";
import type { Batch, EngineState, Train } from "./state.js";

/** Unmerged batches a batch is checked on top of, in train order. */
function pendingAncestors(train: Train, batch: Batch): Batch[] {
  return train.batches.filter((c) => batch.ancestors.includes(c.id));
}

/**
 * Pull requests a pass of the check with this id would merge besides its batch's own: with
 * skip_intermediate_results, the members of the unmerged batches it is checked on top of (they
 * merge with it, even one whose own check failed). Empty otherwise or for an unknown check. The
 * runner asks whether a scheduled freeze holds them too (docs/scheduled-freeze.md).
 */
export function carriedPulls(state: EngineState, checkId: string): number[] {
  if (!state.config.skipIntermediateResults) return [];
  for (const train of state.trains) {
    const batch = train.batches.find((c) => c.check?.id === checkId);
    if (batch) return pendingAncestors(train, batch).flatMap((a) => a.members);
  }
  return [];
}

/** Every other partition's batch holding a member of `batch` has passed. */
function passedInEveryPartition(ctx: Ctx, train: Train, batch: Batch): boolean {
  return batch.members.every((m) =>
    ctx
      .trainsOf(m)
      .every((t) => t === train || t.batches.some((c) => c.members.includes(m) && c.check?.phase === "passed")),
  );
}

function mergeable(ctx: Ctx, train: Train, batch: Batch): boolean {
  if (batch.check?.phase !== "passed" || batch.merging || batch.bisectionId !== null) return false;
  // A scheduled freeze holds it (docs/scheduled-freeze.md).
  if ((batch.check.scheduleHeldUntil ?? null) !== null) return false;
  const ahead = pendingAncestors(train, batch);
  if (ahead.length > 0 && !ctx.state.config.skipIntermediateResults) return false;
  if (ahead.some((a) => a.merging)) return false;
  // Skipping intermediate results never merges a batch whose merge schedule is closed.
  if (ahead.some((a) => (a.check?.scheduleHeldUntil ?? null) !== null)) return false;
  return passedInEveryPartition(ctx, train, batch);
}

/** Emits the merge of the first mergeable batch of a train. Returns true on change. */
export function startMerges(ctx: Ctx, train: Train): boolean {
  const base = ctx.state.bases[train.branch];
  if (ctx.state.pause || !base || base.mergingBatchId !== null) return false;
  const batch = train.batches.find((c) => mergeable(ctx, train, c));
  if (!batch) return false;
  const check = batch.check!;
  const rule = ctx.rule(batch.queueRule);
  const batches = [...pendingAncestors(train, batch), batch];
  const pulls = batches.flatMap((c) => c.members).filter((n) => ctx.pull(n));
  batch.merging = true;
  base.mergingBatchId = batch.id;
  ctx.emit({
    kind: "merge_batch",
    batchId: batch.id,
    baseRef: train.branch,
    pulls: pulls.map((n) => ({ number: n, headSha: ctx.mustPull(n).headSha })),
    method: rule?.mergeMethod ?? null,
    expectedBaseSha: base.sha,
    checkBaseSha: check.baseSha,
    checkSha: check.headSha!,
    exactTree: isExactTree(ctx, train.branch, check.baseSha, check.includedPulls, pulls),
    checkPullRequest: check.number!,
    inPlace: check.mode === "in_place",
    botAccount: rule?.mergeBotAccount ?? null,
  });
  return true;
}

/** A merged pull request leaves the other partitions' trains (it is in the base now). */
function forgetElsewhere(ctx: Ctx, train: Train, number: number): void {
  for (const other of ctx.trainsOf(number)) {
    if (other === train) continue;
    other.waiting = other.waiting.filter((n) => n !== number);
    for (const batch of [...other.batches]) {
      if (!batch.members.includes(number)) continue;
      batch.members = batch.members.filter((n) => n !== number);
      if (batch.members.length === 0) discardBatch(ctx, other, batch, "merged in another partition");
    }
  }
}

/**
 * After a merge, the checks of the train that should contain the merged pull requests but do not
 * (built on the base before a batch outside their ancestors, such as a bisection sub-batch, was
 * merged) describe a tree that can no longer be merged: they stop with MERGE_QUEUE_RESET and
 * start again on the new base. A batch being merged is left to its merge.
 */
function restartStaleChecks(ctx: Ctx, train: Train, merged: { n: number; batch: Batch }[]): void {
  for (const batch of train.batches) {
    const check = batch.check;
    if (!check || batch.merging || check.phase === "failed") continue;
    const missing = merged
      .filter((m) => mustBuildOn(ctx, batch, m.batch) && !check.includedPulls.includes(m.n))
      .map((m) => `#${m.n}`);
    if (missing.length === 0) continue;
    stopCheck(ctx, batch, () => ({
      code: "MERGE_QUEUE_RESET",
      reason: `Rechecked on top of ${missing.join(", ")}, merged meanwhile`,
    }));
    batch.restartReason = `Rechecked on top of ${missing.join(", ")}, merged while this batch was checked`;
  }
}

/** merge_completed: the batch (and absorbed batches ahead) merged; the base moved to `newBaseSha`. */
export function onMergeCompleted(ctx: Ctx, event: EventOf<"merge_completed">): void {
  const found = ctx.findBatch(event.batchId);
  if (!found || !found.batch.merging) {
    // A merge the engine no longer tracks (its batch was cancelled meanwhile): an unexplained move.
    for (const [branch, base] of Object.entries(ctx.state.bases)) {
      if (base.mergingBatchId === event.batchId) {
        base.mergingBatchId = null;
        externalMove(ctx, branch, event.newBaseSha);
      }
    }
    return;
  }
  const { train, batch } = found;
  const base = ctx.base(train.branch);
  const absorbed = pendingAncestors(train, batch);
  const merged = [...absorbed, batch].flatMap((c) =>
    c.members.filter((n) => ctx.pull(n)).map((n) => ({ n, batch: c, skipped: c !== batch })),
  );
  base.mergingBatchId = null;
  recordQueueMerge(
    ctx,
    train.branch,
    event.newBaseSha,
    merged.map((m) => m.n),
  );
  for (const a of absorbed) {
    if (a.check?.phase === "running" || a.check?.phase === "creating")
      stopCheck(ctx, a, () => ({ code: "INTERMEDIATE_RESULTS_SKIPPED" }));
    else discardBatch(ctx, train, a, "merged with a later batch");
  }
  releaseCheckingLabel(ctx, batch);
  const check = batch.check!;
  if (check.mode === "draft")
    ctx.emit({ kind: "close_pull_request", number: check.number!, deleteBranch: check.branch, reason: "batch merged" });
  const ids = new Set([...absorbed, batch].map((c) => c.id));
  train.batches = train.batches.filter((c) => !ids.has(c.id));
  restartStaleChecks(ctx, train, merged);
  for (const { n, batch: from, skipped } of merged) {
    const pull = ctx.mustPull(n);
    logMerged(ctx, pull, event.newBaseSha);
    forgetElsewhere(ctx, train, n);
    announceLeave(ctx, pull, {
      code: skipped ? "PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED" : "PR_MERGED",
      batch: from,
      trigger: "merge queue internal",
    });
  }
  const pending = base.pendingMoveSha;
  base.pendingMoveSha = null;
  if (pending !== null && pending !== event.newBaseSha) externalMove(ctx, train.branch, pending);
}

/**
 * merge_failed: the base moved (reset); the platform wants a check built on the base's current tip
 * (the batch is checked again, MERGE_QUEUE_RESET); the platform's protection refused the merge (the
 * pull request it named leaves with INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS, or every member when
 * it named none); a head moved (that pull request leaves, PULL_REQUEST_UPDATED); else a pull request
 * cannot merge (the one named, or the first, leaves with PR_UNEXPECTEDLY_FAILED_TO_MERGE). The
 * platform's message is the leave's reason; the others re-embark. Into a deleted base, everything
 * of it leaves (BASE_BRANCH_MISSING).
 */
export function onMergeFailed(ctx: Ctx, event: EventOf<"merge_failed">): void {
  const found = ctx.findBatch(event.batchId);
  if (!found || !found.batch.merging) return;
  const { train, batch } = found;
  const base = ctx.base(train.branch);
  batch.merging = false;
  base.mergingBatchId = null;
  const pending = base.pendingMoveSha;
  base.pendingMoveSha = null;
  if (base.deleted) return; // the branch is gone: every pull request of it leaves (BASE_BRANCH_MISSING), see base.ts
  if (event.reason === "base_moved" && (event.currentBaseSha ?? pending) !== null) {
    externalMove(ctx, train.branch, (event.currentBaseSha ?? pending)!);
    return;
  }
  const reason = event.message || undefined;
  if (event.reason === "stale_check") {
    stopCheck(ctx, batch, () => ({ code: "MERGE_QUEUE_RESET", reason }));
    batch.restartReason = `Checked again on ${train.branch}'s current tip: ${event.message}`;
  } else {
    const named = event.pullRequest !== null && batch.members.includes(event.pullRequest) ? event.pullRequest : null;
    if (event.reason === "protection")
      leaveQueue(ctx, named ?? [...batch.members], "INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS", { reason });
    else if (event.reason === "head_moved" && named !== null)
      leaveQueue(ctx, named, "PULL_REQUEST_UPDATED", { reason });
    else leaveQueue(ctx, named ?? batch.members[0]!, "PR_UNEXPECTEDLY_FAILED_TO_MERGE", { reason });
  }
  if (pending !== null) externalMove(ctx, train.branch, pending);
}
