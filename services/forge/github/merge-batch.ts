/**
 * Merging a tested batch (ForgePort.mergePullRequests; research/domain.md §3.6; docs/github.md
 * "Merging a batch"). GitHub has no atomic multi-pull-request merge, so:
 * - the base must still be at `expectedBaseSha` (read first; conflict otherwise);
 * - merge, squash, rebase, fast-forward: one pull request at a time with merge-pull.ts, each
 *   guarded by its tested head SHA; the base's intermediate tips exist briefly, and a failure
 *   part-way leaves the pull requests before it merged (the error says which);
 * - merge-batch: the tested check branch commit `checkSha` is merged into the base with
 *   `POST .../merges` (one merge commit for the batch); GitHub then marks each pull request merged
 *   itself, as their heads are now in the base.
 */
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

function partial(e: unknown, merged: number[]): unknown {
  if (merged.length === 0 || !(e instanceof ForgeError)) return e;
  const note = ` (already merged before it: ${merged.map((n) => `#${n}`).join(", ")})`;
  if (e instanceof MergeConflictError) return new MergeConflictError(e.message + note, e.paths, e.pullRequest, { cause: e.cause });
  return new ForgeError(e.kind, e.message + note, e.retryAfterMs, { cause: e.cause });
}

/**
 * Merges the batch.
 * @returns the base's new tip and, per pull request, its merge commit (merge, squash), last
 *   replayed commit (rebase), head (fast-forward) or the batch's merge commit (merge-batch)
 * @throws ForgeError invalid for an empty batch, a repeated pull request or merge-batch without
 *   `checkSha`; conflict when the base moved or a head moved; MergeConflictError naming the pull
 *   request that does not apply; the message lists the pull requests merged before a failure
 */
export async function mergeBatch(gh: GithubOctokit, params: RepoParams, input: BatchMergeInput): Promise<{ newBaseSha: Sha; mergeCommits: Record<number, Sha> }> {
  if (input.pulls.length === 0) throw new ForgeError("invalid", "pulls: at least one pull request to merge");
  if (new Set(input.pulls.map((p) => p.number)).size !== input.pulls.length) throw new ForgeError("invalid", "pulls: a pull request appears twice");
  const current = await branchSha(gh, params, input.base);
  if (current !== input.expectedBaseSha) throw new ForgeError("conflict", `branch ${input.base} moved: expected ${input.expectedBaseSha}, found ${current}`);

  if (input.method === "merge-batch") {
    if (!input.checkSha) throw new ForgeError("invalid", "checkSha: required to merge a batch with merge-batch");
    const numbers = input.pulls.map((p) => `#${p.number}`).join(", ");
    let sha = current;
    try {
      const res = await gh.rest.repos.merge({ ...params, base: input.base, head: input.checkSha, commit_message: `Merge of ${numbers}` });
      if (res.status === 201) sha = res.data.sha;
    } catch (e) {
      if (githubStatus(e) === 409) throw new MergeConflictError(`the batch ${numbers} does not merge into ${input.base}`, [], input.pulls[0].number, { cause: e });
      throw e;
    }
    return { newBaseSha: sha, mergeCommits: Object.fromEntries(input.pulls.map((p) => [p.number, sha])) };
  }

  const method = input.method;
  let tip = current;
  const mergeCommits: Record<number, Sha> = {};
  const merged: number[] = [];
  for (const pull of input.pulls) {
    try {
      tip = await mergePull(gh, params, pull.number, { method, expectedHeadSha: pull.headSha, commitTitle: pull.commitTitle, commitMessage: pull.commitMessage });
    } catch (e) {
      throw partial(e, merged);
    }
    mergeCommits[pull.number] = method === "fast-forward" ? pull.headSha : tip;
    merged.push(pull.number);
  }
  return { newBaseSha: tip, mergeCommits };
}
