/**
 * `GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls` in the GitHub test double: "Lists the
 * merged pull request that introduced the commit to the repository. If the commit is not present
 * in the default branch, it will return merged and open pull requests associated with the commit"
 * (https://docs.github.com/en/rest/commits/commits#list-pull-requests-associated-with-a-commit).
 * Associated: the commit is the pull request's head or one of its commits (reachable from the head,
 * not from the base). Items are the pull request's JSON without the fields a list leaves out.
 */
import { readRef } from "../../../../services/forge/local/git/index.js";
import { linkHeaders, page, type Handler } from "./double-answers.js";
import { NOT_IN_LISTS, pullAnswer } from "./double-pull-answer.js";
import { headIn, readRefs } from "./double-refs.js";
import type { DoublePull } from "./double-state.js";

export const commitPullHandlers: Record<string, Handler> = {
  "repos/list-pull-requests-associated-with-commit": async (ctx) => {
    const repo = ctx.repo;
    const sha = /^[0-9a-f]{40}$/.test(ctx.params.commit_sha)
      ? ctx.params.commit_sha
      : await readRef(repo.git, `refs/heads/${ctx.params.commit_sha}`);
    if (!sha) return { status: 200, body: [] };
    // Two git commands for any number of pull requests: every ref, and the refs holding the commit.
    const [refs, holding] = await Promise.all([readRefs(repo), readRefs(repo, sha).catch(() => new Map())]);
    const inDefault = holding.has(`refs/heads/${repo.defaultBranch}`);
    const matches: DoublePull[] = [];
    for (const p of repo.pulls.values()) {
      const head = headIn(refs, p);
      if (inDefault) {
        if (p.mergedAt !== null && (p.mergeCommitSha === sha || head === sha)) matches.push(p);
        continue;
      }
      if (p.state !== "open" && p.mergedAt === null) continue;
      const headHolds =
        head === sha || (p.fork ? holding.has(`refs/pull/${p.number}/head`) : holding.has(`refs/heads/${p.headRef}`));
      if (headHolds && (head === sha || !holding.has(`refs/heads/${p.base}`))) matches.push(p);
    }
    const shown = page(matches, ctx.query);
    const items = [];
    for (const p of shown) {
      const { body } = await pullAnswer(repo, p, 200, refs);
      for (const k of NOT_IN_LISTS) delete body[k];
      items.push(body);
    }
    return { status: 200, headers: linkHeaders(ctx, matches.length), body: items };
  },
};
