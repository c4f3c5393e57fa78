/**
 * The local forge's side of {@link WorkflowActionsPort} (docs/workflow-automation.md): the actions
 * of `pull_request_rules` on real git and PostgreSQL rows, each in a repository write as the bot,
 * each emitting the event a GitHub webhook would map to. The local forge has no teams: a review
 * request from a team is refused (invalid), as GitHub refuses an unknown team.
 */
import { ForgeError, type Sha, type WorkflowActionsPort } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import { cherryPickCommits, commitsToReplay, findBranchSha, getBranchSha, setBranch, squashHead } from "./git/index.js";
import { readPull } from "./core.js";
import { recordBranchMove } from "./branch-moves.js";
import { declaredChecks, requestChecks, type CiSignals } from "./ci-requests.js";
import { openPull, reviewPull } from "./pull-actions.js";
import type { WriteContext } from "./write-context.js";

/** Runs `fn` in a repository write described by `what` (port.ts's `write`). */
type Write = <T>(repo: string, what: string, fn: (ctx: WriteContext) => Promise<T>) => Promise<T>;

async function openPullOf(ctx: WriteContext, number: number): Promise<store.PullRequestRow> {
  const pull = await readPull(ctx.client, ctx.repo, number);
  if (pull.state !== "open") throw new ForgeError("invalid", `pull request #${number} is ${pull.state}`);
  return pull;
}

/** Builds the workflow actions of the local forge's port. */
export function localWorkflowActions(write: Write, signals: CiSignals): WorkflowActionsPort {
  return {
    setAssignees: (repo, number, input) =>
      write(repo, `assigning #${number}`, async (ctx) => {
        const pull = await readPull(ctx.client, ctx.repo, number);
        let changed = false;
        for (const login of input.add)
          changed = (await store.addAssignee(ctx.client, pull.id, (await ctx.user(login)).id)) || changed;
        for (const login of input.remove) changed = (await store.removeAssignee(ctx.client, pull.id, login)) || changed;
        if (changed) {
          await store.touchPullRequest(ctx.client, pull.id, ctx.now);
          ctx.emit({ kind: "pull_request_labeled", repo: ctx.repo.fullName, number });
        }
      }),

    requestReviews: (repo, number, input) =>
      write(repo, `requesting reviews on #${number}`, async (ctx) => {
        if (input.teams.length > 0)
          throw new ForgeError("invalid", `the local forge has no teams (${input.teams.join(", ")})`);
        const pull = await openPullOf(ctx, number);
        let changed = false;
        for (const login of input.users) {
          if (login.toLowerCase() === pull.author.login.toLowerCase())
            throw new ForgeError("invalid", `review cannot be requested from the author ${login}`);
          changed = (await store.requestReviewer(ctx.client, pull.id, (await ctx.user(login)).id)) || changed;
        }
        if (changed) ctx.emit({ kind: "pull_request_labeled", repo: ctx.repo.fullName, number });
      }),

    submitReview: (repo, number, input) =>
      write(repo, `reviewing #${number}`, async (ctx) =>
        reviewPull(ctx, number, { ...input, author: await ctx.bot() }),
      ),

    dismissReviews: (repo, number, input) =>
      write(repo, `dismissing reviews of #${number}`, async (ctx) => {
        const pull = await readPull(ctx.client, ctx.repo, number);
        const users = await store.dismissReviewsInStates(ctx.client, pull.id, input.states);
        if (users.length > 0) ctx.emit({ kind: "pull_request_reviewed", repo: ctx.repo.fullName, number });
        return users;
      }),

    setDraft: (repo, number, draft) =>
      write(repo, `${draft ? "converting #" : "marking ready #"}${number}`, async (ctx) => {
        const pull = await openPullOf(ctx, number);
        if (await store.setPullRequestDraft(ctx.client, pull.id, draft, ctx.now))
          ctx.emit({ kind: "pull_request_edited", repo: ctx.repo.fullName, number });
      }),

    squashPullRequest: (repo, number, input) =>
      write(repo, `squashing #${number}`, async (ctx) => {
        const pull = await openPullOf(ctx, number);
        const base = await getBranchSha(ctx.git, pull.baseBranch);
        const own = await commitsToReplay(ctx.git, base, pull.headSha);
        if (own.length === 0) return pull.headSha;
        const after = await squashHead(ctx.git, {
          base,
          head: pull.headSha,
          message: input.message,
          firstCommit: own[0],
          date: ctx.now,
        });
        if (after === pull.headSha) return after;
        await setBranch(ctx.git, pull.headBranch, after, { expectedOldSha: pull.headSha });
        await recordBranchMove(ctx, signals, {
          branch: pull.headBranch,
          before: pull.headSha,
          after,
          by: await ctx.bot(),
        });
        return after;
      }),

    cherryPick: (repo, input) =>
      write(repo, `cherry-picking onto ${input.onto}`, async (ctx) => {
        const onto = await findBranchSha(ctx.git, input.onto);
        if (onto === null) throw new ForgeError("not_found", `no branch "${input.onto}" in ${ctx.repo.fullName}`);
        const picked = await cherryPickCommits(ctx.git, onto, input.commits, ctx.now, input.allowConflicts);
        const before = await findBranchSha(ctx.git, input.branch);
        await setBranch(ctx.git, input.branch, picked.tip, { expectedOldSha: before });
        await recordBranchMove(ctx, signals, { branch: input.branch, before, after: picked.tip, by: await ctx.bot() });
        return { sha: picked.tip as Sha, conflicts: picked.conflicts };
      }),

    createPullRequest: (repo, input) =>
      write(repo, `opening a pull request from ${input.head}`, async (ctx) =>
        openPull(ctx, signals, { ...input, author: await ctx.bot(), draft: false }),
      ),

    dispatchWorkflow: (repo, input) =>
      write(repo, `running ${input.workflow} at ${input.ref}`, async (ctx) => {
        const sha = (await findBranchSha(ctx.git, input.ref)) ?? input.ref;
        const checks = await declaredChecks(ctx.git, sha);
        if (!checks.includes(input.workflow))
          throw new ForgeError("not_found", `.yardmaster/ci.yml at ${input.ref} declares no check "${input.workflow}"`);
        await requestChecks(ctx, signals, { sha, branch: null, reason: `workflow ${input.workflow}`, rerun: true });
      }),
  };
}
