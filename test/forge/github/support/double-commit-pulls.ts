/**
 * `GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls` in the GitHub test double: "Lists the
 * merged pull request that introduced the commit to the repository. If the commit is not present
 * in the default branch, it will return merged and open pull requests associated with the commit"
 * (https://docs.github.com/en/rest/commits/commits#list-pull-requests-associated-with-a-commit).
 * Associated: the commit is the pull request's head or one of its commits (reachable from the head,
 * not from the base). Items are the pull request's JSON without the fields a list leaves out.
 */
import { isAncestor, readRef } from "../../../../services/forge/local/git/index.js";
import { linkHeaders, page, type Handler } from "./double-answers.js";
import { pullAnswer } from "./double-pull-handlers.js";
import type { DoublePull } from "./double-state.js";

/** Fields of a full pull request that `pull-request-simple` (list items) does not carry. */
const NOT_IN_LISTS = [
  "merged",
  "mergeable",
  "mergeable_state",
  "merged_by",
  "comments",
  "review_comments",
  "maintainer_can_modify",
  "commits",
  "additions",
  "deletions",
  "changed_files",
  "rebaseable",
];

export const commitPullHandlers: Record<string, Handler> = {
  "repos/list-pull-requests-associated-with-commit": async (ctx) => {
    const repo = ctx.repo;
    const sha = /^[0-9a-f]{40}$/.test(ctx.params.commit_sha)
      ? ctx.params.commit_sha
      : await readRef(repo.git, `refs/heads/${ctx.params.commit_sha}`);
    if (!sha) return { status: 200, body: [] };
    const defaultTip = (await readRef(repo.git, `refs/heads/${repo.defaultBranch}`))!;
    const inDefault = await isAncestor(repo.git, sha, defaultTip).catch(() => false);
    const matches: DoublePull[] = [];
    for (const p of repo.pulls.values()) {
      if (inDefault) {
        if (p.mergedAt !== null && (p.mergeCommitSha === sha || (await repo.headSha(p)) === sha)) matches.push(p);
        continue;
      }
      if (p.state !== "open" && p.mergedAt === null) continue;
      const head = await repo.headSha(p);
      if (head === sha) {
        matches.push(p);
        continue;
      }
      const baseTip = await readRef(repo.git, `refs/heads/${p.base}`);
      const inHead = await isAncestor(repo.git, sha, head).catch(() => false);
      const inBase = baseTip !== null && (await isAncestor(repo.git, sha, baseTip).catch(() => false));
      if (inHead && !inBase) matches.push(p);
    }
    const shown = page(matches, ctx.query);
    const items = [];
    for (const p of shown) {
      const { body } = await pullAnswer(repo, p);
      for (const k of NOT_IN_LISTS) delete body[k];
      items.push(body);
    }
    return { status: 200, headers: linkHeaders(ctx, matches.length), body: items };
  },
};
