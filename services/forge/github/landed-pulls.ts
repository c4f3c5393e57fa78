/**
 * The pull requests of a batch that landed in commits GitHub cannot attribute to them (docs/github.md
 * "Landing a batch"): GitHub marks a pull request merged when its head commit reaches the base
 * (a merge commit holding it, a fast-forward past it), not when its change arrives as a new commit
 * (a squash or rebase of the batch's pull request, a linear check branch). Those are closed by
 * the queue, each with a comment naming the commit that carries its change, so that none stays
 * open with its change already in the base. A pull request already closed is left alone (a
 * resume after a crash).
 */
import type { Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { postComment } from "./issues.js";
import { closePull } from "./pull-writes.js";
import type { RepoParams } from "./repo-name.js";

/** Whether the base at `landed` contains `head` (`GET .../compare/{head}...{landed}`). */
export async function contains(gh: GithubOctokit, params: RepoParams, landed: Sha, head: Sha): Promise<boolean> {
  if (landed === head) return true;
  const { data } = await gh.rest.repos.compareCommitsWithBasehead({
    ...params,
    basehead: `${head}...${landed}`,
    per_page: 1,
  });
  return data.status === "ahead" || data.status === "identical";
}

/**
 * Closes each of `numbers` still open, with a comment saying where its change landed.
 * @param how how it landed, for the comment (e.g. "in the squash of #12, with #3 and #4")
 */
export async function closeLandedPulls(
  gh: GithubOctokit,
  params: RepoParams,
  numbers: readonly number[],
  landed: Sha,
  how: (n: number) => string,
): Promise<void> {
  for (const number of numbers) {
    const { data } = await gh.rest.pulls.get({ ...params, pull_number: number });
    if (data.state !== "open") continue;
    await closePull(gh, params, number);
    await postComment(
      gh,
      params,
      number,
      `Merged by the merge queue: its change landed ${how(number)} as ${landed}. GitHub shows the pull request closed, not merged, because its own head commit is not on the base branch.`,
    );
  }
}
