/**
 * What follows a ref move in the local forge, whoever moved it (a push, the queue's merges,
 * speculative branches, deletions), as GitHub does it (docs/local-forge.md "Writes and events"):
 * - `branch_pushed` with before/after and whether it was forced;
 * - open pull requests whose head is the branch get the new head SHA (`pull_request_synchronized`)
 *   and a CI job; a deleted head or base branch closes them (`pull_request_closed`);
 * - open pull requests into the branch whose head the branch now contains are merged
 *   (`pull_request_closed` merged, merged by whoever moved it);
 * - the branch's CI jobs for older commits are cancelled (superseded).
 */
import { localForgeStore as store } from "../../store/index.js";
import { commitsContainedIn, findBranchSha, isAncestor } from "./git/index.js";
import { cancelSupersededJobs, requestChecks, type CiSignals } from "./ci-requests.js";
import type { WriteContext } from "./write-context.js";

/** One ref move, already done in git. */
export interface BranchMove {
  branch: string;
  /** Tip before; null when the branch was created. */
  before: string | null;
  /** Tip after; null when the branch was deleted. */
  after: string | null;
  /** Who moved it (`by` of synchronized events, merger of pull requests it merges). */
  by: store.LocalUserRow;
  /** Run the branch's checks even if no pull request has it as head (speculative branches): the reason. */
  checks?: string;
  /** Pull requests this move merged explicitly (the queue's merge), marked merged by `by` right after `branch_pushed`. */
  merged?: { pull: store.PullRequestRow; mergeCommitSha: string }[];
}

/**
 * Records a move: rows, events, CI. No-op when before equals after.
 * @throws ForgeError from git or the database (the caller's transaction then rolls back)
 */
export async function recordBranchMove(ctx: WriteContext, signals: CiSignals, move: BranchMove): Promise<void> {
  const { before, after, branch } = move;
  if (before === after) return;
  const repo = ctx.repo.fullName;
  const forced = before !== null && after !== null && !(await isAncestor(ctx.git, before, after));
  ctx.emit({ kind: "branch_pushed", repo, branch, before, after, forced });
  for (const { pull, mergeCommitSha } of move.merged ?? []) {
    if (
      !(await store.markPullRequestMerged(ctx.client, pull.id, {
        baseSha: before ?? pull.headSha,
        mergeCommitSha,
        mergedById: move.by.id,
        now: ctx.now,
      }))
    )
      continue;
    ctx.emit({ kind: "pull_request_closed", repo, number: pull.number, merged: true, mergeCommitSha });
  }
  if (after === null) {
    await closeAfterDeletion(ctx, branch, before);
    await cancelSupersededJobs(ctx, signals, branch, null);
    return;
  }
  const heads = await store.openPullsWithHead(ctx.client, ctx.repo.id, branch);
  for (const pull of heads) {
    if (pull.headSha === after) continue;
    await store.setPullRequestHead(ctx.client, pull.id, after, ctx.now);
    ctx.emit({ kind: "pull_request_synchronized", repo, number: pull.number, headSha: after, by: move.by.login });
  }
  if (heads.length > 0 || move.checks !== undefined) {
    await requestChecks(ctx, signals, {
      sha: after,
      branch,
      reason: heads.length > 0 ? `head of #${heads.map((p) => p.number).join(", #")} moved` : move.checks!,
    });
  } else {
    await cancelSupersededJobs(ctx, signals, branch, after);
  }
  await mergeContainedPulls(ctx, branch, before, after, move.by);
}

/** Open pull requests into `branch` whose head `after` now contains are merged by `by` (as GitHub marks a pushed merge). */
async function mergeContainedPulls(
  ctx: WriteContext,
  branch: string,
  before: string | null,
  after: string,
  by: store.LocalUserRow,
): Promise<void> {
  const pulls = (await store.openPullsWithBase(ctx.client, ctx.repo.id, branch)).filter((p) => p.headBranch !== branch);
  const contained = await commitsContainedIn(
    ctx.git,
    pulls.map((p) => p.headSha),
    after,
  );
  for (const pull of pulls) {
    if (!contained.has(pull.headSha)) continue;
    await store.markPullRequestMerged(ctx.client, pull.id, {
      baseSha: before ?? after,
      mergeCommitSha: after,
      mergedById: by.id,
      now: ctx.now,
    });
    ctx.emit({
      kind: "pull_request_closed",
      repo: ctx.repo.fullName,
      number: pull.number,
      merged: true,
      mergeCommitSha: after,
    });
  }
}

/** A deleted branch closes the open pull requests it is the head or the base of. */
async function closeAfterDeletion(ctx: WriteContext, branch: string, before: string | null): Promise<void> {
  const heads = await store.openPullsWithHead(ctx.client, ctx.repo.id, branch);
  const bases = await store.openPullsWithBase(ctx.client, ctx.repo.id, branch);
  for (const pull of [...heads, ...bases].sort((a, b) => a.number - b.number)) {
    const baseSha = pull.baseBranch === branch ? before : await findBranchSha(ctx.git, pull.baseBranch);
    if (!(await store.closePullRequestRow(ctx.client, pull.id, { baseSha: baseSha ?? pull.headSha, now: ctx.now })))
      continue;
    ctx.emit({
      kind: "pull_request_closed",
      repo: ctx.repo.fullName,
      number: pull.number,
      merged: false,
      mergeCommitSha: null,
    });
  }
}
