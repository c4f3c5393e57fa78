/**
 * The `merge_batch` effect (docs/merge-queue.md "Events and effects", docs/reliability.md "Crashes: every
 * effect exactly once"). Performed for the first time, it asks the forge to merge. Performed again
 * (a resume: the effect was recorded as started before a crash, or postponed), it first reads the
 * forge to learn what the earlier attempt did: every pull request of the batch merged means the
 * batch landed, and `merge_completed` names the commit where the last one landed, without a second
 * merge. Otherwise it asks the forge to merge, which resumes a part-way batch (GitHub) or finds
 * nothing done (the local forge's merge is atomic and a write that did not commit is undone at
 * start-up). A merge-batch batch is left to the forge's own resumption: on GitHub a pull request
 * merged by the batch's merge commit does not name that commit.
 * A refusal is reported with its reason (merge_failed): the base moved; a conflict; or the
 * forge's {@link MergeRefusedError} (head_moved, protection, stale_check), whose message is the
 * platform's (docs/github.md "Landing a batch").
 */
import { isForgeError, MergeRefusedError, type ForgePort, type PullRequestSnapshot } from "../forge/index.js";
import type { EngineEffect } from "../engine/index.js";
import type { EngineEventInput } from "../engine/index.js";

type MergeBatch = Extract<EngineEffect, { kind: "merge_batch" }>;

/** Whether a forge error should be retried later (transient, rate limited). */
type IsRetryable = (e: unknown) => boolean;

/** The pull request a forge error names (MergeConflictError's `pullRequest`); null when none. */
export const conflictingPull = (e: unknown): number | null => {
  const n = (e as { pullRequest?: unknown }).pullRequest;
  return typeof n === "number" ? n : null;
};

/**
 * The merge commit of the batch's last pull request when every one of them is merged; null when
 * one is not (or cannot be read).
 * @throws ForgeError transient / rate_limited (to retry)
 */
export async function landedCommit(
  forge: ForgePort,
  repo: string,
  effect: MergeBatch,
  isRetryable: IsRetryable,
): Promise<string | null> {
  const pulls: PullRequestSnapshot[] = [];
  for (const p of effect.pulls) {
    try {
      pulls.push(await forge.getPullRequest(repo, p.number));
    } catch (e) {
      if (isRetryable(e)) throw e;
      return null;
    }
  }
  if (!pulls.every((p) => p.state === "merged" && p.mergeCommitSha !== null)) return null;
  return pulls[pulls.length - 1]!.mergeCommitSha;
}

/**
 * Performs a merge_batch effect.
 * @returns merge_completed (the base's new tip: where the batch landed) or merge_failed
 * @throws ForgeError transient / rate_limited (to retry)
 */
export async function performMerge(
  forge: ForgePort,
  repo: string,
  effect: MergeBatch,
  resumed: boolean,
  isRetryable: IsRetryable,
): Promise<EngineEventInput[]> {
  const completed = (newBaseSha: string): EngineEventInput[] => [
    { type: "merge_completed", batchId: effect.batchId, newBaseSha },
  ];
  const readFirst = resumed && effect.method !== "merge-batch";
  if (readFirst) {
    const landed = await landedCommit(forge, repo, effect, isRetryable);
    if (landed !== null) return completed(landed);
  }
  try {
    const result = await forge.mergePullRequests(repo, {
      base: effect.baseRef,
      expectedBaseSha: effect.expectedBaseSha,
      method: effect.method,
      pulls: effect.pulls,
      checkSha: effect.checkSha,
      checkPullRequest: effect.checkPullRequest,
      inPlace: effect.inPlace,
    });
    return completed(result.newBaseSha);
  } catch (e) {
    if (isRetryable(e)) throw e;
    const current = await forge.getBranchSha(repo, effect.baseRef).catch(() => null);
    if (resumed && current !== effect.expectedBaseSha && effect.method !== "merge-batch") {
      // The merge may have landed between the read above and the call (another attempt still in flight).
      const landed = await landedCommit(forge, repo, effect, isRetryable);
      if (landed !== null) return completed(landed);
    }
    const reason =
      current !== null && current !== effect.expectedBaseSha
        ? "base_moved"
        : e instanceof MergeRefusedError
          ? e.refusal
          : isForgeError(e, "conflict")
            ? "conflict"
            : "error";
    const message = (e as Error).message;
    const pullRequest = conflictingPull(e);
    return [{ type: "merge_failed", batchId: effect.batchId, reason, pullRequest, currentBaseSha: current, message }];
  }
}
