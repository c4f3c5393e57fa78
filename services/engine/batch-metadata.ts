/**
 * The metadata of a batch's check for CI (docs/merge-queue.md "Batch metadata for CI"): what the
 * speculative branch holds and against what, in the shape of the compatible service's batch
 * metadata, which its CLI reads (`mergify ci queue-info`, `ci git-refs`:
 * https://github.com/Mergifyio/mergify-cli, crates/mergify-ci/src/queue_metadata.rs). The runner
 * writes it as YAML in git notes on the branch's head and in the draft pull request's body.
 */
import type { Ctx } from "./context.js";
import type { BatchMetadata } from "./effects.js";
import type { Batch, Bisection, Train } from "./state.js";

export type { BatchMetadata, FailedBatchMetadata } from "./effects.js";

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
