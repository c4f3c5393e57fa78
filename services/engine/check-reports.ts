/**
 * What the runner reports about a check (docs/domain.md §3.4): the draft or in-place check was
 * created (checks_start per member), its creation failed (retried with a growing delay, then the
 * batch's pull requests leave), the draft was closed or edited by someone else. Starting checks:
 * engine/checks.ts.
 */
import { abandonBisections } from "./bisection-end.js";
import { cancelBatches, descendantsOf, withDescendants } from "./batches.js";
import type { Ctx } from "./context.js";
import type { EventOf } from "./events.js";
import { leaveQueue } from "./leave.js";
import { logChecksPostponed, logChecksStart, logConflictDeferred } from "./log-events.js";
import type { Batch, CheckEnding, Train } from "./state.js";

/** Draft creation attempts before the batch's pull requests leave (DRAFT_PULL_REQUEST_CREATION_FAILED). */
export const MAX_CREATION_ATTEMPTS = 3;
/** Delay before the n-th creation retry: 30 s, 60 s, ... */
const retryDelayMs = (failures: number) => 30_000 * 2 ** (failures - 1);

const ENDED: Record<CheckEnding, string> = {
  passed: "passed",
  failed: "failed",
  timed_out: "timed out",
  stopped: "stopped",
};

/**
 * checks_start `start_reason`: why the batch is rechecked, a bisection prefix, a retry, a pull
 * request re-embarked after the batch it was last checked in (and how that check ended), or its
 * first check.
 */
function startReason(ctx: Ctx, train: Train, batch: Batch, number: number): string {
  if (batch.restartReason) return batch.restartReason;
  const b = ctx.bisection(train, batch.bisectionId);
  if (b?.split?.strategy === "suspect_first") {
    const why = b.split.reason === "failed_in_own_ci" ? "it failed them in its own CI" : "only its diff touches them";
    return batch.members.includes(b.split.suspect!)
      ? `Bisection of ${b.name}: checking #${b.split.suspect} alone, which its failing tests point to (${why})`
      : `Bisection of ${b.name}: checking the rest of the failed batch without #${b.split.suspect}`;
  }
  if (b) return `Bisection of ${b.name}: checking a prefix of the failed batch`;
  if (batch.check!.attempt > 0)
    return `Retry ${batch.check!.attempt} of ${ctx.rule(batch.queueRule)?.maxChecksRetries ?? 0} after a failure`;
  const previous = ctx.pull(number)?.previousBatch;
  return previous ? `Re-embarked after ${previous.name} ${ENDED[previous.ended ?? "stopped"]}` : "First time checking";
}

/** speculative_check_created: the check runs; checks_start per member. */
export function onCheckCreated(ctx: Ctx, event: EventOf<"speculative_check_created">): void {
  const found = ctx.findCheck(event.checkId);
  if (!found || found.check.phase !== "creating") return; // cancelled meanwhile: the runner closes what it created
  const { train, batch, check } = found;
  if (check.mode === "in_place") {
    const pull = ctx.mustPull(batch.members[0]!);
    if (pull.pendingHeadSha !== null && pull.pendingHeadSha !== event.headSha) {
      leaveQueue(ctx, pull.number, "PULL_REQUEST_UPDATED");
      return;
    }
    pull.headSha = event.headSha;
    pull.pendingHeadSha = null;
  }
  Object.assign(check, {
    number: event.pullRequestNumber,
    headSha: event.headSha,
    phase: "running",
    startedAt: ctx.now,
  });
  const label = ctx.state.config.checkingLabel;
  for (const m of batch.members) {
    const pull = ctx.mustPull(m);
    logChecksStart(ctx, pull, batch, check, startReason(ctx, train, batch, m));
    if (label) ctx.emit({ kind: "add_labels", number: m, labels: [label] });
  }
  batch.restartReason = null;
}

/**
 * speculative_check_failed: conflicts leave or are deferred; a landing the platform would refuse
 * makes the batch's pull requests leave (INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS); other errors are
 * retried, then leave.
 */
export function onCheckCreationFailed(ctx: Ctx, event: EventOf<"speculative_check_failed">): void {
  const found = ctx.findCheck(event.checkId);
  if (!found || found.check.phase !== "creating") return;
  const { train, batch, check } = found;
  const named =
    event.pullRequest !== null && check.includedPulls.includes(event.pullRequest)
      ? event.pullRequest
      : batch.members[0]!;
  const reason = event.message || undefined;
  if (event.reason === "conflict_with_pull_ahead") {
    const blockers = check.includedPulls.slice(0, check.includedPulls.indexOf(named)).filter((n) => ctx.pull(n));
    if (blockers.length > 0) {
      const pull = ctx.mustPull(named);
      pull.conflictBlockers = blockers;
      logConflictDeferred(
        ctx,
        pull,
        reason ?? "The pull request conflicts with pull requests ahead; it waits for them to merge",
        blockers,
      );
      const holder = train.batches.find((c) => c.members.includes(named)) ?? batch;
      abandonBisections(ctx, train, cancelBatches(ctx, train, withDescendants(train, holder), "BATCH_AHEAD_FAILED"));
      return;
    }
  }
  if (event.reason === "conflict_with_base" || event.reason === "conflict_with_pull_ahead") {
    leaveQueue(ctx, named, "CONFLICT_WITH_BASE_BRANCH", { reason });
    return;
  }
  if (event.reason === "branch_update_failed") {
    leaveQueue(ctx, named, "BRANCH_UPDATE_FAILED", { reason });
    return;
  }
  if (event.reason === "protection") {
    // Refused before any CI ran: the platform would refuse the landing whatever the checks say.
    leaveQueue(ctx, [...batch.members], "INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS", { reason });
    return;
  }
  check.creationFailures += 1;
  for (const m of batch.members) {
    const pull = ctx.mustPull(m);
    pull.creationFailures += 1;
    logChecksPostponed(
      ctx,
      pull,
      batch,
      event.message || "The draft pull request could not be created",
      pull.creationFailures,
    );
  }
  if (check.creationFailures >= MAX_CREATION_ATTEMPTS) {
    leaveQueue(ctx, [...batch.members], "DRAFT_PULL_REQUEST_CREATION_FAILED", { reason });
    return;
  }
  check.nextCreationAt = ctx.now + retryDelayMs(check.creationFailures);
}

/** speculative_check_closed: someone closed the draft; its pull requests leave (BATCH_PULL_REQUEST_CLOSED). */
export function onCheckClosed(ctx: Ctx, checkId: string): void {
  const found = ctx.findCheck(checkId);
  if (!found || found.check.mode !== "draft") return;
  leaveQueue(ctx, [...found.batch.members], "BATCH_PULL_REQUEST_CLOSED");
}

/**
 * speculative_check_edited: commits the queue did not make reached a draft that is running or
 * passed (docs/domain.md §1.3 `allow_queue_branch_edit`). Without allow_queue_branch_edit (or
 * with a merge method other than merge-batch, the only one that merges the draft itself) its pull
 * requests leave (DRAFT_PULL_REQUEST_CHANGED) and the batches checked on top of it wait again
 * (BATCH_AHEAD_BRANCH_EDITED). With it, the check goes on at the new head (its CI and timeout start
 * again) and the batches on top of it stop (BATCH_AHEAD_BRANCH_EDITED) and wait until it merged,
 * since no other check can contain the foreign commits. A batch being merged is left alone (the
 * merge is of the tested commit), and so are the runner's own pushes (same head, or still creating).
 */
export function onCheckEdited(ctx: Ctx, event: EventOf<"speculative_check_edited">): void {
  const found = ctx.findCheck(event.checkId);
  if (!found) return;
  const { train, batch, check } = found;
  if (check.mode !== "draft" || check.headSha === event.headSha || batch.merging) return;
  if (check.phase !== "running" && check.phase !== "passed") return;
  const rule = ctx.rule(batch.queueRule);
  // Only merge-batch merges the draft itself; every other method merges the pull requests' heads,
  // which would not be the tree that passed.
  if (!rule?.allowQueueBranchEdit || rule.mergeMethod !== "merge-batch") {
    leaveQueue(ctx, [...batch.members], "DRAFT_PULL_REQUEST_CHANGED", { othersCode: "BATCH_AHEAD_BRANCH_EDITED" });
    return;
  }
  abandonBisections(ctx, train, cancelBatches(ctx, train, descendantsOf(train, batch), "BATCH_AHEAD_BRANCH_EDITED"));
  Object.assign(check, {
    headSha: event.headSha,
    phase: "running",
    startedAt: ctx.now,
    endedAt: null,
    timedOut: false,
    checks: [],
    edited: true,
  });
}
