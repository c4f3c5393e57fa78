/**
 * Bringing a pull request's head up to date with its base (ForgePort.updatePullRequestWithBase;
 * docs/domain.md §3.4 "in place" checks with `update_method`; docs/github.md "Updating a pull
 * request").
 *
 * - merge, head in the same repository: `POST .../merges` merges the base branch into the head
 *   branch (message `Merge branch '<base>' into <head>`), answering the new head SHA at once;
 * - merge, head in a fork: only GitHub can write there, through `PUT .../update-branch` (guarded by
 *   `expected_head_sha`), which works in the background: the pull request is re-read until its
 *   head moves (`wait` between reads, at most {@link UPDATE_POLLS} reads);
 * - rebase (same repository only: the API cannot write a fork): each non-merge commit of the head
 *   is replayed on the base tip with the API alone (replay-commits.ts). The head branch then moves
 *   to the last commit, after checking it still points where it did.
 */
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import type { GhPull } from "./github-types.js";
import { branchSha, removeBranch } from "./refs.js";
import { replayCommits } from "./replay-commits.js";
import type { RepoParams } from "./repo-name.js";

/** Reads of the pull request while waiting for GitHub's background update of a fork. */
export const UPDATE_POLLS = 15;
/** Wait between two reads, in milliseconds. */
export const UPDATE_POLL_INTERVAL_MS = 1000;
/** The most commits a rebase through the API replays (one page of a comparison). */
export const MAX_REBASE_COMMITS = 250;

function conflict(number: number, e: unknown): MergeConflictError {
  return new MergeConflictError(`pull request #${number} does not update cleanly with its base`, [], number, {
    cause: e,
  });
}

async function mergeBaseIntoHead(gh: GithubOctokit, params: RepoParams, pull: GhPull): Promise<Sha> {
  try {
    const res = await gh.rest.repos.merge({
      ...params,
      base: pull.head.ref,
      head: pull.base.ref,
      commit_message: `Merge branch '${pull.base.ref}' into ${pull.head.ref}`,
    });
    return res.status === 201 ? res.data.sha : pull.head.sha;
  } catch (e) {
    if (githubStatus(e) === 409) throw conflict(pull.number, e);
    throw e;
  }
}

async function updateForkBranch(
  gh: GithubOctokit,
  params: RepoParams,
  pull: GhPull,
  wait: (ms: number) => Promise<void>,
): Promise<Sha> {
  try {
    await gh.rest.pulls.updateBranch({ ...params, pull_number: pull.number, expected_head_sha: pull.head.sha });
  } catch (e) {
    const message = githubMessage(e);
    if (githubStatus(e) === 422 && /no new commits/i.test(message)) return pull.head.sha;
    if (githubStatus(e) === 422 && /conflict/i.test(message)) throw conflict(pull.number, e);
    if (githubStatus(e) === 422 && /expected head sha/i.test(message)) {
      throw new ForgeError("conflict", `pull request #${pull.number} was pushed to while being updated`, undefined, {
        cause: e,
      });
    }
    throw e;
  }
  for (let i = 0; i < UPDATE_POLLS; i++) {
    await wait(UPDATE_POLL_INTERVAL_MS);
    const { data } = await gh.rest.pulls.get({ ...params, pull_number: pull.number });
    if (data.head.sha !== pull.head.sha) return data.head.sha;
  }
  throw new ForgeError(
    "transient",
    `GitHub has not finished updating pull request #${pull.number} with its base; try again`,
  );
}

async function rebaseOntoBase(gh: GithubOctokit, params: RepoParams, pull: GhPull): Promise<Sha> {
  const { data: cmp } = await gh.rest.repos.compareCommitsWithBasehead({
    ...params,
    basehead: `${pull.base.ref}...${pull.head.sha}`,
    per_page: MAX_REBASE_COMMITS,
  });
  if (cmp.behind_by === 0) return pull.head.sha;
  if (cmp.ahead_by > cmp.commits.length) {
    throw new ForgeError(
      "invalid",
      `pull request #${pull.number} has ${cmp.ahead_by} commits; a rebase through the GitHub API replays at most ${MAX_REBASE_COMMITS}`,
    );
  }
  const temp = `yardmaster/tmp-rebase-${pull.number}`;
  let tip: Sha;
  try {
    const onto = { sha: cmp.base_commit.sha, tree: cmp.base_commit.commit.tree.sha };
    tip = (
      await replayCommits(gh, params, onto, cmp.commits, {
        temp,
        pullRequest: pull.number,
        conflictMessage: `pull request #${pull.number} does not update cleanly with its base`,
      })
    ).sha;
  } finally {
    await removeBranch(gh, params, temp).catch(() => {});
  }
  const current = await branchSha(gh, params, pull.head.ref);
  if (current !== pull.head.sha)
    throw new ForgeError("conflict", `pull request #${pull.number} was pushed to while being rebased`);
  await gh.rest.git.updateRef({ ...params, ref: `heads/${pull.head.ref}`, sha: tip, force: true });
  return tip;
}

/**
 * Updates the head of pull request `number` with its base.
 * @param wait sleeps between reads of a fork's background update (milliseconds)
 * @returns the new head SHA (the old one when already up to date)
 * @throws MergeConflictError when the base does not apply; ForgeError invalid for a closed pull
 *   request or a rebase of a fork; conflict when the head moved meanwhile; the Octokit error otherwise
 */
export async function updateWithBase(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  method: "merge" | "rebase",
  wait: (ms: number) => Promise<void>,
): Promise<Sha> {
  const { data: pull } = await gh.rest.pulls.get({ ...params, pull_number: number });
  if (pull.state !== "open")
    throw new ForgeError("invalid", `pull request #${number} is closed; only an open pull request can be updated`);
  const sameRepo = pull.head.repo?.full_name.toLowerCase() === `${params.owner}/${params.repo}`.toLowerCase();
  if (method === "rebase") {
    if (!sameRepo)
      throw new ForgeError(
        "invalid",
        `pull request #${number} comes from a fork: GitHub's API cannot rebase it (use update_method: merge)`,
      );
    return rebaseOntoBase(gh, params, pull);
  }
  return sameRepo ? mergeBaseIntoHead(gh, params, pull) : updateForkBranch(gh, params, pull, wait);
}
