/**
 * Landing a batch through the pull request it was checked on (docs/github.md "Landing a batch"):
 * `merge-batch`, and any method on a branch that requires branches to be up to date before merging
 * when the App may not bypass it. The batch's draft pull request has the tested commit as its head
 * and its CI ran there, so merging it with `PUT .../pulls/{draft}/merge` (`sha` = the tested commit)
 * lands exactly the tree CI tested, through a pull request, without a direct write to the base:
 * 1. each pull request of the batch is read: its head must still be the tested one (else
 *    {@link MergeRefusedError} head_moved naming it: its new commits were never tested);
 * 2. the base must be where the batch expects it, and the tested commit must contain it (GitHub
 *    refuses a head that is behind: the batch was checked on an older tip, which happens to the
 *    batches checked on top of another once that one lands): else MergeRefusedError stale_check,
 *    and the queue checks the batch again on the current tip;
 * 3. a draft is marked ready for review (GraphQL `markPullRequestReadyForReview`: GitHub does not
 *    merge drafts), the App's own required checks are concluded (own-checks.ts), and it is merged;
 * 4. with `merge`, GitHub marks every pull request of the batch merged (their heads are in the
 *    merge); with `squash` or `rebase` they are closed with a comment naming the commit
 *    (landed-pulls.ts).
 * Resumed after a crash, it finds the batch's pull request merged by the App and only finishes step 4.
 */
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { ForgeError, MergeRefusedError, type BatchMergeRequest, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { LandingRules } from "./landing-rules.js";
import { closeLandedPulls, contains } from "./landed-pulls.js";
import type { BatchMergeResult } from "./landing-plan.js";
import { mergeThroughApi, type MergeEnv } from "./merge-pull.js";
import { concludeOwnRequiredChecks } from "./own-checks.js";
import { branchSha } from "./refs.js";
import type { RepoParams } from "./repo-name.js";
import { READY_MUTATION } from "./workflow-actions.js";

/** What landing through the batch's pull request needs besides the client. */
export interface ThroughPullEnv extends MergeEnv {
  bot: string;
  own: { appId: number; names: readonly string[] };
}

/** The commit title and message of the batch's landing (the pull requests' own for a batch of one). */
function landingMessage(
  input: BatchMergeRequest,
  titles: Map<number, string>,
): { commitTitle: string; commitMessage: string } {
  if (input.pulls.length === 1) {
    const p = input.pulls[0]!;
    return {
      commitTitle: p.commitTitle ?? `${titles.get(p.number)} (#${p.number})`,
      commitMessage: p.commitMessage ?? "",
    };
  }
  return {
    commitTitle: `Merge queue: ${input.pulls.map((p) => `#${p.number}`).join(", ")} (#${input.checkPullRequest})`,
    commitMessage: input.pulls.map((p) => `* ${titles.get(p.number)} (#${p.number})`).join("\n"),
  };
}

/**
 * Lands `input` by merging its check pull request with `method`.
 * @returns the merge commit (the base's new tip) for every pull request
 * @throws ForgeError invalid without `checkPullRequest`/`checkSha`; conflict when the base moved;
 *   MergeRefusedError head_moved, stale_check or protection (see the file header)
 */
export async function landThroughPull(
  gh: GithubOctokit,
  params: RepoParams,
  input: BatchMergeRequest,
  plan: { method: "merge" | "squash" | "rebase"; rules: LandingRules },
  env: ThroughPullEnv,
): Promise<BatchMergeResult> {
  const number = input.checkPullRequest,
    tested = input.checkSha;
  if (number === undefined || tested === undefined)
    throw new ForgeError("invalid", "checkPullRequest, checkSha: landing through the batch's pull request needs both");
  const all = (sha: Sha) => Object.fromEntries(input.pulls.map((p) => [p.number, sha])) as Record<number, Sha>;
  const how = (n: number) => {
    const others = input.pulls.filter((p) => p.number !== n).map((p) => `#${p.number}`);
    return `through #${number}${others.length ? ` with ${others.join(", ")}` : ""}`;
  };
  const finish = async (sha: Sha) => {
    if (plan.method !== "merge")
      await closeLandedPulls(
        gh,
        params,
        input.pulls.map((p) => p.number),
        sha,
        how,
      );
    return { newBaseSha: sha, mergeCommits: all(sha) };
  };

  const { data: check } = await gh.rest.pulls.get({ ...params, pull_number: number });
  if (check.merged && check.merge_commit_sha) {
    if (check.merged_by?.login !== env.bot)
      throw new ForgeError("conflict", `the batch's pull request #${number} was merged by ${check.merged_by?.login}`);
    return finish(check.merge_commit_sha);
  }
  if (check.state !== "open" || check.head.sha !== tested)
    throw new MergeRefusedError(
      "stale_check",
      `the batch's pull request #${number} is no longer the tested ${tested}`,
      null,
    );
  const titles = new Map<number, string>();
  for (const p of input.pulls) {
    const { data } = await gh.rest.pulls.get({ ...params, pull_number: p.number });
    if (data.head.sha !== p.headSha)
      throw new MergeRefusedError(
        "head_moved",
        `pull request #${p.number} head is ${data.head.sha}, not the tested ${p.headSha}`,
        p.number,
      );
    titles.set(p.number, data.title);
  }
  const current = await branchSha(gh, params, input.base);
  if (current !== input.expectedBaseSha)
    throw new ForgeError("conflict", `branch ${input.base} moved: expected ${input.expectedBaseSha}, found ${current}`);
  if (plan.rules.merge.strict && !(await contains(gh, params, tested, current)))
    throw new MergeRefusedError(
      "stale_check",
      `${input.base} requires branches to be up to date before merging, and the batch was checked before ${current} landed`,
      null,
    );
  if (check.draft) await gh.graphql(READY_MUTATION, { id: check.node_id });
  await concludeOwnRequiredChecks(gh, params, tested, plan.rules.merge.checks, env.own);
  let sha: Sha;
  try {
    sha = await mergeThroughApi(
      gh,
      params,
      number,
      { method: plan.method, sha: tested, ...landingMessage(input, titles) },
      env,
    );
  } catch (e) {
    // The batch's own pull request moved: its check no longer describes it.
    if (e instanceof MergeRefusedError && e.refusal === "head_moved")
      throw new MergeRefusedError("stale_check", e.message, null, { cause: e });
    if (e instanceof MergeRefusedError) throw new MergeRefusedError(e.refusal, e.message, null, { cause: e });
    throw e;
  }
  await failpoint(FAILPOINT_NAMES.githubThroughPullMerged);
  return finish(sha);
}
