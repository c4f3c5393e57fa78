/**
 * The GitHub test double's pull request writes: create (422 for a draft where drafts are not
 * offered), update, merge (405 "not mergeable", 409 "Head branch was modified") and branch update
 * (answered 202, done in the background as GitHub does), and the marking of pull requests merged
 * when their base branch comes to contain their head
 * (https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request).
 */
import {
  applyPull,
  compareAndSwapRef,
  createMergeCommit,
  isAncestor,
  isMergeConflict,
  readRef,
} from "../../../../services/forge/local/git/index.js";
import { DOCS, notFound, unprocessable, type Handler, type HandlerContext } from "./double-answers.js";
import { pullAnswer } from "./double-pull-answer.js";

/** Marks open pull requests into `branch` whose head the branch now contains as merged (GitHub does). */
export async function markContainedPullsMerged(ctx: HandlerContext, branch: string, tip: string): Promise<void> {
  for (const p of ctx.repo.pulls.values()) {
    if (p.state !== "open" || p.base !== branch) continue;
    const head = await ctx.repo.headSha(p);
    if (await isAncestor(ctx.repo.git, head, tip))
      Object.assign(p, {
        state: "closed",
        mergedAt: ctx.double.now(),
        closedAt: ctx.double.now(),
        mergeCommitSha: head,
        mergedBy: `${ctx.double.appSlug}[bot]`,
      });
  }
}
export const pullWriteHandlers: Record<string, Handler> = {
  "pulls/create": async (ctx) => {
    const { head, base, title, body, draft } = ctx.body as {
      head: string;
      base: string;
      title: string;
      body?: string;
      draft?: boolean;
    };
    if (draft && !ctx.repo.allowDrafts)
      return unprocessable("Draft pull requests are not supported in this repository.");
    if (!(await readRef(ctx.repo.git, `refs/heads/${head}`)) || !(await readRef(ctx.repo.git, `refs/heads/${base}`)))
      return unprocessable("Validation Failed");
    const p = await ctx.repo.openPull({
      head,
      base,
      title,
      body: body ?? "",
      draft: draft ?? false,
      author: { login: `${ctx.double.appSlug}[bot]`, id: 99 },
    });
    return pullAnswer(ctx.repo, p, 201);
  },

  "pulls/update": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const { title, body, state } = ctx.body as { title?: string; body?: string; state?: "open" | "closed" };
    if (title !== undefined) p.title = title;
    if (body !== undefined) p.body = body;
    if (state === "closed" && p.state === "open") Object.assign(p, { state: "closed", closedAt: ctx.double.now() });
    p.updatedAt = ctx.double.now();
    return pullAnswer(ctx.repo, p);
  },

  "pulls/merge": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const b = ctx.body as {
      sha?: string;
      merge_method?: "merge" | "squash" | "rebase";
      commit_title?: string;
      commit_message?: string;
    };
    if (p.state !== "open")
      return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
    const head = await ctx.repo.headSha(p);
    if (b.sha && b.sha !== head)
      return {
        status: 409,
        body: { message: "Head branch was modified. Review and try the merge again.", documentation_url: DOCS },
      };
    const tip = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    const message = b.commit_title
      ? `${b.commit_title}${b.commit_message ? `\n\n${b.commit_message}` : ""}`
      : undefined;
    try {
      const done = await applyPull(
        ctx.repo.git,
        tip,
        { number: p.number, headSha: head, ...(message ? { message } : {}) },
        b.merge_method ?? "merge",
        ctx.double.now(),
      );
      await compareAndSwapRef(ctx.repo.git, `refs/heads/${p.base}`, tip, done.tip);
      Object.assign(p, {
        state: "closed",
        mergedAt: ctx.double.now(),
        closedAt: ctx.double.now(),
        mergeCommitSha: done.merged.mergeCommitSha,
        mergedBy: `${ctx.double.appSlug}[bot]`,
      });
      return { status: 200, body: { sha: done.tip, merged: true, message: "Pull Request successfully merged" } };
    } catch (e) {
      if (isMergeConflict(e))
        return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
      throw e;
    }
  },

  "pulls/update-branch": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const head = await ctx.repo.headSha(p);
    if (ctx.body.expected_head_sha && ctx.body.expected_head_sha !== head)
      return unprocessable("expected head sha didn't match current head ref.");
    const base = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    if (await isAncestor(ctx.repo.git, base, head))
      return unprocessable("There are no new commits on the base branch.");
    try {
      const sha = await createMergeCommit(ctx.repo.git, {
        into: head,
        from: base,
        message: `Merge branch '${p.base}' into ${p.headRef}`,
        date: ctx.double.now(),
      });
      // GitHub updates in the background: the new head shows from the third read on.
      ctx.double.pendingUpdates.set(`${ctx.repo.fullName}#${p.number}`, { reads: 2, from: head, to: sha });
    } catch (e) {
      if (isMergeConflict(e)) return unprocessable("merge conflict between base and head");
      throw e;
    }
    return {
      status: 202,
      body: {
        message: "Updating pull request branch.",
        url: `https://github.com/${ctx.repo.fullName}/pull/${p.number}`,
      },
    };
  },
};
