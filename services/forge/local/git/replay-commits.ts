/**
 * Replaying commits onto a new base, one by one, without a work tree (what `git rebase` does):
 * each commit is cherry-picked as a three-way merge whose base is the commit's own first parent,
 * keeping its message, author and author date; the committer becomes Yardmaster at the given date.
 * Merge commits are skipped and commits that become empty are dropped, as `git rebase` does by
 * default. Rules: docs/local-forge.md "Merge methods".
 */
import type { Sha } from "../../types.js";
import { gitText } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { readCommits } from "./commit-object.js";
import { YARDMASTER_IDENTITY, datedIdentity } from "./identity.js";
import { conflictError } from "./merge-commit.js";
import { mergeCommitsWithBase } from "./merge-tree.js";
import { treeOf, writeCommit } from "./write-commit.js";
import type { BareRepo } from "./bare-repo.js";

/** Result of a replay: the new tip and the commits written (oldest first; dropped ones absent). */
export interface Replay {
  tip: Sha;
  commits: Sha[];
}

/**
 * The non-merge commits reachable from `head` and not from `upstream`, oldest first
 * (`git rev-list --reverse --topo-order --no-merges upstream..head`).
 */
export async function commitsToReplay(repo: BareRepo, upstream: Sha, head: Sha): Promise<Sha[]> {
  const text = await withGitFailure(`listing ${upstream}..${head}`, () =>
    gitText(repo.gitDir, ["rev-list", "--reverse", "--topo-order", "--no-merges", `${upstream}..${head}`, "--"]),
  );
  return text === "" ? [] : text.split("\n");
}

/**
 * Replays `commits` (oldest first) onto `onto`.
 * @param pullRequest named in a conflict error
 * @throws MergeConflictError naming the commit that does not apply and its files
 */
export async function replayCommits(
  repo: BareRepo,
  onto: Sha,
  commits: readonly Sha[],
  date: Date,
  pullRequest: number | null,
): Promise<Replay> {
  const committer = datedIdentity(YARDMASTER_IDENTITY, date);
  const details = await readCommits(repo, commits);
  let tip = onto;
  let tipTree = await treeOf(repo, onto);
  const written: Sha[] = [];
  for (const commit of details) {
    const merged = await mergeCommitsWithBase(repo, commit.parents[0] ?? null, tip, commit.sha);
    if (!merged.clean) throw conflictError(merged, commit.sha, tip, pullRequest);
    if (merged.tree === tipTree) continue; // became empty: dropped, as git rebase does
    tip = await writeCommit(repo, {
      tree: merged.tree,
      parents: [tip],
      message: commit.message,
      author: commit.authorIdentity,
      committer,
    });
    tipTree = merged.tree;
    written.push(tip);
  }
  return { tip, commits: written };
}
