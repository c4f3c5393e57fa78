/**
 * Merging a tested batch (ForgePort.mergePullRequests; docs/domain.md §3.6; docs/github.md
 * "Merging a batch"). GitHub has no atomic multi-pull-request merge, so:
 * - the base must still be at `expectedBaseSha` (read first; conflict otherwise);
 * - merge, squash, rebase, fast-forward: one pull request at a time with merge-pull.ts, each
 *   guarded by its tested head SHA; the base's intermediate tips exist briefly, and a failure
 *   part-way leaves the pull requests before it merged (the error says which);
 * - merge-batch: the tested check branch commit `checkSha` is merged into the base with
 *   `POST .../merges` (one merge commit for the batch); GitHub then marks each pull request merged
 *   itself, as their heads are now in the base.
 * A merge performed again (a replay after a crash, docs/reliability.md) resumes: when the base is
 * no longer at `expectedBaseSha`, the pull requests the App itself merged already count as merged
 * with their real merge commits, and merging goes on from the first one still open, provided the
 * base is where those merges left it; for merge-batch, a base that holds `checkSha` through the
 * batch's merge commit is the batch merged.
 */
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, type MergeMethod, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import { mergePull } from "./merge-pull.js";
import { branchSha } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** The batch to merge, as the port gives it. */
export interface BatchMergeInput {
  base: string;
  expectedBaseSha: Sha;
  method: MergeMethod | "merge-batch";
  pulls: { number: number; headSha: Sha; commitTitle?: string; commitMessage?: string }[];
  checkSha?: Sha;
}

/** What a batch merge answers: the base's new tip and each pull request's merge commit. */
export interface BatchMergeResult {
  newBaseSha: Sha;
  mergeCommits: Record<number, Sha>;
}

function partial(e: unknown, merged: number[]): unknown {
  if (merged.length === 0 || !(e instanceof ForgeError)) return e;
  const note = ` (already merged before it: ${merged.map((n) => `#${n}`).join(", ")})`;
  if (e instanceof MergeConflictError)
    return new MergeConflictError(e.message + note, e.paths, e.pullRequest, { cause: e.cause });
  return new ForgeError(e.kind, e.message + note, e.retryAfterMs, { cause: e.cause });
}

const moved = (base: string, expected: Sha, found: Sha) =>
  new ForgeError("conflict", `branch ${base} moved: expected ${expected}, found ${found}`);

/**
 * Merges the batch.
 * @param bot the App's login (`<slug>[bot]`): pull requests it merged count as merged on a replay
 * @returns the base's new tip and, per pull request, its merge commit (merge, squash), last
 *   replayed commit (rebase), head (fast-forward) or the batch's merge commit (merge-batch)
 * @throws ForgeError invalid for an empty batch, a repeated pull request or merge-batch without
 *   `checkSha`; conflict when the base moved (other than by this batch's own merges) or a head
 *   moved; MergeConflictError naming the pull request that does not apply; the message lists the
 *   pull requests merged before a failure
 */
export async function mergeBatch(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeInput,
  bot: string,
): Promise<BatchMergeResult> {
  if (input.pulls.length === 0) throw new ForgeError("invalid", "pulls: at least one pull request to merge");
  if (new Set(input.pulls.map((p) => p.number)).size !== input.pulls.length)
    throw new ForgeError("invalid", "pulls: a pull request appears twice");
  if (input.method === "merge-batch" && !input.checkSha) {
    throw new ForgeError("invalid", "checkSha: required to merge a batch with merge-batch");
  }
  const current = await branchSha(gh, params, input.base);
  if (input.method === "merge-batch") {
    if (current === input.expectedBaseSha) return mergeCheckBranch(gh, params, input, current);
    const landed = await batchMergeCommit(gh, params, input.checkSha!, input.base);
    if (landed === null) throw moved(input.base, input.expectedBaseSha, current);
    return { newBaseSha: landed, mergeCommits: Object.fromEntries(input.pulls.map((p) => [p.number, landed])) };
  }
  const method = input.method;
  const mergeCommits: Record<number, Sha> = {};
  const merged: number[] = [];
  let tip = input.expectedBaseSha;
  let todo = input.pulls;
  if (current !== input.expectedBaseSha) {
    // Not where the batch was tested: a replay finds what the App merged already, in order.
    for (const pull of input.pulls) {
      const landed = await mergedByApp(gh, params, pull.number, bot);
      if (landed === null) break;
      mergeCommits[pull.number] = method === "fast-forward" ? pull.headSha : landed;
      tip = mergeCommits[pull.number]!;
      merged.push(pull.number);
    }
    todo = input.pulls.slice(merged.length);
    if (current !== tip) throw moved(input.base, tip, current);
  }
  for (const [i, pull] of todo.entries()) {
    if (i > 0 || merged.length > 0) await failpoint(FAILPOINT_NAMES.githubBetweenPulls);
    try {
      tip = await mergePull(gh, params, pull.number, {
        method,
        expectedHeadSha: pull.headSha,
        commitTitle: pull.commitTitle,
        commitMessage: pull.commitMessage,
      });
    } catch (e) {
      throw partial(e, merged);
    }
    mergeCommits[pull.number] = method === "fast-forward" ? pull.headSha : tip;
    merged.push(pull.number);
  }
  return { newBaseSha: tip, mergeCommits };
}

/** The merge commit of a pull request the App merged; null when it is not merged, or merged by someone else. */
async function mergedByApp(gh: GithubOctokit, params: RepoParams, number: number, bot: string): Promise<Sha | null> {
  const { data } = await gh.rest.pulls.get({ ...params, pull_number: number });
  if (!data.merged || data.merge_commit_sha === null) return null;
  return data.merged_by?.login === bot ? data.merge_commit_sha : null;
}

/** merge-batch: one merge commit of the check branch into the base. */
async function mergeCheckBranch(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeInput,
  current: Sha,
): Promise<BatchMergeResult> {
  const numbers = input.pulls.map((p) => `#${p.number}`).join(", ");
  let sha = current;
  try {
    const message = `Merge of ${numbers}`;
    const res = await gh.rest.repos.merge({
      ...params,
      base: input.base,
      head: input.checkSha!,
      commit_message: message,
    });
    if (res.status === 201) sha = res.data.sha;
  } catch (e) {
    if (githubStatus(e) === 409) {
      const what = `the batch ${numbers} does not merge into ${input.base}`;
      throw new MergeConflictError(what, [], input.pulls[0]!.number, { cause: e });
    }
    throw e;
  }
  return { newBaseSha: sha, mergeCommits: Object.fromEntries(input.pulls.map((p) => [p.number, sha])) };
}

/**
 * The commit of `base` whose parent is the check branch `checkSha` (the batch's merge commit), when
 * the base holds it; null otherwise (`GET .../compare/{checkSha}...{base}`).
 */
async function batchMergeCommit(
  gh: GithubOctokit,
  params: RepoParams,
  checkSha: Sha,
  base: string,
): Promise<Sha | null> {
  const { data } = await gh.rest.repos.compareCommitsWithBasehead({ ...params, basehead: `${checkSha}...${base}` });
  if (data.status !== "ahead") return null;
  return data.commits.find((c) => c.parents.some((p) => p.sha === checkSha))?.sha ?? null;
}
