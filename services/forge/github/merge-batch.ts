/**
 * Landing a tested batch (ForgePort.mergePullRequests; docs/domain.md §3.6; docs/github.md
 * "Landing a batch"). The base branch's landing rules are read (landing-rules.ts, cached a
 * minute by the forge) and the landing is planned before anything is written (landing-plan.ts):
 * - "pulls": one pull request at a time through GitHub's merge API (merge-pull.ts), each guarded by
 *   its tested head SHA, after the base was checked to be at `expectedBaseSha`; the base's
 *   intermediate tips exist briefly, and a failure part-way leaves the pull requests before it
 *   merged (the error says which). A pull request's required check posted by the App itself (the
 *   queue's summary check) is concluded first (own-checks.ts);
 * - "through-pull": the batch's pull request, whose head is the tested commit (land-through-pull.ts);
 * - "push": the base moved to the tested commit (land-by-push.ts).
 * A merge performed again (resumed after a crash, docs/reliability.md) goes on: for "pulls", when
 * the base is no longer at `expectedBaseSha`, the pull requests the App itself merged already count
 * as merged with their real merge commits, and merging goes on from the first one still open,
 * provided the base is where those merges left it; the other paths find their landing done.
 */
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { MergeConflictError } from "../local/git/index.js";
import { ForgeError, MergeRefusedError, type BatchMergeRequest, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { landByPush } from "./land-by-push.js";
import { landThroughPull, type ThroughPullEnv } from "./land-through-pull.js";
import type { LandingRules } from "./landing-rules.js";
import { planLanding, type BatchMergeResult } from "./landing-plan.js";
import { mergeThroughApi } from "./merge-pull.js";
import { concludeOwnRequiredChecks } from "./own-checks.js";
import { branchSha } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** What a landing needs besides the client: the branch's rules, the App's identity, waits and a log. */
export interface LandingEnv extends ThroughPullEnv {
  /** The landing rules of a base branch (cached by the caller). */
  rules(base: string): Promise<LandingRules>;
  /** Drops the cached rules of a base branch (after GitHub refused a landing: a setting may have changed). */
  forgetRules(base: string): void;
}

function partial(e: unknown, merged: number[]): unknown {
  if (merged.length === 0 || !(e instanceof ForgeError)) return e;
  const note = ` (already merged before it: ${merged.map((n) => `#${n}`).join(", ")})`;
  if (e instanceof MergeConflictError)
    return new MergeConflictError(e.message + note, e.paths, e.pullRequest, { cause: e.cause });
  if (e instanceof MergeRefusedError)
    return new MergeRefusedError(e.refusal, e.message + note, e.pullRequest, { cause: e.cause });
  return new ForgeError(e.kind, e.message + note, e.retryAfterMs, { cause: e.cause });
}

const moved = (base: string, expected: Sha, found: Sha) =>
  new ForgeError("conflict", `branch ${base} moved: expected ${expected}, found ${found}`);

/**
 * Lands the batch.
 * @returns the base's new tip and, per pull request, its merge commit (merge, squash), last
 *   replayed commit (rebase), head (fast-forward) or the batch's landing commit (through its pull request)
 * @throws ForgeError invalid for an empty batch or a repeated pull request; conflict when the base
 *   moved (other than by this batch's own merges); MergeConflictError naming the pull request that
 *   does not apply; MergeRefusedError when GitHub's rules refuse (the message lists the pull
 *   requests merged before a failure)
 */
export async function mergeBatch(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeRequest,
  env: LandingEnv,
): Promise<BatchMergeResult> {
  if (input.pulls.length === 0) throw new ForgeError("invalid", "pulls: at least one pull request to merge");
  if (new Set(input.pulls.map((p) => p.number)).size !== input.pulls.length)
    throw new ForgeError("invalid", "pulls: a pull request appears twice");
  const rules = await env.rules(input.base);
  try {
    const plan = planLanding(input, rules);
    if (plan.path === "push") return await landByPush(gh, params, input, { ...env.own, checks: rules.push.checks });
    if (plan.path === "through-pull") return await landThroughPull(gh, params, input, { ...plan, rules }, env);
    return await mergeOneByOne(gh, params, input, { method: plan.method, rules }, env);
  } catch (e) {
    if (e instanceof MergeRefusedError && e.refusal === "protection") env.forgetRules(input.base);
    throw e;
  }
}

async function mergeOneByOne(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeRequest,
  plan: { method: "merge" | "squash" | "rebase"; rules: LandingRules },
  env: LandingEnv,
): Promise<BatchMergeResult> {
  const current = await branchSha(gh, params, input.base);
  const mergeCommits: Record<number, Sha> = {};
  const merged: number[] = [];
  let tip = input.expectedBaseSha;
  let todo = input.pulls;
  if (current !== input.expectedBaseSha) {
    // Not where the batch was tested: a resumed merge finds what the App merged already, in order.
    for (const pull of input.pulls) {
      const landed = await mergedByApp(gh, params, pull.number, env.bot);
      if (landed === null) break;
      mergeCommits[pull.number] = landed;
      tip = landed;
      merged.push(pull.number);
    }
    todo = input.pulls.slice(merged.length);
    if (current !== tip) throw moved(input.base, tip, current);
  }
  for (const [i, pull] of todo.entries()) {
    if (i > 0 || merged.length > 0) await failpoint(FAILPOINT_NAMES.githubBetweenPulls);
    try {
      await concludeOwnRequiredChecks(gh, params, pull.headSha, plan.rules.merge.checks, env.own);
      tip = await mergeThroughApi(
        gh,
        params,
        pull.number,
        { method: plan.method, sha: pull.headSha, commitTitle: pull.commitTitle, commitMessage: pull.commitMessage },
        env,
      );
    } catch (e) {
      throw partial(e, merged);
    }
    mergeCommits[pull.number] = tip;
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
