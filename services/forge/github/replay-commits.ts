/**
 * Replaying commits on another tip with GitHub's API alone (a rebase without a clone; used by
 * update-with-base.ts for `update_method: rebase` and by speculative-branch.ts for the linear check
 * branches of docs/github.md "Speculative branches"). For a commit C with parent P: a helper commit
 * with the current tip's tree and parent P is merged with C on a temporary branch (`POST .../merges`,
 * GitHub's three-way merge); their merge base is P, so the merge's tree is the tip's tree plus C's
 * change. A commit with that tree, C's message and author, and the tip as parent is then written
 * (`POST .../git/commits`). A commit whose change is already there (same tree) is dropped, as
 * `git rebase` does. Helper commits carry {@link SKIP_CI}: the pushes of the temporary branch run
 * no workflow.
 */
import { MergeConflictError } from "../local/git/index.js";
import type { Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { forceBranch } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/**
 * The marker of commits that exist only to build another (GitHub skips `push` and `pull_request`
 * workflows whose head commit's message holds it:
 * https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/skipping-workflow-runs).
 */
export const SKIP_CI = "[skip ci]";

/** One commit to replay, as a comparison lists it. */
export interface CommitToReplay {
  sha: Sha;
  parents: { sha: Sha }[];
  commit: { message: string; author: { name?: string; email?: string; date?: string } | null };
}

/** Where a replay stands: the tip written so far and its tree. */
export interface ReplayTip {
  sha: Sha;
  tree: Sha;
}

/**
 * Replays `commits` (oldest first; merge commits skipped) on `onto`, using `temp` as the temporary
 * branch (the caller deletes it).
 * @param asApp write the commits as the App (verified by GitHub), the original author named in a
 *   `Co-authored-by` trailer: for branches that require signed commits
 * @param pullRequest the pull request a conflict is reported for
 * @returns the new tip (`onto` when every change was already there)
 * @throws MergeConflictError naming `pullRequest` when a commit does not apply; the Octokit error otherwise
 */
export async function replayCommits(
  gh: GithubOctokit,
  params: RepoParams,
  onto: ReplayTip,
  commits: readonly CommitToReplay[],
  opts: { temp: string; pullRequest: number; asApp?: boolean; conflictMessage: string },
): Promise<ReplayTip> {
  let tip = onto;
  for (const c of commits) {
    if (c.parents.length !== 1) continue;
    const helper = await gh.rest.git.createCommit({
      ...params,
      message: `yardmaster: rebase helper for ${c.sha} ${SKIP_CI}`,
      tree: tip.tree,
      parents: [c.parents[0]!.sha],
    });
    await forceBranch(gh, params, opts.temp, helper.data.sha);
    let tree: Sha;
    try {
      const merged = await gh.rest.repos.merge({
        ...params,
        base: opts.temp,
        head: c.sha,
        commit_message: `yardmaster: rebase helper ${SKIP_CI}`,
      });
      tree = merged.status === 201 ? merged.data.commit.tree.sha : tip.tree;
    } catch (e) {
      if (githubStatus(e) === 409)
        throw new MergeConflictError(opts.conflictMessage, [], opts.pullRequest, { cause: e });
      throw e;
    }
    if (tree === tip.tree) continue;
    const author = c.commit.author;
    const named = author?.name && author.email ? { name: author.name, email: author.email } : null;
    const written = await gh.rest.git.createCommit({
      ...params,
      message:
        opts.asApp && named
          ? `${c.commit.message.trimEnd()}\n\nCo-authored-by: ${named.name} <${named.email}>`
          : c.commit.message,
      tree,
      parents: [tip.sha],
      ...(!opts.asApp && named ? { author: { ...named, ...(author?.date ? { date: author.date } : {}) } } : {}),
    });
    tip = { sha: written.data.sha, tree };
  }
  return tip;
}
