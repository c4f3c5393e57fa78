/**
 * History questions about two commits: merge base, ancestry, how far one is behind, and the
 * commits of a pull request; answers about two full SHAs are remembered (commit-memo.ts). A pull
 * request's commits are `base..head` (reachable from head, not from base), oldest first, as GitHub
 * lists them. docs/domain.md §2.2 (`commits`, `#commits-behind`), docs/local-forge.md "Pull
 * request facts".
 */
import type { Sha } from "../../types.js";
import { gitText, runGit } from "./git-command.js";
import { withGitFailure } from "./errors.js";
import { readCommits, type CommitDetails } from "./commit-object.js";
import { resolveCommit } from "./refs.js";
import { rememberForCommits } from "./commit-memo.js";
import type { BareRepo } from "./bare-repo.js";

/**
 * The best common ancestor of two commits, or null for unrelated histories.
 * @throws ForgeError not_found when either is not a commit
 */
export async function mergeBase(repo: BareRepo, a: string, b: string): Promise<Sha | null> {
  return rememberForCommits(repo, "merge-base", [a, b], () => computeMergeBase(repo, a, b));
}

async function computeMergeBase(repo: BareRepo, a: string, b: string): Promise<Sha | null> {
  const [x, y] = await Promise.all([resolveCommit(repo, a), resolveCommit(repo, b)]);
  return withGitFailure(`finding the merge base of ${x} and ${y}`, async () => {
    const out = await runGit(repo.gitDir, ["merge-base", x, y], { okExitCodes: [0, 1] });
    return out.exitCode === 0 ? out.stdout.toString("utf8").trim() : null;
  });
}

/**
 * True when `ancestor` is `descendant` or one of its ancestors (`git merge-base --is-ancestor`).
 * @throws ForgeError not_found when either is not a commit
 */
export async function isAncestor(repo: BareRepo, ancestor: string, descendant: string): Promise<boolean> {
  return rememberForCommits(repo, "is-ancestor", [ancestor, descendant], () =>
    computeIsAncestor(repo, ancestor, descendant),
  );
}

async function computeIsAncestor(repo: BareRepo, ancestor: string, descendant: string): Promise<boolean> {
  const [x, y] = await Promise.all([resolveCommit(repo, ancestor), resolveCommit(repo, descendant)]);
  return withGitFailure(`checking whether ${x} is an ancestor of ${y}`, async () => {
    const out = await runGit(repo.gitDir, ["merge-base", "--is-ancestor", x, y], { okExitCodes: [0, 1] });
    return out.exitCode === 0;
  });
}

/**
 * Commits on `base` that `head` does not contain (`git rev-list --count head..base`): the pull
 * request's `#commits-behind`.
 * @throws ForgeError not_found when either is not a commit
 */
export async function commitsBehind(repo: BareRepo, base: string, head: string): Promise<number> {
  return countRange(repo, head, base);
}

/** Commits on `head` that `base` does not contain (`git rev-list --count base..head`). */
export async function commitsAhead(repo: BareRepo, base: string, head: string): Promise<number> {
  return countRange(repo, base, head);
}

/**
 * The pull request's commits: reachable from `head` and not from `base`, oldest first (parents
 * before children), merge commits included.
 * @throws ForgeError not_found when either is not a commit
 */
export async function commitsBetween(repo: BareRepo, base: string, head: string): Promise<CommitDetails[]> {
  return structuredClone(
    await rememberForCommits(repo, "commits-between", [base, head], () => computeCommitsBetween(repo, base, head)),
  );
}

async function computeCommitsBetween(repo: BareRepo, base: string, head: string): Promise<CommitDetails[]> {
  const [x, y] = await Promise.all([resolveCommit(repo, base), resolveCommit(repo, head)]);
  const text = await withGitFailure(`listing ${x}..${y}`, () =>
    gitText(repo.gitDir, ["rev-list", "--reverse", "--topo-order", `${x}..${y}`, "--"]),
  );
  return readCommits(repo, text === "" ? [] : text.split("\n"));
}

async function countRange(repo: BareRepo, exclude: string, include: string): Promise<number> {
  return rememberForCommits(repo, "count-range", [exclude, include], () => computeCountRange(repo, exclude, include));
}

async function computeCountRange(repo: BareRepo, exclude: string, include: string): Promise<number> {
  const [x, y] = await Promise.all([resolveCommit(repo, exclude), resolveCommit(repo, include)]);
  const text = await withGitFailure(`counting ${x}..${y}`, () =>
    gitText(repo.gitDir, ["rev-list", "--count", `${x}..${y}`, "--"]),
  );
  return Number(text);
}
