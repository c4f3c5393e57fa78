/**
 * The speculative branch of a queue batch on GitHub (docs/domain.md §3.4, ForgePort
 * createSpeculativeBranch; docs/github.md "Speculative branches"). GitHub merges only into a
 * branch, so the chain is built on a temporary branch next to the final one (`.../tmp-<name>`):
 * 1. the temporary branch is created (or force-moved) at the base SHA;
 * 2. each pull request's head SHA is merged into it, in order, with `POST .../merges`
 *    (message `Merge of #n`): 201 is the new merge commit, 204 means the head was already
 *    contained, 409 is a merge conflict naming that pull request;
 * 3. the final branch is created or force-moved to the chain's tip, and the temporary one deleted.
 * So the final branch moves once, to the finished chain (CI that runs on pushes never sees half a
 * chain), and a conflict leaves it untouched, as the local forge does.
 */
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { checkBranchName, forceBranch, removeBranch } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** The temporary branch a speculative branch is built on: `tmp-` before its last segment. */
export function temporaryBranchOf(branch: string): string {
  const slash = branch.lastIndexOf("/");
  return `${branch.slice(0, slash + 1)}tmp-${branch.slice(slash + 1)}`;
}

/**
 * Builds the chain and points `branch` at it.
 * @returns the branch's new tip (`baseSha` when `pulls` is empty)
 * @throws MergeConflictError (ForgeError conflict, `pullRequest` set, `paths` empty: GitHub does
 *   not name them) for the first pull request that does not merge, with `branch` unchanged;
 *   ForgeError invalid for duplicate pull requests or a bad branch name; the Octokit error otherwise
 */
export async function buildSpeculativeBranch(
  gh: GithubOctokit,
  params: RepoParams,
  branch: string,
  baseSha: Sha,
  pulls: readonly { number: number; headSha: Sha }[],
): Promise<Sha> {
  checkBranchName(branch);
  const seen = new Set<number>();
  for (const p of pulls) {
    if (seen.has(p.number))
      throw new ForgeError("invalid", `pull request #${p.number} appears twice in the speculative branch`);
    seen.add(p.number);
  }
  const temp = temporaryBranchOf(branch);
  await forceBranch(gh, params, temp, baseSha);
  try {
    let tip = baseSha;
    for (const pull of pulls) {
      try {
        const res = await gh.rest.repos.merge({
          ...params,
          base: temp,
          head: pull.headSha,
          commit_message: `Merge of #${pull.number}`,
        });
        if (res.status === 201) tip = res.data.sha;
      } catch (e) {
        if (githubStatus(e) === 409) {
          throw new MergeConflictError(
            `pull request #${pull.number} does not merge into the speculative branch ${branch}`,
            [],
            pull.number,
            { cause: e },
          );
        }
        throw e;
      }
    }
    await forceBranch(gh, params, branch, tip);
    return tip;
  } finally {
    await removeBranch(gh, params, temp).catch(() => {});
  }
}
