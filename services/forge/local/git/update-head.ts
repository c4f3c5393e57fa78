/**
 * Bringing a pull request's head branch up to date with its base ("update branch"): `merge`
 * writes a merge commit of the base into the head (first parent = head, message
 * `Merge branch '<base>' into <head>`); `rebase` replays the head's own commits onto the base tip.
 * The head branch moves with a compare-and-swap. docs/domain.md §3.4 (`update_method`),
 * docs/local-forge.md "Updating a head".
 */
import { ForgeError, type Sha } from "../../types.js";
import { isAncestor } from "./ancestry.js";
import { createMergeCommit } from "./merge-commit.js";
import { branchRef, compareAndSwapRef, getBranchSha } from "./refs.js";
import { commitsToReplay, replayCommits } from "./replay-commits.js";
import type { BareRepo } from "./bare-repo.js";

/** Input of {@link updateHeadWithBase}. */
export interface UpdateHeadInput {
  /** Head branch of the pull request (moved). */
  head: string;
  /** Base branch name. */
  base: string;
  method: "merge" | "rebase";
  /** Date of the commits written (UTC). */
  date: Date;
  /** When given, the head must still point here (conflict otherwise). */
  expectedHeadSha?: Sha;
  /** Named in conflict errors. */
  pullRequest?: number;
}

/**
 * Updates the head branch with its base.
 * @returns the new head SHA (unchanged when the head already contains the base)
 * @throws MergeConflictError naming the files when the update does not apply (head unchanged);
 *   ForgeError conflict when the head moved; not_found for a missing branch
 */
export async function updateHeadWithBase(repo: BareRepo, input: UpdateHeadInput): Promise<Sha> {
  const [head, base] = await Promise.all([getBranchSha(repo, input.head), getBranchSha(repo, input.base)]);
  if (input.expectedHeadSha !== undefined && input.expectedHeadSha !== head) {
    throw new ForgeError("conflict", `branch ${input.head} moved: expected ${input.expectedHeadSha}, found ${head}`);
  }
  if (await isAncestor(repo, base, head)) return head;
  let next: Sha;
  if (input.method === "merge") {
    next = await createMergeCommit(repo, {
      into: head,
      from: base,
      message: `Merge branch '${input.base}' into ${input.head}`,
      date: input.date,
      pullRequest: input.pullRequest,
    });
  } else {
    next = (
      await replayCommits(repo, base, await commitsToReplay(repo, base, head), input.date, input.pullRequest ?? null)
    ).tip;
  }
  await compareAndSwapRef(repo, branchRef(input.head), head, next);
  return next;
}
