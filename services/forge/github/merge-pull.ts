/**
 * Merging one pull request through GitHub's merge API (ForgePort.mergePullRequest, and each pull
 * request of a batch landed one at a time; docs/domain.md §3.6; docs/github.md "Landing a batch").
 * - merge, squash, rebase: `PUT .../pulls/{n}/merge` with `merge_method` and `sha` = the tested
 *   head, so a push after the checks ran is refused (409 "Head branch was modified");
 *   GitHub answers the commit now at the tip of the base branch.
 * - fast-forward: GitHub has no such merge method. The head SHA is checked, then the base branch
 *   is moved to it with `PATCH .../git/refs/heads/{base}` and `force: false`.
 * - No method (null): the first the repository allows and the branch accepts (landing-rules.ts).
 * GitHub's answers (https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request):
 * - 405 "Base branch was modified. Review and try the merge again." follows a move of the base by
 *   a moment and is transient: the merge is tried again, at most {@link MERGE_ATTEMPTS} times, one
 *   second then twice as long each time, each retry logged;
 * - 405 "Pull Request is not mergeable" is a `MergeConflictError` naming the pull request;
 * - 409 "Head branch was modified": the head moved, a {@link MergeRefusedError} head_moved;
 * - any other 405 is the branch's protection, its rules or the repository's settings (required
 *   reviews or checks, "Merge commits are not allowed on this repository", a draft, rule
 *   violations): a MergeRefusedError protection with GitHub's message.
 */
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, MergeRefusedError, type MergeMethod, type Sha } from "../types.js";
import type { GithubLogger, GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import { fastForward } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** Attempts of a merge that GitHub answers "Base branch was modified" (the first included). */
export const MERGE_ATTEMPTS = 5;
/** Wait before the first retry, in ms; each next wait doubles (1, 2, 4, 8 s). */
export const MERGE_RETRY_WAIT_MS = 1000;

/** What a merge needs besides the client: sleeping between attempts and a log. */
export interface MergeEnv {
  wait: (ms: number) => Promise<void>;
  log: GithubLogger;
}

/** Whether GitHub's answer is the transient refusal that follows a move of the base. */
export function isBaseModified(e: unknown): boolean {
  return githubStatus(e) === 405 && /base branch was modified/i.test(githubMessage(e));
}

/** The port error for GitHub's refusal of a merge; null when `e` is not one. */
export function mergeRefusal(e: unknown, number: number): ForgeError | null {
  const status = githubStatus(e),
    message = githubMessage(e);
  const what = `GitHub refused to merge pull request #${number}: ${message}`;
  if (status === 409) return new MergeRefusedError("head_moved", what, number, { cause: e });
  if (status !== 405) return null;
  if (/not mergeable|merge conflict/i.test(message)) return new MergeConflictError(what, [], number, { cause: e });
  if (isBaseModified(e))
    return new ForgeError("transient", `${what} (after ${MERGE_ATTEMPTS} attempts)`, undefined, { cause: e });
  return new MergeRefusedError("protection", what, number, { cause: e });
}

/**
 * Merges pull request `number` with a method GitHub's merge API knows.
 * @returns the new tip SHA of the base branch
 * @throws MergeConflictError, MergeRefusedError (see the file header); ForgeError transient when the
 *   base kept moving; the Octokit error otherwise
 */
export async function mergeThroughApi(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  input: { method: "merge" | "squash" | "rebase"; sha: Sha; commitTitle?: string; commitMessage?: string },
  env: MergeEnv,
): Promise<Sha> {
  for (let attempt = 1; ; attempt++) {
    try {
      const { data } = await gh.rest.pulls.merge({
        ...params,
        pull_number: number,
        merge_method: input.method,
        sha: input.sha,
        ...(input.commitTitle !== undefined ? { commit_title: input.commitTitle } : {}),
        ...(input.commitMessage !== undefined ? { commit_message: input.commitMessage } : {}),
      });
      return data.sha;
    } catch (e) {
      if (isBaseModified(e) && attempt < MERGE_ATTEMPTS) {
        const waitMs = MERGE_RETRY_WAIT_MS * 2 ** (attempt - 1);
        env.log.warn(
          {
            repository: `${params.owner}/${params.repo}`,
            pullRequest: number,
            attempt,
            waitMs,
            github: githubMessage(e),
          },
          "GitHub answered that the base branch was modified: merging again",
        );
        await env.wait(waitMs);
        continue;
      }
      throw mergeRefusal(e, number) ?? e;
    }
  }
}

/**
 * Merges pull request `number` (ForgePort.mergePullRequest).
 * @param resolve the method to use when `input.method` is null (the repository's default for the pull request's base)
 * @returns the new tip SHA of the base branch
 * @throws ForgeError conflict when the head moved or the merge does not apply, MergeRefusedError
 *   when GitHub's rules refuse it; else the Octokit error
 */
export async function mergePull(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  input: { method: MergeMethod | null; expectedHeadSha: Sha; commitTitle?: string; commitMessage?: string },
  env: MergeEnv & { resolve: (base: string) => Promise<"merge" | "squash" | "rebase"> },
): Promise<Sha> {
  if (input.method === "fast-forward" || input.method === null) {
    const { data: pull } = await gh.rest.pulls.get({ ...params, pull_number: number });
    if (pull.state !== "open") throw new ForgeError("invalid", `pull request #${number} is not open`);
    if (pull.head.sha !== input.expectedHeadSha) {
      throw new MergeRefusedError(
        "head_moved",
        `pull request #${number} head is ${pull.head.sha}, not the tested ${input.expectedHeadSha}`,
        number,
      );
    }
    if (input.method === null) {
      const method = await env.resolve(pull.base.ref);
      return mergeThroughApi(gh, params, number, { ...input, method, sha: input.expectedHeadSha }, env);
    }
    await fastForward(gh, params, pull.base.ref, input.expectedHeadSha);
    return input.expectedHeadSha;
  }
  return mergeThroughApi(gh, params, number, { ...input, method: input.method, sha: input.expectedHeadSha }, env);
}
