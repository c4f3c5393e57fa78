/**
 * The speculative branch of a queue batch (docs/domain.md §3.4): a chain of merge commits that
 * starts at the base SHA and merges each pull request's head in order, one merge commit each
 * (first parent = the chain so far, second = the head; message `Merge of #n`). The branch is then
 * created or force-moved to the chain's tip. A pull request that does not merge stops the build
 * before any ref moves, and the error names it (`CONFLICT_WITH_PULL_AHEAD` or, for the first,
 * `CONFLICT_WITH_BASE_BRANCH`, is the engine's reading). docs/local-forge.md "Speculative branches".
 */
import { ForgeError, type Sha } from "../../types.js";
import { createMergeCommit } from "./merge-commit.js";
import { resolveCommit, setBranch, validateBranchName } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/** One pull request of a speculative branch: its number and the head SHA to merge. */
export interface SpeculativePull {
  number: number;
  headSha: Sha;
}

/**
 * Builds the chain `baseSha` + heads of `pulls` (in order) and points `branch` at it.
 * @param date author/committer date of the merge commits (UTC)
 * @returns the branch's new tip (baseSha itself when `pulls` is empty)
 * @throws MergeConflictError (ForgeError conflict) naming the first pull request that does not
 *   merge and its files, with no ref moved; ForgeError not_found for a missing commit; invalid for
 *   a bad branch name or duplicate pull request numbers
 */
export async function createSpeculativeBranch(
  repo: BareRepo,
  branch: string,
  baseSha: Sha,
  pulls: readonly SpeculativePull[],
  date: Date,
): Promise<Sha> {
  await validateBranchName(branch);
  const tip = await buildSpeculativeChain(repo, baseSha, pulls, date);
  await setBranch(repo, branch, tip);
  return tip;
}

/**
 * Builds the chain of {@link createSpeculativeBranch} without moving any ref.
 * @returns the chain's tip SHA
 */
export async function buildSpeculativeChain(
  repo: BareRepo,
  baseSha: Sha,
  pulls: readonly SpeculativePull[],
  date: Date,
): Promise<Sha> {
  const seen = new Set<number>();
  for (const pull of pulls) {
    if (seen.has(pull.number))
      throw new ForgeError("invalid", `pull request #${pull.number} appears twice in the speculative branch`);
    seen.add(pull.number);
  }
  let tip = await resolveCommit(repo, baseSha);
  for (const pull of pulls) {
    tip = await createMergeCommit(repo, {
      into: tip,
      from: pull.headSha,
      message: `Merge of #${pull.number}`,
      date,
      pullRequest: pull.number,
    });
  }
  return tip;
}
