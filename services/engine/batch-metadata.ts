/**
 * The metadata of a batch's check for CI (docs/merge-queue.md "Batch metadata for CI"): what the
 * speculative branch holds and against what, in the shape of the compatible service's batch
 * metadata, which its CLI reads (`mergify ci queue-info`, `ci git-refs`:
 * https://github.com/Mergifyio/mergify-cli, crates/mergify-ci/src/queue_metadata.rs). The runner
 * writes it as YAML in git notes on the branch's head and in the draft pull request's body.
 */
import type { Ctx } from "./context.js";
import type { Batch, Bisection, Train } from "./state.js";

/** One failed batch a sub-batch descends from: its check's pull request and the pull requests it checked. */
export interface FailedBatchMetadata {
  /** The failed batch's draft pull request (null when it was checked in place or never created). */
  draft_pr_number: number | null;
  /** The same number, under the name the compatible service moved to. */
  batch_pr_number: number | null;
  checked_pull_requests: number[];
}

/** The metadata of one check attempt. */
export interface BatchMetadata {
  /** The commit the speculative branch is built on (the base, or the check ahead with fast-forward). */
  checking_base_sha: string;
  base_ref: string;
  /** The base branch's tip as the queue knows it. */
  base_sha: string;
  batch_id: string;
  batch_name: string;
  queue_rule: string;
  /** Every pull request merged into the branch, in order: those of the batches ahead first. */
  pull_requests: {
    number: number;
    title: string;
    author: string;
    head_sha: string;
    scopes: string[];
    /** Part of a batch ahead (checked with this one, merged before it). */
    batch_ahead: boolean;
  }[];
  scopes: string[];
  all_scopes: boolean;
  /** The failed batches this one is bisecting, oldest first (empty for a batch as embarked). */
  previous_failed_batches: FailedBatchMetadata[];
}

/** The bisections `batch` descends from, outermost first. */
function bisectionChain(ctx: Ctx, train: Train, batch: Batch): Bisection[] {
  const chain: Bisection[] = [];
  for (let b = ctx.bisection(train, batch.bisectionId); b; b = ctx.bisection(train, b.parentId)) chain.unshift(b);
  return chain;
}

/** The metadata of `batch`'s check built on `checkingBaseSha` with `pulls` merged in order. */
export function batchMetadata(
  ctx: Ctx,
  train: Train,
  batch: Batch,
  checkingBaseSha: string,
  pulls: readonly number[],
): BatchMetadata {
  return {
    checking_base_sha: checkingBaseSha,
    base_ref: train.branch,
    base_sha: ctx.base(train.branch).sha,
    batch_id: batch.id,
    batch_name: batch.name,
    queue_rule: batch.queueRule,
    pull_requests: pulls.map((n) => {
      const p = ctx.mustPull(n);
      return {
        number: n,
        title: p.title,
        author: p.author.login,
        head_sha: p.headSha,
        scopes: [...p.scopes],
        batch_ahead: !batch.members.includes(n),
      };
    }),
    scopes: [...batch.scopes],
    all_scopes: batch.allScopes,
    previous_failed_batches: bisectionChain(ctx, train, batch).map((b) => ({
      draft_pr_number: b.checkPullRequest,
      batch_pr_number: b.checkPullRequest,
      checked_pull_requests: [...b.members],
    })),
  };
}
