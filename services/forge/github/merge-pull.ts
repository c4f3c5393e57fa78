/**
 * Merging a pull request (ForgePort.mergePullRequest; docs/domain.md §3.6; docs/github.md
 * "Merging").
 * - merge, squash, rebase: `PUT .../pulls/{n}/merge` with `merge_method` and `sha` = the expected
 *   head SHA, so a push after the checks ran refuses the merge (409 "Head branch was modified");
 *   GitHub answers the commit now at the tip of the base branch.
 * - fast-forward: GitHub has no such merge method. The head SHA is checked, then the base branch
 *   is moved to it with `PATCH .../git/refs/heads/{base}` and `force: false`, which GitHub accepts
 *   only as a fast-forward; GitHub then marks the pull request merged by itself.
 * Refusals: 405 "not mergeable" is a `MergeConflictError` naming the pull request; 409 and 405
 * "modified" (the head or base moved) are `conflict`; a 405 from branch protection or
 * repository rules ("required", "review", "rule", "protected") is `permission`; 405 about a method
 * the repository does not allow, and 422, are `invalid`.
 */
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, type MergeMethod, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import { fastForward } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** The port error for GitHub's refusal of a merge; null when `e` is not one. */
export function mergeRefusal(e: unknown, number: number): ForgeError | null {
  const status = githubStatus(e),
    message = githubMessage(e);
  const what = `GitHub refused to merge pull request #${number}: ${message}`;
  if (status === 409) return new ForgeError("conflict", what, undefined, { cause: e });
  if (status !== 405) return null;
  if (/not mergeable|conflict/i.test(message)) return new MergeConflictError(what, [], number, { cause: e });
  if (/modified/i.test(message)) return new ForgeError("conflict", what, undefined, { cause: e });
  if (/required|review|rule|protect/i.test(message)) return new ForgeError("permission", what, undefined, { cause: e });
  return new ForgeError("invalid", what, undefined, { cause: e });
}

/**
 * Merges pull request `number`.
 * @returns the new tip SHA of the base branch
 * @throws ForgeError conflict when the head moved or the merge does not apply, permission when
 *   branch protection refuses, invalid for a method the repository does not allow; else the Octokit error
 */
export async function mergePull(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  input: { method: MergeMethod; expectedHeadSha: Sha; commitTitle?: string; commitMessage?: string },
): Promise<Sha> {
  if (input.method === "fast-forward") {
    const { data: pull } = await gh.rest.pulls.get({ ...params, pull_number: number });
    if (pull.state !== "open") throw new ForgeError("invalid", `pull request #${number} is not open`);
    if (pull.head.sha !== input.expectedHeadSha) {
      throw new ForgeError(
        "conflict",
        `pull request #${number} head is ${pull.head.sha}, not the tested ${input.expectedHeadSha}`,
      );
    }
    await fastForward(gh, params, pull.base.ref, input.expectedHeadSha);
    return input.expectedHeadSha;
  }
  try {
    const { data } = await gh.rest.pulls.merge({
      ...params,
      pull_number: number,
      merge_method: input.method,
      sha: input.expectedHeadSha,
      ...(input.commitTitle !== undefined ? { commit_title: input.commitTitle } : {}),
      ...(input.commitMessage !== undefined ? { commit_message: input.commitMessage } : {}),
    });
    return data.sha;
  } catch (e) {
    throw mergeRefusal(e, number) ?? e;
  }
}
