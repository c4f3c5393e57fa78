/**
 * Backport, copy and squash on bare repositories (docs/workflow-automation.md "backport and
 * copy", "squash"), without a work tree. A cherry-pick is the three-way merge of rebases
 * (replay-commits.ts): each commit applied onto the tip with its own first parent as base, keeping
 * its message and author, with a `(cherry picked from commit <sha>)` line as `git cherry-pick -x`
 * writes. With `allowConflicts`, a commit that does not apply is committed with git's conflict
 * markers in its files (what the compatible service does with `ignore_conflicts`).
 */
import type { Sha } from "../../types.js";
import { readCommits } from "./commit-object.js";
import { YARDMASTER_IDENTITY, datedIdentity } from "./identity.js";
import { conflictError } from "./merge-commit.js";
import { mergeCommitsWithBase } from "./merge-tree.js";
import { mergeBase } from "./ancestry.js";
import { treeOf, writeCommit } from "./write-commit.js";
import { readCommit } from "./commit-object.js";
import type { BareRepo } from "./bare-repo.js";

/** Result of {@link cherryPickCommits}: the new tip and the paths that conflicted (empty: clean). */
export interface CherryPick {
  tip: Sha;
  conflicts: string[];
}

/**
 * Cherry-picks `commits` (oldest first) onto `onto`. Commits that become empty are dropped.
 * @throws MergeConflictError when a commit does not apply and `allowConflicts` is false (or the
 *   histories are unrelated)
 */
export async function cherryPickCommits(
  repo: BareRepo,
  onto: Sha,
  commits: readonly Sha[],
  date: Date,
  allowConflicts: boolean,
): Promise<CherryPick> {
  const committer = datedIdentity(YARDMASTER_IDENTITY, date);
  let tip = onto;
  let tipTree = await treeOf(repo, onto);
  const conflicts = new Set<string>();
  for (const commit of await readCommits(repo, commits)) {
    const merged = await mergeCommitsWithBase(repo, commit.parents[0] ?? null, tip, commit.sha);
    let tree: Sha;
    if (merged.clean) tree = merged.tree;
    else if (allowConflicts && merged.conflictedTree !== undefined) {
      tree = merged.conflictedTree;
      for (const p of merged.paths) conflicts.add(p);
    } else throw conflictError(merged, commit.sha, tip, null);
    if (tree === tipTree) continue;
    const message = `${commit.message.trimEnd()}\n\n(cherry picked from commit ${commit.sha})\n`;
    tip = await writeCommit(repo, { tree, parents: [tip], message, author: commit.authorIdentity, committer });
    tipTree = tree;
  }
  return { tip, conflicts: [...conflicts].sort() };
}

/**
 * One commit with the tree of `head` whose parent is the merge base of `base` and `head`: the
 * head's changes squashed (its author is the first commit's).
 * @returns the new commit, or `head` itself when it is already one commit on the merge base
 */
export async function squashHead(
  repo: BareRepo,
  input: { base: Sha; head: Sha; message: string; firstCommit: Sha; date: Date },
): Promise<Sha> {
  const parent = await mergeBase(repo, input.base, input.head);
  const head = await readCommit(repo, input.head);
  if (parent !== null && head.parents.length === 1 && head.parents[0] === parent) return input.head;
  const first = await readCommit(repo, input.firstCommit);
  return writeCommit(repo, {
    tree: await treeOf(repo, input.head),
    parents: parent === null ? [] : [parent],
    message: input.message,
    author: first.authorIdentity,
    committer: datedIdentity(YARDMASTER_IDENTITY, input.date),
  });
}
