/**
 * Merging pull requests into their base (ForgePort.mergePullRequest(s); docs/domain.md §3.6,
 * docs/local-forge.md "Merging"). A tested batch moves the base **once**: the git layer builds
 * every commit on the expected base tip, then one compare-and-swap moves the base; the pull
 * requests are marked merged (merge commit, merged by the bot) in the same transaction, and a
 * write that does not commit moves the base back (the ref journal, write-context.ts).
 * "merge-batch" writes one merge commit of the tested check branch instead. A batch whose pull
 * requests the bot merged already (a resume after a crash) answers their merge commits and changes
 * nothing (docs/reliability.md).
 */
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { type BatchMergeRequest, ForgeError, type MergeMethod, type Sha } from "../types.js";
import type { localForgeStore as store } from "../../store/index.js";
import {
  branchRef,
  compareAndSwapRef,
  createMergeCommit,
  findBranchSha,
  getBranchSha,
  isAncestor,
  mergePullRequests,
  resolveCommit,
} from "./git/index.js";
import { readPull } from "./core.js";
import { recordBranchMove } from "./branch-moves.js";
import type { CiSignals } from "./ci-requests.js";
import type { WriteContext } from "./write-context.js";

/**
 * Input of {@link mergeBatch}: ForgePort.mergePullRequests's request, of which the local forge
 * reads these fields. `method` null is the repository's default, which for the local forge is
 * merge (it allows every method); `checkSha`, the tested check branch's tip, is required by
 * merge-batch, and where fast-forward moves the base when given.
 */
export type MergeBatchInput = Pick<BatchMergeRequest, "base" | "expectedBaseSha" | "method" | "pulls" | "checkSha">;

/** What a merge answers: the base's new tip and each pull request's merge commit. */
export interface MergeResult {
  newBaseSha: Sha;
  mergeCommits: Record<number, Sha>;
}

/**
 * Merges the pull requests in order and moves the base once.
 * @returns the new base tip and each pull request's merge commit (see ForgePort); when the bot
 *   merged every pull request of the batch into `base` already, their merge commits and the last
 *   one as the tip, without a change
 * @throws ForgeError conflict when the base is not at expectedBaseSha, a head moved from its
 *   headSha, or a pull request does not apply (MergeConflictError naming it): nothing changes;
 *   invalid for an empty or repeated list, a pull request not open, a draft, another base, or
 *   merge-batch without checkSha; not_found for an unknown pull request
 */
export async function mergeBatch(ctx: WriteContext, signals: CiSignals, input: MergeBatchInput): Promise<MergeResult> {
  if (input.pulls.length === 0) throw new ForgeError("invalid", "pulls must hold at least one pull request to merge");
  const bot = await ctx.bot();
  const found: store.PullRequestRow[] = [];
  for (const p of input.pulls) found.push(await readPull(ctx.client, ctx.repo, p.number));
  const done = alreadyMerged(found, input.base, bot.login);
  if (done !== null) return done;
  const rows: store.PullRequestRow[] = [];
  for (const [i, p] of input.pulls.entries()) {
    const pull = found[i]!;
    if (pull.state !== "open") throw new ForgeError("invalid", `pull request #${p.number} is ${pull.state}`);
    if (pull.draft) throw new ForgeError("invalid", `pull request #${p.number} is a draft`);
    if (pull.baseBranch !== input.base)
      throw new ForgeError("invalid", `pull request #${p.number} targets ${pull.baseBranch}, not ${input.base}`);
    if (pull.headSha !== p.headSha)
      throw new ForgeError(
        "conflict",
        `head of pull request #${p.number} moved: it is ${pull.headSha}, the tested head was ${p.headSha}`,
      );
    rows.push(pull);
  }
  let previous: Sha;
  let tip: Sha;
  const mergeCommits: Record<number, Sha> = {};
  if (input.method === "merge-batch") {
    ({ previous, tip } = await mergeCheckBranch(ctx, input, rows));
    for (const pull of rows) mergeCommits[pull.number] = tip;
  } else if (input.method === "fast-forward" && input.checkSha !== undefined) {
    // The tested commit itself becomes the base (docs/domain.md §3.6), not each pull request's head.
    ({ previous, tip } = await fastForwardToCheck(ctx, input, rows));
    for (const pull of rows) mergeCommits[pull.number] = pull.headSha;
  } else {
    const method = input.method ?? "merge";
    const outcome = await mergePullRequests(ctx.git, {
      base: input.base,
      expectedBaseSha: input.expectedBaseSha,
      method,
      pulls: input.pulls.map((p, i) => ({
        number: p.number,
        headSha: p.headSha,
        headBranch: rows[i]!.headBranch,
        message: commitMessage(method, rows[i]!, p),
      })),
      date: ctx.now,
    });
    previous = outcome.previousSha;
    tip = outcome.tip;
    for (const merged of outcome.pulls) mergeCommits[merged.number] = merged.mergeCommitSha;
  }
  if (tip !== previous) await failpoint(FAILPOINT_NAMES.localMergeBaseMoved);
  await recordBranchMove(ctx, signals, {
    branch: input.base,
    before: previous,
    after: tip,
    by: bot,
    merged: rows.map((pull) => ({ pull, mergeCommitSha: mergeCommits[pull.number]! })),
  });
  return { newBaseSha: tip, mergeCommits };
}

/** The answer for a batch the bot merged into `base` already (every pull request); null otherwise. */
function alreadyMerged(pulls: store.PullRequestRow[], base: string, bot: string): MergeResult | null {
  const ours = (p: store.PullRequestRow) =>
    p.state === "merged" && p.baseBranch === base && p.mergedBy === bot && p.mergeCommitSha !== null;
  if (!pulls.every(ours)) return null;
  const mergeCommits = Object.fromEntries(pulls.map((p) => [p.number, p.mergeCommitSha!]));
  return { newBaseSha: pulls[pulls.length - 1]!.mergeCommitSha!, mergeCommits };
}

/** Checks that the base is at the expected tip and that `checkSha` descends from it and holds every head. */
async function checkTestedCommit(
  ctx: WriteContext,
  input: MergeBatchInput,
  rows: store.PullRequestRow[],
): Promise<{ expected: Sha; checkSha: Sha }> {
  const [expected, checkSha] = await Promise.all([
    resolveCommit(ctx.git, input.expectedBaseSha),
    resolveCommit(ctx.git, input.checkSha!),
  ]);
  const current = await getBranchSha(ctx.git, input.base);
  if (current !== expected)
    throw new ForgeError("conflict", `branch ${input.base} moved: expected ${expected}, found ${current}`);
  if (!(await isAncestor(ctx.git, expected, checkSha)))
    throw new ForgeError("conflict", `the check branch ${checkSha} was not built on ${expected}`);
  for (const pull of rows) {
    const head = await findBranchSha(ctx.git, pull.headBranch);
    if (head !== pull.headSha)
      throw new ForgeError(
        "conflict",
        `head of pull request #${pull.number} moved: ${pull.headBranch} is at ${head ?? "nothing"}, expected ${pull.headSha}`,
      );
    if (!(await isAncestor(ctx.git, pull.headSha, checkSha)))
      throw new ForgeError("conflict", `the check branch ${checkSha} does not contain pull request #${pull.number}`);
  }
  return { expected, checkSha };
}

/** fast-forward with a tested commit: the base moves to it. */
async function fastForwardToCheck(
  ctx: WriteContext,
  input: MergeBatchInput,
  rows: store.PullRequestRow[],
): Promise<{ previous: Sha; tip: Sha }> {
  const { expected, checkSha } = await checkTestedCommit(ctx, input, rows);
  await compareAndSwapRef(ctx.git, branchRef(input.base), expected, checkSha);
  return { previous: expected, tip: checkSha };
}

/** merge-batch: one merge commit of the tested check branch into the base. */
async function mergeCheckBranch(
  ctx: WriteContext,
  input: MergeBatchInput,
  rows: store.PullRequestRow[],
): Promise<{ previous: Sha; tip: Sha }> {
  if (input.checkSha === undefined)
    throw new ForgeError("invalid", "merge-batch needs checkSha, the tested check branch's tip");
  const { expected, checkSha } = await checkTestedCommit(ctx, input, rows);
  const first = input.pulls[0]!;
  const message =
    first.commitTitle !== undefined
      ? joinMessage(first.commitTitle, first.commitMessage)
      : `Merge queue batch: ${rows.map((p) => `#${p.number}`).join(", ")}\n\n${rows.map((p) => `* #${p.number} ${p.title}`).join("\n")}`;
  const tip = await createMergeCommit(ctx.git, { into: expected, from: checkSha, message, date: ctx.now });
  await compareAndSwapRef(ctx.git, branchRef(input.base), expected, tip);
  return { previous: expected, tip };
}

/** The commit message asked for, GitHub-style defaults filling a missing title; undefined = the git layer's default. */
function commitMessage(
  method: MergeMethod,
  pull: store.PullRequestRow,
  p: { commitTitle?: string; commitMessage?: string },
): string | undefined {
  if (p.commitTitle === undefined && p.commitMessage === undefined) return undefined;
  const title =
    p.commitTitle ??
    (method === "squash"
      ? `${pull.title} (#${pull.number})`
      : `Merge pull request #${pull.number} from ${pull.headBranch}`);
  return joinMessage(title, p.commitMessage);
}

function joinMessage(title: string, body: string | undefined): string {
  return body === undefined || body === "" ? title : `${title}\n\n${body}`;
}
