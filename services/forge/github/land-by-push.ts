/**
 * Landing a batch by moving the base to the tested commit (`merge_method: fast-forward`; docs/github.md
 * "Landing a batch"), as bors does: `PATCH .../git/refs/heads/{base}` with `force: false` to the
 * check's commit, so the base holds exactly the tree CI tested (the App's own required checks
 * concluded on it first, own-checks.ts). GitHub marks each pull request whose
 * head the base now contains as merged; one whose commits were replayed (a linear check branch) is
 * closed by the landing with a comment naming the commit (landed-pulls.ts).
 * Resumed after a crash, it finds the base already at the tested commit and only closes what is still open.
 * GitHub's refusal of the move (protection, rules: 422, 409 or 403 other than "not a fast
 * forward") is a {@link MergeRefusedError} protection with GitHub's message.
 */
import { ForgeError, MergeRefusedError, type BatchMergeRequest, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus, rateLimitWaitMs } from "./errors.js";
import type { BatchMergeResult } from "./landing-plan.js";
import { closeLandedPulls, contains } from "./landed-pulls.js";
import type { RequiredCheck } from "./landing-rules.js";
import { concludeOwnRequiredChecks } from "./own-checks.js";
import { branchSha, checkBranchName } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/**
 * The port error for GitHub's refusal to move a protected branch; null when `e` is not one.
 * A rate limit, "not a fast forward" or a missing object are not refusals of the rules.
 */
export function pushRefusal(e: unknown, branch: string): ForgeError | null {
  const status = githubStatus(e);
  if (status === null || ![403, 409, 422].includes(status) || rateLimitWaitMs(e, Date.now()) !== null) return null;
  const message = githubMessage(e);
  if (/not a fast.?forward|does not exist|object does not exist/i.test(message)) return null;
  return new MergeRefusedError("protection", `GitHub refused to move ${branch}: ${message}`, null, { cause: e });
}

/**
 * Moves `input.base` from `input.expectedBaseSha` to the tested commit.
 * @returns the new tip (the tested commit) and, per pull request, its head
 * @throws ForgeError invalid without `checkSha`; conflict when the base is elsewhere or the tested
 *   commit does not descend from it; MergeRefusedError protection when GitHub's rules refuse the move
 */
export async function landByPush(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeRequest,
  own: { checks: readonly RequiredCheck[]; appId: number; names: readonly string[] },
): Promise<BatchMergeResult> {
  const target = input.checkSha;
  if (target === undefined) throw new ForgeError("invalid", "checkSha: fast-forward needs the tested commit");
  checkBranchName(input.base);
  const heads = Object.fromEntries(input.pulls.map((p) => [p.number, p.headSha])) as Record<number, Sha>;
  const landed = async (): Promise<BatchMergeResult> => {
    // Replayed commits (a linear check branch): GitHub cannot attribute them to their pull requests.
    const apart: number[] = [];
    for (const p of input.pulls) if (!(await contains(gh, params, target, p.headSha))) apart.push(p.number);
    await closeLandedPulls(gh, params, apart, target, () => `on ${input.base} by a fast-forward`);
    return { newBaseSha: target, mergeCommits: heads };
  };
  const current = await branchSha(gh, params, input.base);
  if (current === target) return landed();
  if (current !== input.expectedBaseSha)
    throw new ForgeError("conflict", `branch ${input.base} moved: expected ${input.expectedBaseSha}, found ${current}`);
  await concludeOwnRequiredChecks(gh, params, target, own.checks, own);
  try {
    await gh.rest.git.updateRef({ ...params, ref: `heads/${input.base}`, sha: target, force: false });
  } catch (e) {
    const refused = pushRefusal(e, input.base);
    if (refused) throw refused;
    if (githubStatus(e) === 422 && /not a fast.?forward/i.test(githubMessage(e)))
      throw new ForgeError("conflict", `the tested commit ${target} does not descend from ${input.base}`, undefined, {
        cause: e,
      });
    throw e;
  }
  return landed();
}
