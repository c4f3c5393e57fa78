/**
 * Every git-derived attribute of a pull request snapshot in one call (services/forge/types.ts
 * `PullRequestSnapshot`: files, added/modified/removed files, added/deleted lines, commits,
 * commits behind, conflict). The local forge adds the database-held attributes (title, labels,
 * reviews, checks). docs/domain.md §2.2, docs/local-forge.md "Pull request facts".
 */
import type { Sha } from "../../types.js";
import { commitsBehind, commitsBetween, mergeBase } from "./ancestry.js";
import type { CommitDetails } from "./commit-object.js";
import { diffFacts, type DiffFacts } from "./diff-facts.js";
import { hasConflict } from "./merge-tree.js";
import { resolveCommit } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/** Git facts of a pull request from `base` to `head`. */
export interface PullRequestGitFacts extends DiffFacts {
  baseSha: Sha;
  headSha: Sha;
  /** Merge base of base and head; null for unrelated histories. */
  mergeBase: Sha | null;
  /** Commits in head and not in base, oldest first. */
  commits: CommitDetails[];
  /** Commits in base and not in head. */
  commitsBehind: number;
  /** True when head does not merge cleanly into base. */
  conflict: boolean;
}

/**
 * Computes the facts of a pull request. Each part is remembered per pair of commits by the
 * function that computes it (commit-memo.ts), so the facts of two SHAs asked again start no git
 * process; the caller gets its own copy.
 * @param base base branch or SHA; @param head head branch or SHA
 * @throws ForgeError not_found when either names no commit
 */
export async function pullRequestFacts(repo: BareRepo, base: string, head: string): Promise<PullRequestGitFacts> {
  const [baseSha, headSha] = await Promise.all([resolveCommit(repo, base), resolveCommit(repo, head)]);
  const [diff, commits, behind, conflict, common] = await Promise.all([
    diffFacts(repo, baseSha, headSha),
    commitsBetween(repo, baseSha, headSha),
    commitsBehind(repo, baseSha, headSha),
    hasConflict(repo, baseSha, headSha),
    mergeBase(repo, baseSha, headSha),
  ]);
  return { ...diff, baseSha, headSha, mergeBase: common, commits, commitsBehind: behind, conflict };
}
