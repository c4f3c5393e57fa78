/**
 * Fast-forwarding a branch (the port's `fastForwardBranch`, and `fast-forward` merges of a tested
 * speculative branch, docs/domain.md §3.6): the branch moves to a commit that descends from
 * its current tip, by compare-and-swap. docs/local-forge.md "Refs".
 */
import { ForgeError, type Sha } from "../../types.js";
import { isAncestor } from "./ancestry.js";
import { branchRef, compareAndSwapRef, getBranchSha, resolveCommit } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/**
 * Moves `branch` to `sha`, which must descend from the branch's current tip (or be it).
 * @param expectedOldSha when given, the tip the branch must hold now
 * @returns the branch's tip before the move
 * @throws ForgeError conflict when `sha` does not descend from the tip or the branch moved;
 *   not_found for a missing branch or commit; invalid for a bad branch name
 */
export async function fastForwardBranch(repo: BareRepo, branch: string, sha: Sha, expectedOldSha?: Sha): Promise<Sha> {
  const [tip, target] = await Promise.all([getBranchSha(repo, branch), resolveCommit(repo, sha)]);
  if (expectedOldSha !== undefined && expectedOldSha !== tip) {
    throw new ForgeError("conflict", `branch ${branch} moved: expected ${expectedOldSha}, found ${tip}`);
  }
  if (!(await isAncestor(repo, tip, target))) {
    throw new ForgeError("conflict", `cannot fast-forward ${branch}: its tip ${tip} is not an ancestor of ${target}`);
  }
  if (tip !== target) await compareAndSwapRef(repo, branchRef(branch), tip, target);
  return tip;
}
