/**
 * How each merge method turns a pull request into commits on top of a base tip, without moving
 * any ref (the caller moves the base once, with a compare-and-swap). docs/domain.md §3.6,
 * docs/local-forge.md "Merge methods":
 * - merge: one merge commit, parents [tip, head], tree = merge of head into tip;
 * - squash: one commit, parent = tip, tree = the same merge result;
 * - rebase: each non-merge commit of the pull request replayed onto the tip;
 * - fast-forward: the tip must be an ancestor of head; the tip becomes head.
 */
import { ForgeError, type MergeMethod, type Sha } from "../../types.js";
import { readCommits } from "./commit-object.js";
import { YARDMASTER_IDENTITY, datedIdentity, type GitIdentity } from "./identity.js";
import { conflictError } from "./merge-commit.js";
import { mergeCommits } from "./merge-tree.js";
import { isAncestor } from "./ancestry.js";
import { commitsToReplay, replayCommits } from "./replay-commits.js";
import { writeCommit, writeYardmasterCommit } from "./write-commit.js";
import type { BareRepo } from "./bare-repo.js";

/** A pull request to merge: its number, the head SHA that was tested, and optional message/author. */
export interface PullToMerge {
  number: number;
  /** The exact head commit to merge. */
  headSha: Sha;
  /**
   * Message of the merge or squash commit. Defaults: merge `Merge pull request #n`; squash
   * `Squash of #n` followed by the list of the pull request's commit titles. Ignored by rebase
   * and fast-forward.
   */
  message?: string;
  /** Author of a squash commit (default: the author of the pull request's first commit). */
  author?: GitIdentity;
}

/** What merging one pull request wrote. */
export interface MergedPull {
  number: number;
  /** Commits written for it, oldest first (merge/squash: one; rebase: the replayed ones; fast-forward: none). */
  commits: Sha[];
  /**
   * The SHA GitHub calls `merge_commit_sha`: the merge or squash commit, the last rebased commit,
   * or head for fast-forward (the tip before, when a rebase dropped every commit).
   */
  mergeCommitSha: Sha;
}

/**
 * Applies one pull request to `tip` with `method`.
 * @returns the new tip and what was written
 * @throws MergeConflictError (conflict) naming the pull request and files; ForgeError conflict for
 *   fast-forward when the tip is not an ancestor of head
 */
export async function applyPull(
  repo: BareRepo,
  tip: Sha,
  pull: PullToMerge,
  method: MergeMethod,
  date: Date,
): Promise<{ tip: Sha; merged: MergedPull }> {
  switch (method) {
    case "merge": {
      const merge = await mergeCommits(repo, tip, pull.headSha);
      if (!merge.clean) throw conflictError(merge, pull.headSha, tip, pull.number);
      const sha = await writeYardmasterCommit(
        repo,
        merge.tree,
        [tip, pull.headSha],
        pull.message ?? `Merge pull request #${pull.number}`,
        date,
      );
      return { tip: sha, merged: { number: pull.number, commits: [sha], mergeCommitSha: sha } };
    }
    case "squash": {
      const merge = await mergeCommits(repo, tip, pull.headSha);
      if (!merge.clean) throw conflictError(merge, pull.headSha, tip, pull.number);
      const own = await readCommits(repo, await commitsToReplay(repo, tip, pull.headSha));
      const firstAuthor = own[0]?.authorIdentity;
      const author =
        pull.author ?? (firstAuthor ? { name: firstAuthor.name, email: firstAuthor.email } : YARDMASTER_IDENTITY);
      const message = pull.message ?? [`Squash of #${pull.number}`, "", ...own.map((c) => `* ${c.title}`)].join("\n");
      const sha = await writeCommit(repo, {
        tree: merge.tree,
        parents: [tip],
        message,
        author: datedIdentity(author, date),
        committer: datedIdentity(YARDMASTER_IDENTITY, date),
      });
      return { tip: sha, merged: { number: pull.number, commits: [sha], mergeCommitSha: sha } };
    }
    case "rebase": {
      const replay = await replayCommits(repo, tip, await commitsToReplay(repo, tip, pull.headSha), date, pull.number);
      return { tip: replay.tip, merged: { number: pull.number, commits: replay.commits, mergeCommitSha: replay.tip } };
    }
    case "fast-forward": {
      if (!(await isAncestor(repo, tip, pull.headSha))) {
        throw new ForgeError(
          "conflict",
          `pull request #${pull.number} cannot be fast-forwarded: ${tip} is not an ancestor of its head ${pull.headSha}`,
        );
      }
      return { tip: pull.headSha, merged: { number: pull.number, commits: [], mergeCommitSha: pull.headSha } };
    }
    default: {
      const never: never = method;
      throw new ForgeError("invalid", `unknown merge method "${String(never)}"`);
    }
  }
}
