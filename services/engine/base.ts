/**
 * The base branch (docs/domain.md §3.6): the queue's own merges are expected moves; any other
 * move is external. With `reset_on_external_merge: always` an external move re-embarks every
 * batch of the branch (MERGE_QUEUE_RESET), since their checks no longer describe what would be
 * merged; with `never` the batches keep running on their old base (their merges are then not
 * exactly the tested tree, and the merge effect says so). A deleted base branch makes its pull
 * requests leave (BASE_BRANCH_MISSING) once no merge into it is in flight.
 */
import { abandonBisections } from "./bisection-end.js";
import { cancelBatches } from "./batches.js";
import type { Ctx } from "./context.js";
import { leaveQueue } from "./leave.js";

/** Queue merges remembered per branch: a check older than this many merges is no longer called exact. */
const HISTORY = 32;

/** Creates the base state of a branch when first seen (or takes a deleted one as pushed again at `sha`). */
export function ensureBase(ctx: Ctx, branch: string, sha: string): void {
  if (ctx.state.bases[branch]?.deleted) return onBaseMoved(ctx, branch, sha); // the branch exists again
  ctx.state.bases[branch] ??= { sha, history: [{ sha, mergedPulls: [] }], mergingBatchId: null, pendingMoveSha: null };
}

/** Records a queue merge that moved the base to `sha`. */
export function recordQueueMerge(ctx: Ctx, branch: string, sha: string, mergedPulls: number[]): void {
  const base = ctx.base(branch);
  base.sha = sha;
  base.history.push({ sha, mergedPulls });
  if (base.history.length > HISTORY) base.history.splice(0, base.history.length - HISTORY);
}

/** A move the queue did not make: the chain restarts; batches are reset per reset_on_external_merge. */
export function externalMove(ctx: Ctx, branch: string, sha: string): void {
  const base = ctx.base(branch);
  base.sha = sha;
  base.history = [{ sha, mergedPulls: [] }];
  if (ctx.state.config.resetOnExternalMerge !== "always") return;
  for (const train of ctx.state.trains.filter((t) => t.branch === branch)) {
    abandonBisections(
      ctx,
      train,
      cancelBatches(
        ctx,
        train,
        [...train.batches].filter((c) => !c.merging),
        "MERGE_QUEUE_RESET",
      ),
    );
  }
}

/** base_branch_moved: ignore expected moves, hold moves seen during a merge, reset on external ones. */
export function onBaseMoved(ctx: Ctx, branch: string, sha: string): void {
  const base = ctx.state.bases[branch];
  if (!base) return; // no queue on this branch
  if (base.deleted) {
    // Deleted during a merge, then pushed again: a new branch, nothing of the old chain holds.
    delete base.deleted;
    if (base.mergingBatchId !== null) {
      base.pendingMoveSha = sha;
      return;
    }
    externalMove(ctx, branch, sha);
    return;
  }
  if (sha === base.sha || base.history.some((h) => h.sha === sha)) return;
  if (base.mergingBatchId !== null) {
    base.pendingMoveSha = sha;
    return;
  }
  externalMove(ctx, branch, sha);
}

/** base_branch_deleted: marks the branch; {@link leaveDeletedBases} makes its pull requests leave. */
export function onBaseDeleted(ctx: Ctx, branch: string): void {
  const base = ctx.state.bases[branch];
  if (base) base.deleted = true;
}

/**
 * Pull requests whose base branch was deleted leave (BASE_BRANCH_MISSING, stacked successors too),
 * unless their batch is being merged: the merge result decides for those, and they leave after a
 * failed merge. Returns true when some left.
 */
export function leaveDeletedBases(ctx: Ctx): boolean {
  const deleted = Object.entries(ctx.state.bases)
    .filter(([, b]) => b.deleted)
    .map(([branch]) => branch);
  if (deleted.length === 0) return false;
  let left = false;
  for (const branch of deleted) {
    const orphans = Object.values(ctx.state.pulls)
      .filter((p) => p.baseRef === branch)
      .map((p) => p.number);
    left =
      leaveQueue(ctx, orphans, "BASE_BRANCH_MISSING", { reason: `The base branch ${branch} was deleted` }).length > 0 ||
      left;
  }
  return left;
}
