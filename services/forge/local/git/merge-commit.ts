/**
 * Merge commits without a work tree: merge `from` into `into` with `git merge-tree`, then write a
 * two-parent commit (first parent `into`). Conflicts raise {@link MergeConflictError} naming the
 * files. Rules: docs/local-forge.md "Merging without a work tree".
 */
import type { Sha } from "../../types.js";
import { MergeConflictError } from "./errors.js";
import { mergeCommits, type TreeMerge } from "./merge-tree.js";
import { resolveCommit } from "./refs.js";
import { writeYardmasterCommit } from "./write-commit.js";
import type { BareRepo } from "./bare-repo.js";

/** Input of {@link createMergeCommit}. */
export interface MergeCommitInput {
  /** The commit merged into (first parent): a SHA or any revision. */
  into: string;
  /** The commit merged (second parent). */
  from: string;
  message: string;
  /** Author and committer date (UTC); the identity is Yardmaster's. */
  date: Date;
  /** The pull request `from` belongs to, named in a conflict error. */
  pullRequest?: number;
}

/**
 * Writes the merge commit of `from` into `into`. Moves no ref.
 * @returns the merge commit's SHA
 * @throws MergeConflictError (ForgeError conflict) naming the conflicting files and the pull
 *   request; ForgeError not_found when either side is not a commit
 */
export async function createMergeCommit(repo: BareRepo, input: MergeCommitInput): Promise<Sha> {
  const [into, from] = await Promise.all([resolveCommit(repo, input.into), resolveCommit(repo, input.from)]);
  const merged = await mergeCommits(repo, into, from);
  if (!merged.clean) throw conflictError(merged, from, into, input.pullRequest ?? null);
  return writeYardmasterCommit(repo, merged.tree, [into, from], input.message, input.date);
}

/**
 * The error for a merge that did not apply: names the pull request (when known), the commits and
 * every conflicting file; git's messages are kept in `cause`.
 */
export function conflictError(
  merge: Extract<TreeMerge, { clean: false }>,
  from: Sha,
  into: Sha,
  pullRequest: number | null,
): MergeConflictError {
  const who = pullRequest === null ? `commit ${from}` : `pull request #${pullRequest} (${from})`;
  const where = merge.paths.length === 0 ? "the histories are unrelated" : `conflict in ${merge.paths.join(", ")}`;
  return new MergeConflictError(`${who} does not merge into ${into}: ${where}`, merge.paths, pullRequest, {
    cause: new Error(merge.messages || "git reported a conflict"),
  });
}
