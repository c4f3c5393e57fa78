/**
 * Branches through the Git references API (ForgePort.getBranchSha, deleteBranch,
 * fastForwardBranch; docs/github.md "Operations").
 * - read: `GET .../git/ref/heads/{branch}` (exact match only);
 * - create or force-move: `POST .../git/refs`, and on "Reference already exists" (422)
 *   `PATCH .../git/refs/heads/{branch}` with `force: true`;
 * - fast-forward: `PATCH` with `force: false`: GitHub refuses anything but a descendant of the
 *   current tip ("Update is not a fast forward", 422), which is a `conflict`;
 * - delete: `DELETE .../git/refs/heads/{branch}`; an absent branch (422, or 404) is not an error.
 */
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** Refuses names GitHub would misread (the port's `branch` is a short name, not `refs/...`). */
export function checkBranchName(branch: string): void {
  if (
    branch === "" ||
    branch.startsWith("refs/") ||
    branch.startsWith("/") ||
    branch.endsWith("/") ||
    // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in ref names (git check-ref-format)
    /\.\.|[\x00-\x20~^:?*[\\]|@\{|\.lock$|\/\./.test(branch)
  ) {
    throw new ForgeError("invalid", `branch: "${branch}" is not a valid branch name`);
  }
}

/**
 * The tip of a branch.
 * @throws ForgeError not_found when the branch does not exist (other failures: the Octokit error)
 */
export async function branchSha(gh: GithubOctokit, params: RepoParams, branch: string): Promise<Sha> {
  checkBranchName(branch);
  try {
    const { data } = await gh.rest.git.getRef({ ...params, ref: `heads/${branch}` });
    return data.object.sha;
  } catch (e) {
    if (githubStatus(e) === 404)
      throw new ForgeError(
        "not_found",
        `branch ${branch} does not exist in ${params.owner}/${params.repo}`,
        undefined,
        { cause: e },
      );
    throw e;
  }
}

/** Creates `branch` at `sha`, or force-moves it there when it exists. */
export async function forceBranch(gh: GithubOctokit, params: RepoParams, branch: string, sha: Sha): Promise<void> {
  checkBranchName(branch);
  try {
    await gh.rest.git.createRef({ ...params, ref: `refs/heads/${branch}`, sha });
  } catch (e) {
    if (githubStatus(e) !== 422 || !/already exists/i.test(githubMessage(e))) throw e;
    await gh.rest.git.updateRef({ ...params, ref: `heads/${branch}`, sha, force: true });
  }
}

/** Deletes `branch`; nothing happens when it is already absent. */
export async function removeBranch(gh: GithubOctokit, params: RepoParams, branch: string): Promise<void> {
  checkBranchName(branch);
  try {
    await gh.rest.git.deleteRef({ ...params, ref: `heads/${branch}` });
  } catch (e) {
    // GitHub answers 422 "Reference does not exist" (its description: "an attempt was made to delete a ref that doesn't exist").
    const status = githubStatus(e);
    if (status === 404 || status === 422) return;
    throw e;
  }
}

/**
 * Moves `branch` to `sha`, which must descend from its tip.
 * @throws ForgeError conflict when it does not; not_found when the branch or commit is absent
 */
export async function fastForward(gh: GithubOctokit, params: RepoParams, branch: string, sha: Sha): Promise<void> {
  checkBranchName(branch);
  try {
    await gh.rest.git.updateRef({ ...params, ref: `heads/${branch}`, sha, force: false });
  } catch (e) {
    const status = githubStatus(e),
      message = githubMessage(e);
    if (status === 422 && /not a fast.?forward/i.test(message)) {
      throw new ForgeError(
        "conflict",
        `cannot fast-forward ${branch} to ${sha}: it does not descend from the branch's tip`,
        undefined,
        { cause: e },
      );
    }
    if (status === 422 && /does not exist|object does not exist|unknown/i.test(message)) {
      throw new ForgeError("not_found", `cannot fast-forward ${branch} to ${sha}: ${message}`, undefined, { cause: e });
    }
    throw e;
  }
}
