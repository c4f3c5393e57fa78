/**
 * Merging pull requests into their base branch. A tested batch is merged as **one atomic base
 * move**: every commit is built first on top of the expected base tip, then the base ref moves
 * once, with a compare-and-swap from the expected SHA, so the base only ever points at a tree that
 * passed CI and a concurrent push makes the whole merge fail rather than half-apply.
 * docs/domain.md §3.6, docs/local-forge.md "Merging a batch".
 */
import { ForgeError, type MergeMethod, type Sha } from "../../types.js";
import { applyPull, type MergedPull, type PullToMerge } from "./merge-methods.js";
import { branchRef, compareAndSwapRef, findBranchSha, getBranchSha, resolveCommit } from "./refs.js";
import type { BareRepo } from "./bare-repo.js";

/** A pull request to merge, optionally guarded by its head branch still pointing at `headSha`. */
export interface PullToMergeGuarded extends PullToMerge {
  /** When given, the merge fails with conflict unless this branch still points at `headSha`. */
  headBranch?: string;
}

/** Input of {@link mergePullRequests}. */
export interface MergePullRequestsInput {
  /** Base branch name. */
  base: string;
  /** The base tip the batch was tested on; the base must still point there (conflict otherwise). */
  expectedBaseSha: Sha;
  method: MergeMethod;
  /** In merge order; at least one, each number once. */
  pulls: readonly PullToMergeGuarded[];
  /** Date of every commit written (UTC). */
  date: Date;
}

/** Outcome of a merge: the base before and after, and what each pull request became. */
export interface MergeOutcome {
  previousSha: Sha;
  /** The base branch's new tip. */
  tip: Sha;
  /** One entry per pull request, in merge order. */
  pulls: MergedPull[];
}

/**
 * Merges `pulls` in order onto `expectedBaseSha` and moves the base once.
 * @throws ForgeError conflict when the base or a guarded head moved (nothing is changed);
 *   MergeConflictError naming the pull request that does not apply (nothing is changed);
 *   not_found for a missing branch or commit; invalid for an empty list or a repeated number
 */
export async function mergePullRequests(repo: BareRepo, input: MergePullRequestsInput): Promise<MergeOutcome> {
  if (input.pulls.length === 0) throw new ForgeError("invalid", "pulls must hold at least one pull request to merge");
  const numbers = new Set(input.pulls.map((p) => p.number));
  if (numbers.size !== input.pulls.length) throw new ForgeError("invalid", "pulls may not name a pull request twice");

  const expected = await resolveCommit(repo, input.expectedBaseSha);
  const current = await getBranchSha(repo, input.base);
  if (current !== expected)
    throw new ForgeError("conflict", `branch ${input.base} moved: expected ${expected}, found ${current}`);
  for (const pull of input.pulls) await checkHeadGuard(repo, pull);

  let tip = expected;
  const merged: MergedPull[] = [];
  for (const pull of input.pulls) {
    const step = await applyPull(
      repo,
      tip,
      { ...pull, headSha: await resolveCommit(repo, pull.headSha) },
      input.method,
      input.date,
    );
    tip = step.tip;
    merged.push(step.merged);
  }
  if (tip !== expected) await compareAndSwapRef(repo, branchRef(input.base), expected, tip);
  return { previousSha: expected, tip, pulls: merged };
}

/** Input of {@link mergePullRequest}. */
export interface MergePullRequestInput {
  base: string;
  pull: PullToMergeGuarded;
  method: MergeMethod;
  date: Date;
  /** The base tip to merge onto; default: the base's current tip (still moved by compare-and-swap). */
  expectedBaseSha?: Sha;
}

/**
 * Merges one pull request (a batch of one; same errors as {@link mergePullRequests}).
 * @returns the outcome; `pulls[0]` is this pull request
 */
export async function mergePullRequest(repo: BareRepo, input: MergePullRequestInput): Promise<MergeOutcome> {
  const expectedBaseSha = input.expectedBaseSha ?? (await getBranchSha(repo, input.base));
  return mergePullRequests(repo, {
    base: input.base,
    expectedBaseSha,
    method: input.method,
    pulls: [input.pull],
    date: input.date,
  });
}

async function checkHeadGuard(repo: BareRepo, pull: PullToMergeGuarded): Promise<void> {
  if (pull.headBranch === undefined) return;
  const [actual, wanted] = await Promise.all([findBranchSha(repo, pull.headBranch), resolveCommit(repo, pull.headSha)]);
  if (actual !== wanted) {
    throw new ForgeError(
      "conflict",
      `head of pull request #${pull.number} moved: ${pull.headBranch} is at ${actual ?? "nothing"}, expected ${wanted}`,
    );
  }
}
