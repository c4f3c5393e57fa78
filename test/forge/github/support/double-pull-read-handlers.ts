/**
 * The GitHub test double's pull request reads: one pull request (where a background branch update
 * shows from its third read on), the list in GitHub's order and filters, its changed files and its
 * commits (https://docs.github.com/en/rest/pulls/pulls).
 */
import { commitsBetween, compareAndSwapRef } from "../../../../services/forge/local/git/index.js";
import { linkHeaders, notFound, page, type Handler } from "./double-answers.js";
import { commitJson } from "./double-json.js";
import { once } from "./double-memo.js";
import { diffEntries, NOT_IN_LISTS, pullAnswer, pullFacts } from "./double-pull-answer.js";
import { readRefs } from "./double-refs.js";
import type { DoublePull } from "./double-state.js";

/**
 * GitHub's order of a pull request list: `sort` created (default) or updated, `direction` asc or
 * desc, by default "desc when sort is created or sort is not specified, otherwise asc"
 * (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests).
 */
function pullOrder(q: URLSearchParams): (a: DoublePull, b: DoublePull) => number {
  const by = q.get("sort") === "updated" ? "updatedAt" : "createdAt";
  const sign = (q.get("direction") ?? (by === "createdAt" ? "desc" : "asc")) === "desc" ? -1 : 1;
  return (a, b) => sign * (a[by].getTime() - b[by].getTime() || a.number - b.number);
}
export const pullReadHandlers: Record<string, Handler> = {
  "pulls/get": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const key = `${ctx.repo.fullName}#${p.number}`;
    const pending = ctx.double.pendingUpdates.get(key);
    if (pending && pending.reads-- <= 0) {
      await compareAndSwapRef(ctx.repo.git, `refs/pull/${p.number}/head`, pending.from, pending.to);
      ctx.double.pendingUpdates.delete(key);
    }
    return pullAnswer(ctx.repo, p);
  },

  "pulls/list": async (ctx) => {
    const state = ctx.query.get("state") ?? "open";
    // GitHub's `head` filter is "owner:branch"; `base` a branch name.
    const head = ctx.query.get("head");
    const base = ctx.query.get("base");
    const pulls = [...ctx.repo.pulls.values()]
      .filter((p) => state === "all" || p.state === state)
      .filter((p) => head === null || (p.fork === null && head === `${ctx.repo.owner}:${p.headRef}`))
      .filter((p) => base === null || p.base === base)
      .sort(pullOrder(ctx.query));
    const shown = page(pulls, ctx.query);
    const bodies = [];
    const refs = await readRefs(ctx.repo);
    for (const p of shown) {
      const { body } = await pullAnswer(ctx.repo, p, 200, refs);
      for (const k of NOT_IN_LISTS) delete body[k];
      bodies.push(body);
    }
    return { status: 200, headers: linkHeaders(ctx, pulls.length), body: bodies };
  },

  "pulls/list-files": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const f = await pullFacts(ctx.repo, p);
    const files = await diffEntries(ctx.repo, f.base, f.head);
    return { status: 200, headers: linkHeaders(ctx, files.length), body: page(files, ctx.query) };
  },

  "pulls/list-commits": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const f = await pullFacts(ctx.repo, p);
    const commits = await once(`between ${ctx.repo.git.gitDir} ${f.base} ${f.head}`, () =>
      commitsBetween(ctx.repo.git, f.base, f.head),
    );
    return {
      status: 200,
      headers: linkHeaders(ctx, commits.length),
      body: page(commits, ctx.query).map((c) => commitJson(ctx.repo.fullName, c, c.message.includes("[signed]"))),
    };
  },
};
