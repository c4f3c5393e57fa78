/**
 * The speculative branch of a queue batch on GitHub (docs/domain.md §3.4, ForgePort
 * createSpeculativeBranch; docs/github.md "Speculative branches"). GitHub merges only into a
 * branch, so the tree is built on a temporary branch next to the final one (`.../tmp-<name>`):
 * 1. the temporary branch is created (or force-moved) at the base SHA;
 * 2. each pull request's head SHA is merged into it, in order, with `POST .../merges` (201: a merge
 *    commit, 204: the head was already contained, 409: a merge conflict naming that pull request),
 *    each merge marked `[skip ci]` so that the temporary branch's pushes run no workflow;
 * 3. the commit CI tests is then written with the Git data API (`POST .../git/commits`), not
 *    pushed by a merge: the last merge's tree, the base and every merged head as parents (one
 *    commit, as bors builds its staging commit), message `Merge of #1, #2` without the marker;
 * 4. the final branch is created or force-moved to it, and the temporary branch deleted.
 * So the final branch moves once, to the finished commit (CI that runs on pushes never sees half a
 * batch, and runs on it: the marker is only on commits that are not its tip), a conflict leaves it
 * untouched, and the heads are parents of the tested commit: landing that commit (fast-forward,
 * or merging the batch's pull request) makes GitHub mark the pull requests merged.
 *
 * A **linear** branch replays each pull request's commits instead (replay-commits.ts), for a base
 * that requires a linear history (a fast-forward to a merge commit would be refused) or a batch
 * that lands by rebase; with signed commits required, the replayed commits are written as the App
 * (GitHub signs them) with their author in a `Co-authored-by` trailer.
 */
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { checkBranchName, forceBranch, removeBranch } from "./refs.js";
import type { RepoParams } from "./repo-name.js";
import { replayCommits, SKIP_CI, type ReplayTip } from "./replay-commits.js";

/** The temporary branch a speculative branch is built on: `tmp-` before its last segment. */
export function temporaryBranchOf(branch: string): string {
  const slash = branch.lastIndexOf("/");
  return `${branch.slice(0, slash + 1)}tmp-${branch.slice(slash + 1)}`;
}

/** How to build: linear (replayed commits), and then written as the App (signed). */
export interface BuildShape {
  linear: boolean;
  signed: boolean;
}

async function mergedTree(
  gh: GithubOctokit,
  params: RepoParams,
  temp: string,
  branch: string,
  baseSha: Sha,
  pulls: readonly { number: number; headSha: Sha }[],
): Promise<Sha> {
  let tree: Sha | null = null;
  const parents: Sha[] = [];
  for (const pull of pulls) {
    try {
      const res = await gh.rest.repos.merge({
        ...params,
        base: temp,
        head: pull.headSha,
        commit_message: `Merge of #${pull.number} ${SKIP_CI}`,
      });
      if (res.status === 201) {
        tree = res.data.commit.tree.sha;
        parents.push(pull.headSha);
      }
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
  if (tree === null) return baseSha;
  const merged = pulls.filter((p) => parents.includes(p.headSha)).map((p) => `#${p.number}`);
  const { data } = await gh.rest.git.createCommit({
    ...params,
    message: `Merge of ${merged.join(", ")}`,
    tree,
    parents: [baseSha, ...parents],
  });
  return data.sha;
}

async function replayedTip(
  gh: GithubOctokit,
  params: RepoParams,
  temp: string,
  branch: string,
  baseSha: Sha,
  pulls: readonly { number: number; headSha: Sha }[],
  signed: boolean,
): Promise<Sha> {
  const { data: start } = await gh.rest.git.getCommit({ ...params, commit_sha: baseSha });
  let tip: ReplayTip = { sha: baseSha, tree: start.tree.sha };
  for (const pull of pulls) {
    const { data: cmp } = await gh.rest.repos.compareCommitsWithBasehead({
      ...params,
      basehead: `${baseSha}...${pull.headSha}`,
      per_page: 250,
    });
    if (cmp.ahead_by > cmp.commits.length)
      throw new ForgeError("invalid", `pull request #${pull.number} has more than 250 commits to replay`);
    tip = await replayCommits(gh, params, tip, cmp.commits, {
      temp,
      pullRequest: pull.number,
      asApp: signed,
      conflictMessage: `pull request #${pull.number} does not apply to the speculative branch ${branch}`,
    });
  }
  return tip.sha;
}

/**
 * Builds the branch and points `branch` at it.
 * @returns the branch's new tip (`baseSha` when `pulls` is empty or all contained)
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
  shape: BuildShape = { linear: false, signed: false },
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
    const tip = shape.linear
      ? await replayedTip(gh, params, temp, branch, baseSha, pulls, shape.signed)
      : await mergedTree(gh, params, temp, branch, baseSha, pulls);
    await forceBranch(gh, params, branch, tip);
    return tip;
  } finally {
    await removeBranch(gh, params, temp).catch(() => {});
  }
}
