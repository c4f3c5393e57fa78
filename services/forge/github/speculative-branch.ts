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
 * 4. the final branch is created or force-moved to it, and the temporary branch deleted, both in
 *    one `updateRefs` mutation with the batch's notes refs when asked (branch-finish.ts; with REST,
 *    a request each, where GitHub refuses it).
 * A batch behind another starts from the other's build instead of the base (step 1 at the other's
 * last `[skip ci]` merge; step 2 for its own pull requests only; speculative-chains.ts says why the
 * tree is the same).
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
import type { GithubLogger, GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { checkBranchName, forceBranch, removeBranch } from "./refs.js";
import { type BranchNotes, finishBranch } from "./branch-finish.js";
import type { RepositoryIdOf } from "./ref-updates.js";
import type { RepoParams } from "./repo-name.js";
import { replayCommits, SKIP_CI, type ReplayTip } from "./replay-commits.js";
import type { ChainStart, SpeculativeChains } from "./speculative-chains.js";

const SILENT: GithubLogger = { debug() {}, info() {}, warn() {}, error() {} };

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

/** What a build made: the tested commit, and where a later batch's build may start (null: nothing merged). */
interface Built {
  tip: Sha;
  start: Omit<ChainStart, "count"> | null;
}

async function mergedTree(
  gh: GithubOctokit,
  params: RepoParams,
  temp: string,
  branch: string,
  baseSha: Sha,
  pulls: readonly { number: number; headSha: Sha }[],
  from: ChainStart | null,
): Promise<Built> {
  let tree: Sha | null = from?.tree ?? null;
  let last: Sha | null = from?.sha ?? null;
  const parents: Sha[] = [...(from?.merged ?? [])];
  for (const pull of pulls.slice(from?.count ?? 0)) {
    try {
      const res = await gh.rest.repos.merge({
        ...params,
        base: temp,
        head: pull.headSha,
        commit_message: `Merge of #${pull.number} ${SKIP_CI}`,
      });
      if (res.status === 201) {
        tree = res.data.commit.tree.sha;
        last = res.data.sha;
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
  if (tree === null || last === null) return { tip: baseSha, start: null };
  const merged = pulls.filter((p) => parents.includes(p.headSha)).map((p) => `#${p.number}`);
  const { data } = await gh.rest.git.createCommit({
    ...params,
    message: `Merge of ${merged.join(", ")}`,
    tree,
    parents: [baseSha, ...parents],
  });
  return { tip: data.sha, start: { sha: last, tree, merged: parents } };
}

async function replayedTip(
  gh: GithubOctokit,
  params: RepoParams,
  temp: string,
  branch: string,
  baseSha: Sha,
  pulls: readonly { number: number; headSha: Sha }[],
  signed: boolean,
  from: ChainStart | null,
): Promise<Built> {
  let tip: ReplayTip;
  if (from) tip = { sha: from.sha, tree: from.tree };
  else {
    const { data: start } = await gh.rest.git.getCommit({ ...params, commit_sha: baseSha });
    tip = { sha: baseSha, tree: start.tree.sha };
  }
  for (const pull of pulls.slice(from?.count ?? 0)) {
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
  return { tip: tip.sha, start: tip.sha === baseSha ? null : { sha: tip.sha, tree: tip.tree, merged: [] } };
}

/** Where {@link buildSpeculativeBranch} keeps its builds, for the batches behind (speculative-chains.ts). */
export interface ChainMemo {
  chains: SpeculativeChains;
  /** The repository, `owner/name`. */
  repo: string;
  /** The repository's node id, to move the final branch and delete the temporary one in one request. */
  repositoryId?: RepositoryIdOf;
  /** The batch's notes, written with the branch (branch-finish.ts). */
  notes?: BranchNotes;
  /** Where a refusal of the notes is logged. */
  log?: GithubLogger;
}

/**
 * Builds the branch and points `branch` at it. With `memo`, a branch whose pull requests begin
 * with those of a branch built before on the same base (the batch ahead) starts from that build
 * and merges only the rest (speculative-chains.ts): the same tree, fewer requests.
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
  memo?: ChainMemo,
): Promise<Sha> {
  checkBranchName(branch);
  const seen = new Set<number>();
  for (const p of pulls) {
    if (seen.has(p.number))
      throw new ForgeError("invalid", `pull request #${p.number} appears twice in the speculative branch`);
    seen.add(p.number);
  }
  const temp = temporaryBranchOf(branch);
  const from = memo?.chains.longestPrefix(memo.repo, baseSha, shape, pulls) ?? null;
  let finished = false;
  try {
    let built: Built;
    try {
      built = await build(gh, params, { temp, branch, baseSha, pulls, shape, from });
    } catch (e) {
      // The start of a chain GitHub no longer has (a Git object removed): built from the base instead.
      if (from === null || !isMissingObject(e)) throw e;
      memo!.chains.forget(memo!.repo, baseSha, shape, pulls.slice(0, from.count));
      built = await build(gh, params, { temp, branch, baseSha, pulls, shape, from: null });
    }
    // A linear build on a chain that added no commit would share the commit of the batch ahead.
    if (from !== null && built.tip === from.sha)
      built = await build(gh, params, { temp, branch, baseSha, pulls, shape, from: null });
    if (built.start) memo?.chains.remember(memo.repo, baseSha, shape, pulls, built.start);
    await finishBranch(
      gh,
      params,
      { branch, temp, tip: built.tip },
      { repositoryId: memo?.repositoryId, notes: memo?.notes, log: memo?.log ?? SILENT },
    );
    finished = true;
    return built.tip;
  } finally {
    if (!finished) await removeBranch(gh, params, temp).catch(() => {});
  }
}

/** One build of the temporary branch, from the base or from `from`; returns the tested commit. */
async function build(
  gh: GithubOctokit,
  params: RepoParams,
  b: {
    temp: string;
    branch: string;
    baseSha: Sha;
    pulls: readonly { number: number; headSha: Sha }[];
    shape: BuildShape;
    from: ChainStart | null;
  },
): Promise<Built> {
  // A merge build merges into the temporary branch from its start (a `[skip ci]` merge on a chain:
  // creating the branch there runs no workflow); a linear build moves it to each helper commit.
  await forceBranch(gh, params, b.temp, b.shape.linear || b.from === null ? b.baseSha : b.from.sha);
  return b.shape.linear
    ? replayedTip(gh, params, b.temp, b.branch, b.baseSha, b.pulls, b.shape.signed, b.from)
    : mergedTree(gh, params, b.temp, b.branch, b.baseSha, b.pulls, b.from);
}

/**
 * GitHub's answer to a ref created at a commit it does not have (422 "Object does not exist") or
 * a merge into a branch it does not find (404). A build from the base is right whatever the cause.
 */
function isMissingObject(e: unknown): boolean {
  const status = githubStatus(e);
  return status === 422 || status === 404;
}
